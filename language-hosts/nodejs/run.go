package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-custody.local/language-hosts/hostkit"
)

// Run runs the program with @pulumi/pulumi/cmd/run. Unlike upstream, the program talks to the
// engine's resource monitor directly: upstream's monitor proxy and sync-invoke pipes serve
// synchronous invokes of provider packages, which dynamic-provider programs do not make.
func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	programDir, entry := info.GetProgramDirectory(), info.GetEntryPoint()
	if programDir == "" { // engines that predate ProgramInfo
		programDir, entry = req.GetPwd(), req.GetProgram() //nolint:staticcheck
	}
	if entry == "" {
		entry = "." // lets cmd/run pick package.json's main/exports
	}
	opts, err := parseOptions(info.GetOptions())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	nodeArgs, err := splitNodeArgs(opts.nodeargs)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on $PATH"}, nil
	}
	runPath := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH")
	if runPath == "" {
		runPath = "@pulumi/pulumi/cmd/run"
	}
	runScript, err := locateModule(ctx, node, runPath, programDir, "pulumi install")
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	if req.GetAttachDebugger() {
		return &pulumirpc.RunResponse{Error: "this language host does not support attaching a debugger"}, nil
	}

	// Node's own arguments first, then the runner and the flags it parses (minimist, see its
	// usage()); the program path and the program's own arguments come last.
	args := append(nodeArgs, runScript,
		"--monitor="+req.GetMonitorAddress(),
		"--project="+req.GetProject(),
		"--stack="+req.GetStack(),
		"--pwd="+req.GetPwd(),
		fmt.Sprintf("--parallel=%d", req.GetParallel()),
	)
	for _, f := range [][2]string{
		{"engine", h.engine.Address()},
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

	cmd, release := nodeCommand(ctx, h.cancelCtx, node, args...)
	defer release()
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	// Whatever the program prints is shown by the engine as the program's output.
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return hostkit.RunProgram(cmd, "the Node.js program"), nil
}

// programEnv is how @pulumi/pulumi receives settings that have no cmd/run flag: stack config
// (runtime/config.ts) and the TypeScript switches read by cmd/run/run.ts.
func programEnv(req *pulumirpc.RunRequest, opts nodeOptions) ([]string, error) {
	config, err := hostkit.ConfigEnv(req)
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), config...)
	return append(env, typescriptEnv(opts)...), nil
}

// locateModule resolves a module the way a program in dir would resolve it, so the runner and the
// program share one copy of @pulumi/pulumi (upstream's locateModule does the same). installHint
// says how to install it when it is missing.
func locateModule(ctx context.Context, node, module, dir, installHint string) (string, error) {
	if _, err := os.Stat(module); err == nil {
		return module, nil // a path, as PULUMI_LANGUAGE_NODEJS_RUN_PATH may give
	}
	cmd := exec.CommandContext(ctx, node, "-e", "process.stdout.write(require.resolve(process.argv[1]))", module)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil || len(out) == 0 {
		return "", fmt.Errorf("could not resolve %s from %s: it looks like the Pulumi SDK has not been installed. "+
			"Have you run %s? (%v)", module, dir, installHint, err)
	}
	return string(out), nil
}
