package hostkit

import (
	"context"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestLinkAcceptsTheEmptyListAndRefusesPackagesByName(t *testing.T) {
	c := &Codegen{}
	if _, err := c.Link(context.Background(), &pulumirpc.LinkRequest{}); err != nil {
		t.Fatalf("the empty list was refused: %v", err)
	}
	_, err := c.Link(context.Background(), &pulumirpc.LinkRequest{Packages: []*pulumirpc.LinkRequest_LinkDependency{
		{Package: &pulumirpc.PackageDependency{Name: "random"}},
	}})
	if status.Code(err) != codes.Unimplemented || !strings.Contains(err.Error(), "random") {
		t.Fatalf("err = %v, want Unimplemented naming the package", err)
	}
}
