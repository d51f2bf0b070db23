package main

import (
	"errors"
	"fmt"

	"github.com/google/shlex"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	"google.golang.org/protobuf/types/known/structpb"
)

// nodeOptions are the `runtime.options` of a Pulumi.yaml (or PulumiPolicy.yaml) that this host
// reads. They are parsed as parseOptions in sdk/nodejs/cmd/pulumi-language-nodejs/main.go of
// pulumi/pulumi v3.248.0 does, with the same defaults and the same error for a wrong type.
type nodeOptions struct {
	// typescript makes @pulumi/pulumi/cmd/run register ts-node; true unless the project says false.
	typescript bool
	// tsconfigPath is handed to cmd/run through PULUMI_NODEJS_TSCONFIG_PATH.
	tsconfigPath string
	// nodeargs is the raw `nodeargs` string; see splitNodeArgs.
	nodeargs string
	// packageManager picks the package manager of InstallDependencies ("auto" by default).
	packageManager npm.PackageManagerType
}

func parseOptions(opts *structpb.Struct) (nodeOptions, error) {
	parsed := nodeOptions{typescript: true, packageManager: npm.AutoPackageManager}
	fields := opts.GetFields()
	if v, ok := fields["typescript"]; ok {
		b, isBool := v.GetKind().(*structpb.Value_BoolValue)
		if !isBool {
			return parsed, errors.New("typescript option must be a boolean")
		}
		parsed.typescript = b.BoolValue
	}
	if v, ok := fields["tsconfig"]; ok {
		s, isString := v.GetKind().(*structpb.Value_StringValue)
		if !isString {
			return parsed, errors.New("tsconfigpath option must be a string")
		}
		parsed.tsconfigPath = s.StringValue
	}
	if v, ok := fields["nodeargs"]; ok {
		s, isString := v.GetKind().(*structpb.Value_StringValue)
		if !isString {
			return parsed, errors.New("nodeargs option must be a string")
		}
		parsed.nodeargs = s.StringValue
	}
	if v, ok := fields["packagemanager"]; ok {
		s, isString := v.GetKind().(*structpb.Value_StringValue)
		if !isString {
			return parsed, errors.New("packagemanager option must be a string")
		}
		switch pm := npm.PackageManagerType(s.StringValue); pm {
		case npm.AutoPackageManager, npm.NpmPackageManager, npm.YarnPackageManager, npm.PnpmPackageManager,
			npm.BunPackageManager:
			parsed.packageManager = pm
		default:
			return parsed, fmt.Errorf("packagemanager option must be one of auto, npm, yarn, pnpm or bun, got %q", pm)
		}
	}
	return parsed, nil
}

// splitNodeArgs splits the `nodeargs` option into Node.js arguments the way a POSIX shell splits
// words, so `--require "./a b.js"` stays one argument: upstream uses the same splitter
// (github.com/google/shlex) in sdk/nodejs/cmd/pulumi-language-nodejs/main.go of pulumi/pulumi
// v3.248.0. An unterminated quote is an error rather than a guess.
func splitNodeArgs(nodeargs string) ([]string, error) {
	args, err := shlex.Split(nodeargs)
	if err != nil {
		return nil, fmt.Errorf("runtime option nodeargs %q: %w", nodeargs, err)
	}
	return args, nil
}

// typescriptEnv is how cmd/run (and run-plugin, run-policy-pack) receive the TypeScript options,
// which have no command-line flag.
func typescriptEnv(opts nodeOptions) []string {
	var env []string
	if opts.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfigPath != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfigPath)
	}
	return env
}
