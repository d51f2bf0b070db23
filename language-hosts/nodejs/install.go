package main

import (
	"errors"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// InstallDependencies is what `pulumi install` (and `pulumi new`, and the engine before running a
// plugin whose dependencies are missing) calls. It installs with the package manager of the
// project, chosen by the SDK's own npm helper (sdk/nodejs/npm in pulumi/pulumi v3.248.0, the code
// the upstream host uses): the `packagemanager` runtime option when set; otherwise yarn when a
// yarn.lock is present, pnpm for a pnpm-lock.yaml, bun for a bun.lock(b), and npm for the rest. A
// package manager named in the option but not installed is an error naming it; one only guessed
// from a lock file falls back to the next, as upstream does.
func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()

	info := req.GetInfo()
	opts, err := parseOptions(info.GetOptions())
	if err != nil {
		return fmt.Errorf("failed to parse options: %w", err)
	}

	fmt.Fprintf(stdout, "Installing dependencies...\n\n")
	// In an npm/yarn/pnpm workspace the install runs at the workspace root, which owns the lock
	// file and node_modules.
	root := info.GetProgramDirectory()
	if wsRoot, err := npm.FindWorkspaceRoot(root); err == nil {
		fmt.Fprintf(stdout, "Detected workspace root at %s\n", wsRoot)
		root = wsRoot
	} else if !errors.Is(err, npm.ErrNotInWorkspace) {
		return fmt.Errorf("failure while trying to find workspace root: %w", err)
	}

	// The RPC's context stops the package manager when the engine gives up (Ctrl-C).
	if _, err := npm.Install(server.Context(), opts.packageManager, root, false /*production*/, stdout, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}
