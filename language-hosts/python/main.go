// Command pulumi-language-python is a minimal Python language host for the Pulumi engine.
//
// Users run the upstream host (it ships with the Pulumi CLI). The upstream host lives in a Go module of its
// own (sdk/python/cmd/pulumi-language-python) that the Go module proxy does not serve, so this one exists for
// our tests: it runs a `runtime: python` program, installs its dependencies into a virtualenv, and generates
// Python code (generate.go: a package from a schema, the program `pulumi import` prints). What it does, it
// does with the same pieces as upstream v3.248.0: the toolchain package of
// github.com/pulumi/pulumi/sdk/v3/python/toolchain (virtualenv, pip), the executor script
// `pulumi-language-python-exec` installed next to this binary, and pkg/codegen/python.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"pulumi-custody.local/language-hosts/hostkit"
)

// executorName is the script that runs the program inside Python (pulumi-language-python-exec of the
// pulumi/pulumi repository, sdk/python/cmd): it configures `pulumi.runtime` from its flags and runs the
// program with runpy. Like upstream, the host looks for it next to its own executable.
const executorName = "pulumi-language-python-exec"

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-version" {
		fmt.Println(hostkit.PluginVersion())
		return
	}
	executor, err := findExecutor()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-python: %v\n", err)
		os.Exit(1)
	}
	engine := hostkit.EngineFromArgs(os.Args)
	if address := engine.Address(); address != "" {
		go hostkit.WatchEngine(address)
	}
	srv := grpc.NewServer()
	pulumirpc.RegisterLanguageRuntimeServer(srv, &host{engine: engine, executor: executor})
	// The engine stops this host by killing the process.
	hostkit.Serve("pulumi-language-python", srv)
}

func findExecutor() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("could not determine the host's executable: %w", err)
	}
	path := filepath.Join(filepath.Dir(self), executorName)
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("missing executor %s (scripts/install-pulumi.sh installs it next to the host): %w", path, err)
	}
	return path, nil
}

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	engine   *hostkit.Engine
	executor string
}

func (h *host) Handshake(ctx context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	return h.engine.Handshake(ctx, req)
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: hostkit.PluginVersion()}, nil
}

// Upstream reads the plugins from the pulumi-plugin.json files of the installed packages, so that the engine
// can download them before the program runs. Here the engine loads a provider when the program first
// registers one of its resources, and finds it on PATH (plugin/README.md, "Use").
func (h *host) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *host) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

// InstallDependencies is `pulumi install` (and the install step of `pulumi new`): create the virtualenv of
// `runtime.options.virtualenv` when missing, then `pip install -r requirements.txt` in it, as upstream's pip
// toolchain does.
func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return err
	}
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()

	fmt.Fprintf(stdout, "Installing dependencies...\n\n")
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return err
	}
	if err := tc.InstallDependencies(server.Context(), req.GetInfo().GetProgramDirectory(),
		req.GetUseLanguageVersionTools(), true /*showOutput*/, stdout, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}

// parseOptions reads Pulumi.yaml's `runtime.options`: `virtualenv` (relative to the project root) and
// `toolchain` (pip only here). Unknown options are refused rather than ignored, so a project that relies on
// poetry, uv or a typechecker learns that this host does not run it.
func parseOptions(info *pulumirpc.ProgramInfo) (toolchain.PythonOptions, error) {
	opts := toolchain.PythonOptions{
		Root:       info.GetRootDirectory(),
		ProgramDir: info.GetProgramDirectory(),
		Toolchain:  toolchain.Pip,
	}
	for key, value := range info.GetOptions().AsMap() {
		switch key {
		case "virtualenv":
			s, ok := value.(string)
			if !ok {
				return opts, errors.New("runtime option virtualenv must be a string: the virtualenv's directory")
			}
			opts.Virtualenv = s
		case "toolchain":
			if value != "pip" {
				return opts, fmt.Errorf("runtime option toolchain: this language host runs pip only, got %v", value)
			}
		default:
			return opts, fmt.Errorf("runtime option %s is not supported by this language host (supported: virtualenv, toolchain: pip)", key)
		}
	}
	return opts, nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if req.GetAttachDebugger() {
		return &pulumirpc.RunResponse{Error: "this language host does not support attaching a debugger"}, nil
	}
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	// A missing virtualenv is reported with the command that creates it (`pulumi install`).
	if err := tc.ValidateVenv(ctx); err != nil {
		return nil, err
	}

	cmd, err := tc.Command(ctx, append([]string{"-u", h.executor}, h.arguments(req)...)...)
	if err != nil {
		return nil, err
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	config, err := hostkit.ConfigEnv(req)
	if err != nil {
		return nil, err
	}
	cmd.Env = append(env, config...)
	// Whatever the program prints is shown by the engine as the program's output.
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr

	return hostkit.RunProgram(cmd, "the program (could not run the language executor)"), nil
}

// arguments are the executor's flags (its argparse definitions), then the entry point and the program's own
// arguments, as upstream's constructArguments builds them.
func (h *host) arguments(req *pulumirpc.RunRequest) []string {
	var args []string
	for _, f := range [][2]string{
		{"monitor", req.GetMonitorAddress()},
		{"engine", h.engine.Address()},
		{"project", req.GetProject()},
		{"root_directory", req.GetInfo().GetRootDirectory()},
		{"stack", req.GetStack()},
		{"pwd", req.GetPwd()},
		{"dry_run", strconv.FormatBool(req.GetDryRun())},
		{"parallel", strconv.Itoa(int(req.GetParallel()))},
		{"organization", req.GetOrganization()},
	} {
		if f[1] != "" {
			args = append(args, "--"+f[0], f[1])
		}
	}
	entry := req.GetInfo().GetEntryPoint()
	if entry == "" {
		entry = "."
	}
	return append(append(args, entry), req.GetArgs()...)
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	info, err := tc.About(ctx)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{Executable: info.PythonExecutable, Version: info.PythonVersion.String()}, nil
}

// GetProgramDependencies lists the packages installed in the program's virtualenv (`pip list`); only
// `pulumi about` and update metadata use it.
func (h *host) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	packages, err := tc.ListPackages(ctx, req.GetTransitiveDependencies())
	if err != nil {
		return nil, err
	}
	deps := make([]*pulumirpc.DependencyInfo, 0, len(packages))
	for _, p := range packages {
		deps = append(deps, &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}
