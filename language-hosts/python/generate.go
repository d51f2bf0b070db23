package main

import (
	"context"

	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-custody.local/language-hosts/hostkit"
)

// pythonCodegen is hostkit's code-generation RPCs with pkg/v3/codegen/python, called as upstream's host
// calls it.
var pythonCodegen = &hostkit.Codegen{
	Program: python.GenerateProgram,
	Project: func(directory string, project workspace.Project, program *pcl.Program,
		localDependencies map[string]string,
	) error {
		// The project uses pip in a virtualenv, the only toolchain here, and no typechecker.
		const typechecker, toolchain = "", "pip"
		return python.GenerateProject(directory, project, program, localDependencies, typechecker, toolchain)
	},
	Package: func(pkg *schema.Package, extraFiles map[string][]byte, _ map[string]string, _ bool,
		loader schema.ReferenceLoader,
	) (map[string][]byte, error) {
		return python.GeneratePackage("pulumi-language-python", pkg, extraFiles, loader)
	},
}

// GenerateProgram is the Python that `pulumi import` prints and `pulumi convert --language python` writes.
func (h *host) GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	return pythonCodegen.GenerateProgram(ctx, req)
}

// GenerateProject writes a whole Python project (program, requirements.txt, Pulumi.yaml).
func (h *host) GenerateProject(
	ctx context.Context, req *pulumirpc.GenerateProjectRequest,
) (*pulumirpc.GenerateProjectResponse, error) {
	return pythonCodegen.GenerateProject(ctx, req)
}

// GeneratePackage writes the Python SDK of a provider schema (`pulumi package gen-sdk --language python`).
func (h *host) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	return pythonCodegen.GeneratePackage(ctx, req)
}

// Link accepts only the empty list of local SDKs (hostkit.Codegen.Link).
func (h *host) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	return pythonCodegen.Link(ctx, req)
}
