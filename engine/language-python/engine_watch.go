package main

import (
	"context"
	"os"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// engineCheckInterval is how often the host asks whether the engine is still there (the Node.js host,
// engine/language-nodejs/engine_watch.go, does the same): a killed CLI must not leave this host and its
// Python program running.
const engineCheckInterval = 2 * time.Second

// missedChecksBeforeExit tolerates one slow answer on a busy machine.
const missedChecksBeforeExit = 2

// children are the processes this host started; they are killed when the engine is gone.
var children = struct {
	sync.Mutex
	procs map[*os.Process]struct{}
}{procs: map[*os.Process]struct{}{}}

func trackChild(p *os.Process) func() {
	children.Lock()
	children.procs[p] = struct{}{}
	children.Unlock()
	return func() {
		children.Lock()
		delete(children.procs, p)
		children.Unlock()
	}
}

// watchEngine exits the host, after killing the programs it runs, once the engine stops answering health
// checks. An engine without a health service (Unimplemented) counts as alive.
func watchEngine(address string) {
	conn, err := grpc.NewClient(address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return
	}
	health := healthpb.NewHealthClient(conn)
	missed := 0
	for {
		time.Sleep(engineCheckInterval)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := health.Check(ctx, &healthpb.HealthCheckRequest{})
		cancel()
		if err == nil || status.Code(err) == codes.Unimplemented {
			missed = 0
			continue
		}
		if missed++; missed < missedChecksBeforeExit {
			continue
		}
		children.Lock()
		for p := range children.procs {
			_ = p.Kill()
		}
		children.Unlock()
		os.Exit(1)
	}
}
