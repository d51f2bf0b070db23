package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"

	"pulumi-custody.local/language-hosts/hostkit"
)

// startSleepingProgram runs, through Run, a runner script that writes its pid and never ends. With
// ignoreSIGINT it also ignores SIGINT, as a program cleaning up on Ctrl-C may. It returns the pid
// and a channel that receives Run's response.
func startSleepingProgram(
	t *testing.T, ctx context.Context, h *host, ignoreSIGINT bool,
) (int, <-chan *pulumirpc.RunResponse) {
	t.Helper()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := `require("fs").writeFileSync(process.env.PID_FILE, String(process.pid)); setInterval(() => {}, 1000);`
	if ignoreSIGINT {
		script += ` process.on("SIGINT", () => {});`
	}
	runner := filepath.Join(dir, "runner.js")
	if err := os.WriteFile(runner, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH", runner)
	t.Setenv("PID_FILE", pidFile)

	done := make(chan *pulumirpc.RunResponse, 1)
	go func() {
		resp, err := h.Run(ctx, &pulumirpc.RunRequest{
			Pwd:  dir,
			Info: &pulumirpc.ProgramInfo{RootDirectory: dir, ProgramDirectory: dir, EntryPoint: "."},
		})
		if err != nil {
			resp = &pulumirpc.RunResponse{Error: "rpc error: " + err.Error()}
		}
		done <- resp
	}()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			return pid, done
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the program did not start")
	return 0, nil
}

// gone reports whether pid no longer runs (exited and reaped by Run's Wait).
func gone(pid int) bool { return syscall.Kill(pid, 0) != nil }

func waitRun(t *testing.T, done <-chan *pulumirpc.RunResponse, within time.Duration) *pulumirpc.RunResponse {
	t.Helper()
	select {
	case resp := <-done:
		return resp
	case <-time.After(within):
		t.Fatalf("Run did not return within %v", within)
		return nil
	}
}

func TestCancelStopsTheProgram(t *testing.T) {
	h := newHost(hostkit.EngineFromArgs(nil))
	pid, done := startSleepingProgram(t, context.Background(), h, false)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })

	if _, err := h.Cancel(context.Background(), &emptypb.Empty{}); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	resp := waitRun(t, done, 3*time.Second) // SIGINT ends a program without a handler at once
	if resp.GetError() == "" {
		t.Errorf("a cancelled program is reported as failed, got %+v", resp)
	}
	if !gone(pid) {
		t.Errorf("node (pid %d) still runs after Cancel", pid)
	}
}

func TestCancelKillsAProgramThatIgnoresSIGINT(t *testing.T) {
	h := newHost(hostkit.EngineFromArgs(nil))
	pid, done := startSleepingProgram(t, context.Background(), h, true)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })

	start := time.Now()
	if _, err := h.Cancel(context.Background(), &emptypb.Empty{}); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	waitRun(t, done, stopGrace+5*time.Second)
	if elapsed := time.Since(start); elapsed < stopGrace-time.Second {
		t.Errorf("killed after %v: the program should get %v to clean up", elapsed, stopGrace)
	}
	if !gone(pid) {
		t.Errorf("node (pid %d) still runs after Cancel", pid)
	}
}

func TestEngineHangingUpStopsTheProgram(t *testing.T) {
	h := newHost(hostkit.EngineFromArgs(nil))
	ctx, cancel := context.WithCancel(context.Background())
	pid, done := startSleepingProgram(t, ctx, h, false)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })

	cancel() // what gRPC does to the Run call when the engine's connection goes away
	waitRun(t, done, 3*time.Second)
	if !gone(pid) {
		t.Errorf("node (pid %d) still runs after the Run call was cancelled", pid)
	}
}
