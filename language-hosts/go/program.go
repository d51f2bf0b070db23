package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"

	"pulumi-custody.local/language-hosts/hostkit"
)

// options are Pulumi.yaml's `runtime.options` for Go, as upstream reads them.
type options struct {
	// binary is a prebuilt program to run instead of building one: a name looked up on PATH, or a path.
	binary string
	// buildTarget is where `go build` writes the program (kept after the run); a temporary file otherwise.
	buildTarget string
}

// parseOptions reads `binary` and `buildTarget`. Anything else is refused by name rather than ignored.
func parseOptions(info *pulumirpc.ProgramInfo) (options, error) {
	var opts options
	raw := info.GetOptions().AsMap()
	keys := make([]string, 0, len(raw))
	for key := range raw {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		value, ok := raw[key].(string)
		switch key {
		case "binary", "buildTarget":
			if !ok || value == "" {
				return opts, fmt.Errorf("runtime option %s must be a non-empty string: a file name", key)
			}
			if key == "binary" {
				opts.binary = value
			} else {
				opts.buildTarget = value
			}
		default:
			return opts, fmt.Errorf("runtime option %s is not supported by this language host (supported: binary, buildTarget)", key)
		}
	}
	if opts.binary != "" && opts.buildTarget != "" {
		return opts, errors.New("runtime options binary and buildTarget cannot both be set: binary runs a prebuilt program, buildTarget names where to build one")
	}
	if opts.buildTarget != "" && !filepath.IsAbs(opts.buildTarget) {
		opts.buildTarget = filepath.Join(info.GetRootDirectory(), opts.buildTarget)
	}
	return opts, nil
}

// programEnv is the environment a Go program reads its run from (github.com/pulumi/pulumi/sdk/v3/go/pulumi's
// Env* variables, read by pulumi.Run): the host's own environment, then the run's variables. Empty values are
// left out, as upstream does, but the configuration is always there (`{}` and `[]` when empty).
func programEnv(base []string, req *pulumirpc.RunRequest, engineAddress string) ([]string, error) {
	config, err := hostkit.ConfigEnv(req)
	if err != nil {
		return nil, err
	}
	env := append(append([]string{}, base...), config...)
	for _, kv := range [][2]string{
		{pulumi.EnvOrganization, req.GetOrganization()},
		{pulumi.EnvProject, req.GetProject()},
		{pulumi.EnvPulumiRootDirectory, req.GetInfo().GetRootDirectory()},
		{pulumi.EnvStack, req.GetStack()},
		{pulumi.EnvDryRun, strconv.FormatBool(req.GetDryRun())},
		{pulumi.EnvParallel, strconv.Itoa(int(req.GetParallel()))},
		{pulumi.EnvMonitor, req.GetMonitorAddress()},
		{pulumi.EnvEngine, engineAddress},
	} {
		if kv[1] != "" {
			env = append(env, kv[0]+"="+kv[1])
		}
	}
	return env, nil
}

// Run builds the program (`go build` in its directory) unless `binary` names a prebuilt one, then runs it in
// the run's working directory with programEnv. A build error is the answer, with what `go build` printed.
func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if req.GetAttachDebugger() {
		return &pulumirpc.RunResponse{Error: "this language host does not support attaching a debugger"}, nil
	}
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	env, err := programEnv(os.Environ(), req, h.engine.Address())
	if err != nil {
		return nil, err
	}

	program := opts.binary
	if program != "" {
		if program, err = exec.LookPath(opts.binary); err != nil {
			return nil, fmt.Errorf("runtime option binary: could not find %s: %w", opts.binary, err)
		}
	} else {
		if program, err = buildProgram(ctx, req.GetInfo().GetProgramDirectory(), opts.buildTarget); err != nil {
			return &pulumirpc.RunResponse{Error: err.Error()}, nil
		}
		if opts.buildTarget == "" {
			defer os.Remove(program)
		}
	}

	cmd := exec.Command(program)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	// Whatever the program prints is shown by the engine as the program's output.
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return hostkit.RunProgram(cmd, "the Go program"), nil
}

// buildProgram runs `go build -o <target>` in dir and returns the program's path: target, or a new temporary
// file when target is empty. A failure carries what `go build` printed.
func buildProgram(ctx context.Context, dir, target string) (string, error) {
	if matches, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(matches) == 0 {
		return "", fmt.Errorf("no Go files in %s: a Go program is a main package there", dir)
	}
	gobin, err := goBinary()
	if err != nil {
		return "", err
	}
	if target == "" {
		f, err := os.CreateTemp("", "pulumi-go-program-*")
		if err != nil {
			return "", fmt.Errorf("creating the program's temporary file: %w", err)
		}
		target = f.Name()
		f.Close()
	}
	var output bytes.Buffer
	cmd := exec.CommandContext(ctx, gobin, "build", "-o", target, ".")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("error in compiling Go: `go build` in %s failed (%v):\n%s", dir, err,
			strings.TrimSpace(output.String()))
	}
	info, err := os.Stat(target)
	if err != nil || info.Mode()&0o111 == 0 {
		return "", fmt.Errorf("`go build` in %s wrote no executable: is the program's package `main`?", dir)
	}
	return target, nil
}

// InstallDependencies is `pulumi install` (and the install step of `pulumi new`): `go mod tidy` in the program's
// directory, which adds what the program imports to go.mod and downloads it.
func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()

	gobin, err := goBinary()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Installing dependencies...\n\n")
	cmd := exec.CommandContext(server.Context(), gobin, "mod", "tidy")
	cmd.Dir = req.GetInfo().GetProgramDirectory()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("`go mod tidy` failed to install dependencies: %w", err)
	}
	fmt.Fprintf(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}
