// Command pulumi-language-nodejs is a Node.js language host for the Pulumi engine.
//
// The engine starts a language host to run the program of a `runtime: nodejs` project, and to run
// Node.js plugins such as policy packs. The upstream host cannot be fetched as a Go module on our
// build machines (see README.md), so this one implements the RPCs that `pulumi` commands use on
// Node.js projects, following the upstream host of the same version
// (sdk/nodejs/cmd/pulumi-language-nodejs in pulumi/pulumi v3.248.0), and hands the real work to
// the runners that ship in @pulumi/pulumi (`cmd/run`, `cmd/run-plugin`, `cmd/run-policy-pack`).
// One file per RPC: run.go, run_plugin.go, required_plugins.go, install.go, dependencies.go; the
// code-generation RPCs, which hand the work to pkg/v3/codegen/nodejs, are in generate.go.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"pulumi-custody.local/language-hosts/hostkit"
)

func main() {
	engine := hostkit.EngineFromArgs(os.Args)
	if address := engine.Address(); address != "" {
		go hostkit.WatchEngine(address)
	}
	h := newHost(engine)
	srv := grpc.NewServer()
	pulumirpc.RegisterLanguageRuntimeServer(srv, h)

	// The engine closes a plugin by sending SIGINT to its process group, and SIGKILL 5 seconds
	// later (sdk/go/common/resource/plugin/plugin.go). Stop the Node.js processes first, then let
	// the RPCs waiting on them return, so none outlives this host: upstream's main does the same
	// with signal.NotifyContext and a graceful stop.
	sigCtx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigCtx.Done()
		stopSignals()
		h.cancel()
		hostkit.WaitForChildren(stopGrace + stopGrace/2)
		srv.Stop()
	}()

	hostkit.Serve("pulumi-language-nodejs", srv)
}

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	engine *hostkit.Engine

	// cancelCtx is done once the engine called Cancel (or this host was interrupted); every
	// Node.js process started afterwards is stopped at once, as upstream's host does.
	cancelCtx context.Context
	cancel    context.CancelFunc
}

func newHost(engine *hostkit.Engine) *host {
	ctx, cancel := context.WithCancel(context.Background())
	return &host{engine: engine, cancelCtx: ctx, cancel: cancel}
}

func (h *host) Handshake(ctx context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	return h.engine.Handshake(ctx, req)
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: hostkit.PluginVersion()}, nil
}

// Cancel is called by the engine when the user interrupts an operation (the first Ctrl-C) and
// before it closes this host. It stops the Node.js programs and plugins: SIGINT, then a kill after
// stopGrace (process.go).
func (h *host) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.cancel()
	return &emptypb.Empty{}, nil
}

func (h *host) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

func (h *host) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find node on $PATH")
	}
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("running %s --version: %w", node, err)
	}
	return &pulumirpc.AboutResponse{
		Executable: node,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "v"),
	}, nil
}
