package hostkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Codegen serves the code-generation RPCs of a language host. Each RPC binds what the engine sends
// with the engine's schema loader, as the upstream hosts of pulumi/pulumi v3.248.0 do
// (sdk/nodejs/cmd/pulumi-language-nodejs/main.go, sdk/python/cmd/pulumi-language-python/main.go), then
// calls the language's generator from pkg/v3/codegen of the same version, so the code `pulumi import`
// prints and the SDK `pulumi package gen-sdk` writes are what users of the upstream hosts get.
type Codegen struct {
	// Program generates the program files of a bound PCL program (GenerateProgram).
	Program func(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error)
	// Project writes a whole project into directory (GenerateProject).
	Project func(directory string, project workspace.Project, program *pcl.Program,
		localDependencies map[string]string) error
	// Package generates the SDK files of a bound schema (GeneratePackage).
	Package func(pkg *schema.Package, extraFiles map[string][]byte, localDependencies map[string]string,
		local bool, loader schema.ReferenceLoader) (map[string][]byte, error)
}

// GenerateProgram turns PCL into a program: the code `pulumi import` prints, and `pulumi convert`.
func (c *Codegen) GenerateProgram(
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

	files, diags, err := c.Program(program)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics = append(rpcDiagnostics, plugin.HclDiagnosticsToRPCDiagnostics(diags)...)
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: rpcDiagnostics}, nil
}

// GenerateProject writes a whole project from a directory of PCL: `pulumi convert --from pcl`.
func (c *Codegen) GenerateProject(
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
	if err := c.Project(req.GetTargetDirectory(), project, program, req.GetLocalDependencies()); err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProjectResponse{Diagnostics: rpcDiagnostics}, nil
}

// GeneratePackage writes the SDK of a provider schema: `pulumi package gen-sdk` and `pulumi package add`.
func (c *Codegen) GeneratePackage(
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

	files, err := c.Package(pkg, req.GetExtraFiles(), req.GetLocalDependencies(), req.GetLocal(), cached)
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

// Link adds generated local SDKs to a project. `pulumi convert` calls it after GenerateProject for the SDKs
// it generated, which it does only for parameterized packages, with an empty list otherwise. The custody
// plugin is not parameterized, so the empty list is all the hosts accept; any package is refused by name
// rather than left out of the project.
func (c *Codegen) Link(_ context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
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

// bindOptions are the upstream hosts': output-versioned invokes, and the lenient binding that
// `pulumi import` and `pulumi convert` ask for unless `--strict`.
func bindOptions(strict bool) []pcl.BindOption {
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	return options
}
