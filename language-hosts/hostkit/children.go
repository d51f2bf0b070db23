package hostkit

import (
	"os"
	"sync"
	"time"
)

// children are the processes a host started and that are still running: stopped when the engine
// cancels or the host is interrupted, killed when the engine is gone (WatchEngine).
var children = struct {
	sync.Mutex
	procs map[*os.Process]struct{}
	wg    sync.WaitGroup
}{procs: map[*os.Process]struct{}{}}

// Track records a started child process; call the returned function, once or more, when it has exited.
func Track(p *os.Process) func() {
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

// WaitForChildren waits at most d for every tracked child to have exited.
func WaitForChildren(d time.Duration) {
	done := make(chan struct{})
	go func() { children.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// KillChildren kills every tracked child at once (SIGKILL).
func KillChildren() {
	children.Lock()
	defer children.Unlock()
	for p := range children.procs {
		_ = p.Kill()
	}
}
