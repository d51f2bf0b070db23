package main

import (
	"context"
	"errors"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-custody.local/language-hosts/hostkit"
)

// goCodegen is hostkit's code-generation RPCs with pkg/v3/codegen/go, called as upstream's host calls it.
var goCodegen = &hostkit.Codegen{
	Program: gogen.GenerateProgram,
	Project: gogen.GenerateProject,
	Package: func(pkg *schema.Package, extraFiles map[string][]byte, localDependencies map[string]string, _ bool,
		_ schema.ReferenceLoader,
	) (map[string][]byte, error) {
		// Go has no place for overlay files in a generated package; upstream refuses them too.
		if len(extraFiles) > 0 {
			return nil, errors.New("overlays are not supported for Go")
		}
		return gogen.GeneratePackage("pulumi-language-go", pkg, localDependencies)
	},
}

// GenerateProgram is the Go that `pulumi import` prints and `pulumi convert --language go` writes.
func (h *host) GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	return goCodegen.GenerateProgram(ctx, req)
}

// GenerateProject writes a whole Go project (main.go, go.mod, Pulumi.yaml).
func (h *host) GenerateProject(
	ctx context.Context, req *pulumirpc.GenerateProjectRequest,
) (*pulumirpc.GenerateProjectResponse, error) {
	return goCodegen.GenerateProject(ctx, req)
}

// GeneratePackage writes the Go SDK of a provider schema (`pulumi package gen-sdk --language go`).
func (h *host) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	return goCodegen.GeneratePackage(ctx, req)
}

// Link accepts only the empty list of local SDKs (hostkit.Codegen.Link).
func (h *host) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	return goCodegen.Link(ctx, req)
}
