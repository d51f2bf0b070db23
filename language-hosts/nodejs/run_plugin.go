package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"

	"github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-custody.local/language-hosts/hostkit"
)

// RunPlugin runs a plugin written in Node.js: a policy pack (kind "analyzer", what
// `pulumi preview --policy-pack` starts) or another plugin (a provider, a tool). It follows
// RunPlugin in sdk/nodejs/cmd/pulumi-language-nodejs/main.go of pulumi/pulumi v3.248.0: the
// plugin's output streams back to the engine, which reads the plugin's port from it.
func (h *host) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	ctx := server.Context()
	info := req.GetInfo()
	pluginDir := info.GetProgramDirectory()
	isPolicyPack := req.GetKind() == string(apitype.AnalyzerPlugin)

	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()

	if req.GetAttachDebugger() {
		return errors.New("this language host does not support attaching a debugger")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return errors.New("could not find node on $PATH")
	}
	opts, err := parseOptions(info.GetOptions())
	if err != nil {
		return err
	}
	nodeArgs, err := splitNodeArgs(opts.nodeargs)
	if err != nil {
		return err
	}
	// The engine sends the whole environment the plugin should see (its own, plus e.g.
	// PULUMI_CONFIG for analyzers), so os.Environ() is not added.
	env := append(req.GetEnv(), typescriptEnv(opts)...)

	// Policy packs have their own runner: they used to be started by a "pulumi-analyzer-policy"
	// shim that ran it, and the npm package keeps it for them.
	runPath := "@pulumi/pulumi/cmd/run-plugin"
	if isPolicyPack {
		runPath = "@pulumi/pulumi/cmd/run-policy-pack"
	}
	runScript, err := locateModule(ctx, node, runPath, pluginDir, "npm install in "+pluginDir)
	if err != nil {
		return err
	}

	// Upstream passes nodeargs after the runner script, where the runner's argument parser
	// swallows them; here they go before it, to Node, as for programs (see README.md).
	args := append(nodeArgs, runScript)
	// run-policy-pack wants the engine address first and the pack's directory last; run-plugin
	// wants the plugin's directory first.
	if isPolicyPack {
		args = append(args, req.GetArgs()...)
		args = append(args, pluginDir)
	} else {
		args = append(args, pluginDir)
		args = append(args, req.GetArgs()...)
	}

	// @pulumi/policy reads the stack's name, config, ... from the environment at start-up, while
	// the 3.248 engine sends them afterwards through the analyzer's ConfigureStack RPC. The proxy
	// from the SDK (sdk/policy_proxy.go, which upstream uses too) answers the engine first,
	// collects that configuration, then forwards every other analyzer call to the real pack.
	var policyProxy *sdk.PolicyProxy
	if isPolicyPack {
		policyProxy, stdout, err = sdk.NewPolicyProxy(ctx, stdout)
		if err != nil {
			return fmt.Errorf("could not start policy pack proxy: %w", err)
		}
		config, err := policyProxy.AwaitConfiguration(ctx)
		if err != nil {
			return fmt.Errorf("could not get stack configuration: %w", err)
		}
		policyEnv, err := policyPackEnv(config)
		if err != nil {
			return err
		}
		env = append(env, policyEnv...)
	}

	cmd, release := nodeCommand(ctx, h.cancelCtx, node, args...)
	defer release()
	// Node policy packs have always run from their own directory; other plugins from the
	// engine's working directory.
	cmd.Dir = req.GetPwd()
	if isPolicyPack {
		cmd.Dir = pluginDir
	}
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = stdout, stderr

	if err := cmd.Start(); err != nil {
		return fmt.Errorf("could not start the Node.js plugin: %w", err)
	}
	untrack := hostkit.Track(cmd.Process)
	defer untrack()
	if policyProxy != nil {
		err = policyProxy.Attach(ctx, cmd) // returns once the pack has exited
	} else {
		err = cmd.Wait()
	}
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if code := exitErr.ExitCode(); code >= 0 {
				return fmt.Errorf("Program exited with non-zero exit code: %d", code)
			}
			return fmt.Errorf("Program exited unexpectedly: %w", exitErr)
		}
		return err
	}
	return closer.Close()
}

// policyPackEnv is the environment @pulumi/policy reads the stack from (its runtime settings,
// PULUMI_NODEJS_*), built from the engine's ConfigureStack request. config is nil when the engine
// asked something else first (e.g. `pulumi policy publish`): then there is no stack.
func policyPackEnv(config *pulumirpc.AnalyzerStackConfigureRequest) ([]string, error) {
	if config == nil {
		return nil, nil
	}
	var env []string
	add := func(k, v string) {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	add("PULUMI_NODEJS_ORGANIZATION", config.GetOrganization())
	add("PULUMI_NODEJS_PROJECT", config.GetProject())
	add("PULUMI_NODEJS_STACK", config.GetStack())
	add("PULUMI_NODEJS_DRY_RUN", strconv.FormatBool(config.GetDryRun()))
	if c := config.GetConfig(); c != nil {
		b, err := json.Marshal(c)
		if err != nil {
			return nil, fmt.Errorf("could not marshal stack configuration: %w", err)
		}
		add("PULUMI_CONFIG", string(b))
	}
	return env, nil
}
