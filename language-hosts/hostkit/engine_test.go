package hostkit

import (
	"context"
	"net"
	"testing"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

func TestEngineFromArgsTakesTheLastArgumentUnlessItIsAFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"host", "-root", "/x", "127.0.0.1:4000"}, "127.0.0.1:4000"},
		{[]string{"host", "-tracing"}, ""},
		{[]string{"host"}, ""},
		{nil, ""},
	} {
		if got := EngineFromArgs(c.args).Address(); got != c.want {
			t.Errorf("EngineFromArgs(%q).Address() = %q, want %q", c.args, got, c.want)
		}
	}
}

func TestHandshakeReplacesTheAddressOnlyWhenOneIsSent(t *testing.T) {
	e := EngineFromArgs([]string{"host", "127.0.0.1:1"})
	if _, err := e.Handshake(context.Background(), &pulumirpc.LanguageHandshakeRequest{}); err != nil {
		t.Fatal(err)
	}
	if got := e.Address(); got != "127.0.0.1:1" {
		t.Fatalf("an empty handshake changed the address to %q", got)
	}
	if _, err := e.Handshake(context.Background(), &pulumirpc.LanguageHandshakeRequest{EngineAddress: "127.0.0.1:2"}); err != nil {
		t.Fatal(err)
	}
	if got := e.Address(); got != "127.0.0.1:2" {
		t.Fatalf("Address() = %q after the handshake, want 127.0.0.1:2", got)
	}
}

// serveGRPC serves srv on a loopback port until the test ends (or stop is called) and returns its address.
func serveGRPC(t *testing.T, srv *grpc.Server) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

// watchFor runs watchEngine with a short interval and says whether it decided the engine was gone within d.
func watchFor(address string, d time.Duration) bool {
	gone := make(chan struct{})
	go watchEngine(address, 20*time.Millisecond, func() { close(gone) })
	select {
	case <-gone:
		return true
	case <-time.After(d):
		return false
	}
}

func TestWatchEngineKeepsAnEngineThatAnswersHealthChecks(t *testing.T) {
	srv := grpc.NewServer()
	healthpb.RegisterHealthServer(srv, health.NewServer())
	if watchFor(serveGRPC(t, srv), 500*time.Millisecond) {
		t.Fatal("an engine that answers health checks was taken for gone")
	}
}

// Engines without a health service answer Unimplemented; that is an engine that is there.
func TestWatchEngineKeepsAnEngineWithoutAHealthService(t *testing.T) {
	if watchFor(serveGRPC(t, grpc.NewServer()), 500*time.Millisecond) {
		t.Fatal("an engine without a health service was taken for gone")
	}
}

func TestWatchEngineNoticesAnEngineThatStopped(t *testing.T) {
	srv := grpc.NewServer()
	healthpb.RegisterHealthServer(srv, health.NewServer())
	address := serveGRPC(t, srv)
	srv.Stop()
	if !watchFor(address, 5*time.Second) {
		t.Fatal("a stopped engine was not noticed within 5 s")
	}
}
