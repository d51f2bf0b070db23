package main

import (
	"context"
	"os"
	"os/exec"
	"time"
)

// stopGrace is how long a Node.js process has to exit after SIGINT before it is killed: the same
// 5 seconds as exec.Cmd.WaitDelay in sdk/nodejs/cmd/pulumi-language-nodejs/main.go of pulumi/pulumi
// v3.248.0, and as the engine gives this host itself before it kills the process group
// (sdk/go/common/resource/plugin/plugin.go).
const stopGrace = 5 * time.Second

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
