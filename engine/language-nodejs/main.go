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
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// defaultVersion is reported when the build did not stamp one; the install script sets the same
// version ldflag as for the CLI (github.com/pulumi/pulumi/sdk/v3/go/common/version.Version).
const defaultVersion = "3.248.0"

func main() {
	// The engine passes its own address as the last argument. Older engines also passed flags
	// (-tracing, -root, -typescript, ...); they are ignored, and the per-program settings come from
	// the request's ProgramInfo.Options instead.
	var engineAddress string
	if n := len(os.Args); n > 1 && !strings.HasPrefix(os.Args[n-1], "-") {
		engineAddress = os.Args[n-1]
	}

	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: could not listen: %v\n", err)
		os.Exit(1)
	}
	if engineAddress != "" {
		go watchEngine(engineAddress)
	}
	h := newHost(engineAddress)
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
		waitForChildren(stopGrace + stopGrace/2)
		srv.Stop()
	}()

	// The engine reads the port from the first line of our stdout.
	fmt.Printf("%d\n", lis.Addr().(*net.TCPAddr).Port)
	if err := srv.Serve(lis); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: %v\n", err)
		os.Exit(1)
	}
}

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu            sync.Mutex
	engineAddress string

	// cancelCtx is done once the engine called Cancel (or this host was interrupted); every
	// Node.js process started afterwards is stopped at once, as upstream's host does.
	cancelCtx context.Context
	cancel    context.CancelFunc
}

func newHost(engineAddress string) *host {
	ctx, cancel := context.WithCancel(context.Background())
	return &host{engineAddress: engineAddress, cancelCtx: ctx, cancel: cancel}
}

func (h *host) engine() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.engineAddress
}

func (h *host) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		h.mu.Lock()
		h.engineAddress = req.GetEngineAddress()
		h.mu.Unlock()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	v := strings.TrimPrefix(version.Version, "v")
	if v == "" {
		v = defaultVersion
	}
	return &pulumirpc.PluginInfo{Version: v}, nil
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
