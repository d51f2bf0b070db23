package main

import (
	"context"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// engineCheckInterval is how often the host asks whether the engine is still there. The upstream
// host does the same through rpcutil.Healthcheck (every 5 minutes); a killed CLI (SIGKILL, a
// cancelled CI job) must not leave this host and its Node.js program running for that long.
const engineCheckInterval = 2 * time.Second

// missedChecksBeforeExit tolerates one slow answer on a busy machine.
const missedChecksBeforeExit = 2

// watchEngine exits the host, after killing the programs it runs, once the engine stops
// answering health checks. An engine without a health service (Unimplemented) counts as alive.
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
		killChildren()
		os.Exit(1)
	}
}
