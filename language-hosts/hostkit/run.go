package hostkit

import (
	"errors"
	"fmt"
	"os/exec"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ExitAfterLoggedError is the exit code of the language runners (@pulumi/pulumi's cmd/run, Python's
// pulumi-language-python-exec) once they have reported the program's error through the engine: the
// engine then stops without adding a generic "program failed" message.
const ExitAfterLoggedError = 32

// RunProgram starts cmd, tracks it as a child until it exits, and says how it ended as the engine
// expects from Run: nothing when it succeeded, Bail after an error already reported, an error message
// otherwise. startFailure names what could not be started ("the Node.js program").
func RunProgram(cmd *exec.Cmd, startFailure string) *pulumirpc.RunResponse {
	err := cmd.Start()
	if err == nil {
		untrack := Track(cmd.Process)
		err = cmd.Wait()
		untrack()
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}
	case errors.As(err, &exitErr) && exitErr.ExitCode() == ExitAfterLoggedError:
		return &pulumirpc.RunResponse{Bail: true}
	case errors.As(err, &exitErr) && exitErr.ExitCode() > 0:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode())}
	case errors.As(err, &exitErr):
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited unexpectedly: %v", exitErr)}
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not start %s: %v", startFailure, err)}
	}
}
