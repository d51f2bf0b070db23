package main

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-custody.local/language-hosts/hostkit"
)

// nodeRuntime is the runtime the generated code targets; this host runs Node.js only (no Bun).
const nodeRuntime = "nodejs"

// typescriptCodegen is hostkit's code-generation RPCs with pkg/v3/codegen/nodejs, called as upstream's
// host calls it.
var typescriptCodegen = &hostkit.Codegen{
	Program: func(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error) {
		return codegen.GenerateProgramWithOptions(program, codegen.ProgramOptions{Runtime: nodeRuntime})
	},
	Project: func(directory string, project workspace.Project, program *pcl.Program,
		localDependencies map[string]string,
	) error {
		// forceTsc is upstream's flag for projects compiled before running; programs here run through
		// ts-node, so the generated project does too.
		const forceTsc = false
		return codegen.GenerateProject(directory, project, program, localDependencies, forceTsc, nodeRuntime)
	},
	Package: func(pkg *schema.Package, extraFiles map[string][]byte, localDependencies map[string]string,
		local bool, loader schema.ReferenceLoader,
	) (map[string][]byte, error) {
		return codegen.GeneratePackage("pulumi-language-nodejs", pkg, extraFiles, localDependencies, local, loader)
	},
}

// GenerateProgram is the TypeScript that `pulumi import` prints and `pulumi convert --language typescript` writes.
func (h *host) GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	return typescriptCodegen.GenerateProgram(ctx, req)
}

// GenerateProject writes a whole TypeScript project (program, package.json, tsconfig.json, Pulumi.yaml).
func (h *host) GenerateProject(
	ctx context.Context, req *pulumirpc.GenerateProjectRequest,
) (*pulumirpc.GenerateProjectResponse, error) {
	return typescriptCodegen.GenerateProject(ctx, req)
}

// GeneratePackage writes the TypeScript SDK of a provider schema (`pulumi package gen-sdk --language nodejs`).
func (h *host) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	return typescriptCodegen.GeneratePackage(ctx, req)
}

// Link accepts only the empty list of local SDKs (hostkit.Codegen.Link).
func (h *host) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	return typescriptCodegen.Link(ctx, req)
}
