package hostkit

import (
	"os/exec"
	"strings"
	"testing"
)

// RunProgram's answer is what the engine shows for a program's end, so each way of ending is checked
// against a real process.
func TestRunProgramReportsHowTheProgramEnded(t *testing.T) {
	cases := []struct {
		name      string
		cmd       *exec.Cmd
		bail      bool
		errPrefix string
	}{
		{name: "success", cmd: exec.Command("sh", "-c", "exit 0")},
		{name: "error already reported", cmd: exec.Command("sh", "-c", "exit 32"), bail: true},
		{name: "non-zero exit", cmd: exec.Command("sh", "-c", "exit 3"), errPrefix: "Program exited with non-zero exit code: 3"},
		{name: "killed by a signal", cmd: exec.Command("sh", "-c", "kill -KILL $$"), errPrefix: "Program exited unexpectedly: signal: killed"},
		{name: "not startable", cmd: exec.Command("/nonexistent/runner"), errPrefix: "could not start the test program: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := RunProgram(c.cmd, "the test program")
			if resp.GetBail() != c.bail {
				t.Errorf("Bail = %v, want %v", resp.GetBail(), c.bail)
			}
			if c.errPrefix == "" && resp.GetError() != "" {
				t.Errorf("Error = %q, want none", resp.GetError())
			}
			if c.errPrefix != "" && !strings.HasPrefix(resp.GetError(), c.errPrefix) {
				t.Errorf("Error = %q, want it to start with %q", resp.GetError(), c.errPrefix)
			}
		})
	}
}

// A finished program is no longer a child: KillChildren must not signal a pid that may be reused.
func TestRunProgramUntracksTheChildOnceItExits(t *testing.T) {
	RunProgram(exec.Command("sh", "-c", "exit 0"), "the test program")
	children.Lock()
	defer children.Unlock()
	if n := len(children.procs); n != 0 {
		t.Fatalf("%d children still tracked after the program exited", n)
	}
}
