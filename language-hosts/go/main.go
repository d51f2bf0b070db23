// Command pulumi-language-go is a minimal Go language host for the Pulumi engine.
//
// Users run the upstream host (it ships with the Pulumi CLI). The upstream host lives in a Go module of its own
// (sdk/go/pulumi-language-go) that the Go module proxy does not serve, so this one exists for our tests and for
// `pulumi package gen-sdk --language go`: it builds a `runtime: go` program with `go build` and runs it, lists the
// Pulumi packages of its go.mod, runs `go mod tidy` for `pulumi install`, and generates Go code (generate.go: a
// package from a schema, the program `pulumi import` prints). It follows upstream v3.248.0 for each of these;
// program.go holds what it does with a program, packages.go how it finds the program's Pulumi packages.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"pulumi-custody.local/language-hosts/hostkit"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-version" {
		fmt.Println(hostkit.PluginVersion())
		return
	}
	engine := hostkit.EngineFromArgs(os.Args)
	if address := engine.Address(); address != "" {
		go hostkit.WatchEngine(address)
	}
	srv := grpc.NewServer()
	pulumirpc.RegisterLanguageRuntimeServer(srv, &host{engine: engine})
	// The engine stops this host by killing the process.
	hostkit.Serve("pulumi-language-go", srv)
}

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	engine *hostkit.Engine
}

func (h *host) Handshake(ctx context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	return h.engine.Handshake(ctx, req)
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: hostkit.PluginVersion()}, nil
}

func (h *host) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

// About reports the Go toolchain that builds the programs, as `go version` prints it.
func (h *host) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	gobin, err := goBinary()
	if err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(ctx, gobin, "version").Output()
	if err != nil {
		return nil, fmt.Errorf("running %s version: %w", gobin, err)
	}
	return &pulumirpc.AboutResponse{Executable: gobin, Version: strings.TrimSpace(string(out))}, nil
}

// goBinary is the `go` command on PATH, which builds the programs.
func goBinary() (string, error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("could not find go on $PATH: a Go program needs the Go toolchain (https://go.dev/dl): %w", err)
	}
	return gobin, nil
}
