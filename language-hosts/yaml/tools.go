//go:build tools

// Package tools pins pulumi-language-yaml, the upstream language host of Pulumi YAML programs, as a dependency
// of this module, so that scripts/install-pulumi.sh can build it with
// `go build github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml` against the checksums in go.sum. The host
// is a binary of its own: it brings its own github.com/pulumi/pulumi/pkg/v3 (the one pulumi-yaml requires),
// independent of the CLI's.
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
