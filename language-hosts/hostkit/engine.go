package hostkit

import (
	"context"
	"os"
	"strings"
	"sync"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// Engine is the address of the engine that started the host: first from the host's last argument,
// then from the Handshake RPC, which newer engines send.
type Engine struct {
	mu      sync.Mutex
	address string
}

// EngineFromArgs reads the engine's address from the host's arguments: the engine passes it last. Older
// engines also passed flags (-tracing, -root, -typescript, ...); the hosts ignore them, and per-program
// settings come from each request's ProgramInfo instead.
func EngineFromArgs(args []string) *Engine {
	e := &Engine{}
	if n := len(args); n > 1 && !strings.HasPrefix(args[n-1], "-") {
		e.address = args[n-1]
	}
	return e
}

// Address is the engine's address as last learned; empty when the engine never sent one.
func (e *Engine) Address() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.address
}

// Handshake records the address the engine sends. A host's own Handshake method delegates here.
func (e *Engine) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		e.mu.Lock()
		e.address = req.GetEngineAddress()
		e.mu.Unlock()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

// engineCheckInterval is how often a host asks whether the engine is still there. The upstream hosts do
// the same through rpcutil.Healthcheck, every 5 minutes; a killed CLI (SIGKILL, a cancelled CI job) must
// not leave a host and the program it runs alive that long.
const engineCheckInterval = 2 * time.Second

// missedChecksBeforeExit tolerates one slow answer on a busy machine.
const missedChecksBeforeExit = 2

// WatchEngine exits the process, after killing the children it runs (Track), once the engine at address
// stops answering health checks. An engine without a health service (Unimplemented) counts as alive.
// It returns only when it cannot connect; run it in its own goroutine.
func WatchEngine(address string) {
	watchEngine(address, engineCheckInterval, func() {
		KillChildren()
		os.Exit(1)
	})
}

func watchEngine(address string, interval time.Duration, gone func()) {
	conn, err := grpc.NewClient(address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return
	}
	defer conn.Close()
	health := healthpb.NewHealthClient(conn)
	missed := 0
	for {
		time.Sleep(interval)
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
		gone()
		return
	}
}
