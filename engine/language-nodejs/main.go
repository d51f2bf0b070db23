// Command pulumi-language-nodejs is a minimal Node.js language host for the Pulumi engine.
//
// The engine starts a language host to run the program of a `runtime: nodejs` project. The
// upstream host cannot be fetched as a Go module on our build machines, so this one covers what
// pulumi-custody needs: programs (plain JS, or TS through ts-node) whose resources are all dynamic
// resources. It reports no provider plugins, installs nothing and hands the real work to the
// program runner that ships in @pulumi/pulumi (`@pulumi/pulumi/cmd/run`).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// defaultVersion is reported when the build did not stamp one; the install script sets the same
// version ldflag as for the CLI (github.com/pulumi/pulumi/sdk/v3/go/common/version.Version).
const defaultVersion = "3.248.0"

// exitAfterLoggedError is the exit code @pulumi/pulumi/cmd/run uses when it has already reported
// the program's error through the engine; the engine should then stop without adding a generic
// "program failed" message.
const exitAfterLoggedError = 32

func main() {
	// The engine passes its own address as the last argument. Older engines also passed flags
	// (-tracing, -root, -typescript, ...); they are ignored, and the per-program settings come from
	// RunRequest.Info.Options instead.
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
	srv := grpc.NewServer()
	pulumirpc.RegisterLanguageRuntimeServer(srv, &host{engineAddress: engineAddress})
	// The engine reads the port from the first line of our stdout, then stops us by killing the
	// process, so Serve only returns on failure.
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

// Dynamic providers run in the bundled pulumi-nodejs plugin, so nothing needs to be installed
// up front. A program using a real provider package would have its plugin requested on demand
// when it registers a resource, which fails when plugin acquisition is disabled: by design.
func (h *host) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

// The project installs its own dependencies (npm ci); running a package manager from the
// engine would race with that, so `pulumi install` only says so.
func (h *host) InstallDependencies(
	_ *pulumirpc.InstallDependenciesRequest, stream grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	return stream.Send(&pulumirpc.InstallDependenciesResponse{
		Stdout: []byte("pulumi-language-nodejs: nothing to install; run `npm ci` in the project to install its dependencies\n"),
	})
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

// GetProgramDependencies lists the dependencies declared in the program's package.json with the
// version installed in node_modules (or the declared range when it is not installed); only
// `pulumi about` and update metadata use it.
func (h *host) GetProgramDependencies(
	_ context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetPwd()
	}
	if dir == "" {
		return &pulumirpc.GetProgramDependenciesResponse{}, nil
	}
	pkgDir, pkg, err := nearestPackageJSON(dir)
	if err != nil || pkgDir == "" {
		return &pulumirpc.GetProgramDependenciesResponse{}, err
	}
	var deps []*pulumirpc.DependencyInfo
	for _, group := range []map[string]string{pkg.Dependencies, pkg.DevDependencies} {
		for name, declared := range group {
			v := declared
			if installed := installedVersion(pkgDir, name); installed != "" {
				v = installed
			}
			deps = append(deps, &pulumirpc.DependencyInfo{Name: name, Version: v})
		}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	programDir, entry := info.GetProgramDirectory(), info.GetEntryPoint()
	if programDir == "" { // engines that predate ProgramInfo
		programDir, entry = req.GetPwd(), req.GetProgram() //nolint:staticcheck
	}
	if entry == "" {
		entry = "." // lets cmd/run pick package.json's main/exports
	}
	opts := info.GetOptions()

	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on $PATH"}, nil
	}
	runScript, err := resolveRunScript(ctx, node, programDir)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	if req.GetAttachDebugger() {
		return &pulumirpc.RunResponse{Error: "this language host does not support attaching a debugger"}, nil
	}

	h.mu.Lock()
	engineAddress := h.engineAddress
	h.mu.Unlock()

	// The flags cmd/run parses (minimist, see its usage()); the program path and its own
	// arguments come last.
	args := strings.Fields(stringOption(opts, "nodeargs"))
	args = append(args, runScript,
		"--monitor="+req.GetMonitorAddress(),
		"--project="+req.GetProject(),
		"--stack="+req.GetStack(),
		"--pwd="+req.GetPwd(),
		fmt.Sprintf("--parallel=%d", req.GetParallel()),
	)
	for _, f := range [][2]string{
		{"engine", engineAddress},
		{"organization", req.GetOrganization()},
		{"root-directory", info.GetRootDirectory()},
	} {
		if f[1] != "" {
			args = append(args, "--"+f[0]+"="+f[1])
		}
	}
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	args = append(args, entry)
	args = append(args, req.GetArgs()...)

	env, err := programEnv(req, opts)
	if err != nil {
		return nil, err
	}

	cmd := exec.Command(node, args...)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	// Whatever the program prints is shown by the engine as the program's output.
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err = cmd.Start(); err == nil {
		untrack := trackChild(cmd.Process)
		err = cmd.Wait()
		untrack()
	}

	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}, nil
	case errors.As(err, &exitErr) && exitErr.ExitCode() == exitAfterLoggedError:
		return &pulumirpc.RunResponse{Bail: true}, nil
	case errors.As(err, &exitErr) && exitErr.ExitCode() > 0:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode())}, nil
	case errors.As(err, &exitErr):
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited unexpectedly: %v", exitErr)}, nil
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not start the Node.js program: %v", err)}, nil
	}
}

// programEnv is how @pulumi/pulumi receives settings that have no cmd/run flag: stack config
// (runtime/config.ts) and the TypeScript switches read by cmd/run/run.ts.
func programEnv(req *pulumirpc.RunRequest, opts *structpb.Struct) ([]string, error) {
	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("encoding config: %w", err)
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("encoding config secret keys: %w", err)
	}

	env := append(os.Environ(),
		"PULUMI_CONFIG="+string(configJSON),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretKeysJSON),
	)
	// Pulumi.yaml `runtime.options.typescript` defaults to true, as with the upstream host; with
	// it cmd/run registers ts-node (the project's, or the copy vendored in @pulumi/pulumi).
	// Projects whose main is precompiled JS set it to false and skip loading the compiler.
	typescript := true
	if v, ok := opts.GetFields()["typescript"]; ok {
		typescript = v.GetBoolValue()
	}
	env = append(env, fmt.Sprintf("PULUMI_NODEJS_TYPESCRIPT=%t", typescript))
	if tsconfig := stringOption(opts, "tsconfig"); tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}
	return env, nil
}

// resolveRunScript finds @pulumi/pulumi/cmd/run the way the program itself will resolve
// @pulumi/pulumi, so the runner and the program share one copy of the SDK.
func resolveRunScript(ctx context.Context, node, programDir string) (string, error) {
	if p := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH"); p != "" {
		return p, nil
	}
	cmd := exec.CommandContext(ctx, node, "-e", "process.stdout.write(require.resolve(process.argv[1]))", "@pulumi/pulumi/cmd/run")
	cmd.Dir = programDir
	out, err := cmd.Output()
	if err != nil || len(out) == 0 {
		return "", fmt.Errorf("could not resolve @pulumi/pulumi/cmd/run from %s: is @pulumi/pulumi installed "+
			"(npm ci)? (%v)", programDir, err)
	}
	return string(out), nil
}

func stringOption(opts *structpb.Struct, name string) string {
	return opts.GetFields()[name].GetStringValue()
}

type packageJSON struct {
	Version         string            `json:"version"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
}

func nearestPackageJSON(dir string) (string, *packageJSON, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil {
			var pkg packageJSON
			if err := json.Unmarshal(b, &pkg); err != nil {
				return "", nil, fmt.Errorf("reading %s: %w", filepath.Join(d, "package.json"), err)
			}
			return d, &pkg, nil
		}
		if filepath.Dir(d) == d {
			return "", nil, nil
		}
	}
}

// installedVersion follows Node's lookup: node_modules/<name> in dir and then in each parent.
func installedVersion(dir, name string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "node_modules", name, "package.json")); err == nil {
			var pkg packageJSON
			if json.Unmarshal(b, &pkg) == nil {
				return pkg.Version
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
