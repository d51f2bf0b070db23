package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The three code-generation RPCs hand the work to the Go codegen of the same Pulumi version
// (pkg/v3/codegen/nodejs), bound with the engine's schema loader, exactly as
// sdk/nodejs/cmd/pulumi-language-nodejs/main.go of pulumi/pulumi v3.248.0 does. So the code that
// `pulumi import` prints and the SDK that `pulumi package gen-sdk` writes are what users of the
// upstream host get.

// nodeRuntime is the runtime the generated code targets; this host runs Node.js only (no Bun).
const nodeRuntime = "nodejs"

// GenerateProgram turns PCL into a TypeScript program: `pulumi import` (its printed code) and
// `pulumi convert --language typescript`.
func (h *host) GenerateProgram(
	_ context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	parser := hclsyntax.NewParser()
	for path, contents := range req.GetSource() {
		if err := parser.ParseFile(strings.NewReader(contents), path); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}

	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), bindOptions(req.GetStrict())...)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiagnostics}, nil
	}
	if program == nil {
		return nil, errors.New("internal error: the bound program is nil")
	}

	files, diags, err := codegen.GenerateProgramWithOptions(program, codegen.ProgramOptions{Runtime: nodeRuntime})
	if err != nil {
		return nil, err
	}
	rpcDiagnostics = append(rpcDiagnostics, plugin.HclDiagnosticsToRPCDiagnostics(diags)...)
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: rpcDiagnostics}, nil
}

// GenerateProject writes a whole TypeScript project (program, package.json, tsconfig.json,
// Pulumi.yaml) from a directory of PCL: `pulumi convert --language typescript`.
func (h *host) GenerateProject(
	_ context.Context, req *pulumirpc.GenerateProjectRequest,
) (*pulumirpc.GenerateProjectResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	program, diags, err := pcl.BindDirectory(req.GetSourceDirectory(), schema.NewCachedLoader(loader),
		bindOptions(req.GetStrict())...)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProjectResponse{Diagnostics: rpcDiagnostics}, nil
	}

	var project workspace.Project
	if err := json.Unmarshal([]byte(req.GetProject()), &project); err != nil {
		return nil, fmt.Errorf("the project sent by the engine is not a Pulumi project: %w", err)
	}
	// forceTsc is upstream's `-typescript=false`-era flag for projects compiled before running; this
	// host has no such flag, so the generated project runs through ts-node like every other here.
	const forceTsc = false
	if err := codegen.GenerateProject(req.GetTargetDirectory(), project, program, req.GetLocalDependencies(),
		forceTsc, nodeRuntime); err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProjectResponse{Diagnostics: rpcDiagnostics}, nil
}

// GeneratePackage writes the TypeScript SDK of a provider schema: `pulumi package gen-sdk
// --language nodejs` and `pulumi package add`.
func (h *host) GeneratePackage(
	_ context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, fmt.Errorf("the schema is not a package schema: %w", err)
	}
	cached := schema.NewCachedLoader(loader)
	pkg, diags, err := schema.BindSpec(spec, cached, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiagnostics}, nil
	}

	files, err := codegen.GeneratePackage("pulumi-language-nodejs", pkg, req.GetExtraFiles(),
		req.GetLocalDependencies(), req.GetLocal(), cached)
	if err != nil {
		return nil, err
	}
	for name, data := range files {
		path := filepath.Join(req.GetDirectory(), name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("could not create output directory %s: %w", filepath.Dir(path), err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return nil, fmt.Errorf("could not write output file %s: %w", name, err)
		}
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiagnostics}, nil
}

// bindOptions are upstream's: output-versioned invokes for Node.js, and the lenient binding that
// `pulumi import` and `pulumi convert` ask for unless `--strict`.
func bindOptions(strict bool) []pcl.BindOption {
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	return options
}

// Link adds generated local SDKs to a project. `pulumi convert` calls it after GenerateProject for the SDKs
// it generated, which it does only for parameterized packages, with an empty list otherwise. The custody
// plugin is not parameterized, so the empty list is all this host accepts; any package is refused by name
// rather than left out of the project.
func (h *host) Link(_ context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	if len(req.GetPackages()) == 0 {
		return &pulumirpc.LinkResponse{}, nil
	}
	names := make([]string, 0, len(req.GetPackages()))
	for _, dep := range req.GetPackages() {
		names = append(names, dep.GetPackage().GetName())
	}
	return nil, status.Errorf(codes.Unimplemented,
		"linking local SDKs (of parameterized packages) is not implemented by this language host: %s",
		strings.Join(names, ", "))
}
