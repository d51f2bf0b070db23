//go:build tools

// Package tools pins the Pulumi CLI as a dependency of this module, so that scripts/install-pulumi.sh
// can build it with `go build github.com/pulumi/pulumi/pkg/v3/cmd/pulumi` against the checksums
// in go.sum. The upstream go.mod has `replace` lines, which `go install pkg@version` refuses; as a
// dependency of this module they are ignored.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
