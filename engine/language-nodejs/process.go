package main

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"time"
)

// stopGrace is how long a Node.js process has to exit after SIGINT before it is killed: the same
// 5 seconds as exec.Cmd.WaitDelay in sdk/nodejs/cmd/pulumi-language-nodejs/main.go of pulumi/pulumi
// v3.248.0, and as the engine gives this host itself before it kills the process group
// (sdk/go/common/resource/plugin/plugin.go).
const stopGrace = 5 * time.Second

// children are the processes this host started and that are still running. They are stopped when
// the engine cancels, when this host is interrupted, and killed when the engine is gone
// (engine_watch.go).
var children = struct {
	sync.Mutex
	procs map[*os.Process]struct{}
	wg    sync.WaitGroup
}{procs: map[*os.Process]struct{}{}}

func trackChild(p *os.Process) func() {
	children.Lock()
	children.procs[p] = struct{}{}
	children.wg.Add(1)
	children.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			children.Lock()
			delete(children.procs, p)
			children.Unlock()
			children.wg.Done()
		})
	}
}

// waitForChildren waits at most d for every tracked child to have exited.
func waitForChildren(d time.Duration) {
	done := make(chan struct{})
	go func() { children.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

func killChildren() {
	children.Lock()
	defer children.Unlock()
	for p := range children.procs {
		_ = p.Kill()
	}
}

// nodeCommand builds a command that is stopped when either ctx (the RPC's context: the engine
// hung up) or cancelCtx (the Cancel RPC, or this host being interrupted) is done. Stopping sends
// SIGINT first so a program can clean up, then kills it after stopGrace, as upstream's execRuntime
// does. The returned release function must be called once the command is finished with.
func nodeCommand(ctx, cancelCtx context.Context, bin string, args ...string) (*exec.Cmd, func()) {
	cmdCtx, cmdCancel := context.WithCancel(cancelCtx)
	stopAfter := context.AfterFunc(ctx, cmdCancel)
	cmd := exec.CommandContext(cmdCtx, bin, args...)
	cmd.Cancel = func() error {
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = stopGrace
	return cmd, func() {
		stopAfter()
		cmdCancel()
	}
}
