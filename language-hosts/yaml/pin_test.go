package tools

import (
	"os"
	"regexp"
	"testing"
)

// scripts/install-pulumi.sh reads the host's version from go.mod with one pattern (`require
// github.com/pulumi/pulumi-yaml v<version>` on a line of its own) and builds with it as the host's version; a
// `go get` that moved the requirement into a block would leave the script without a version.
func TestGoModPinsPulumiYamlOnOneLine(t *testing.T) {
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	pin := regexp.MustCompile(`(?m)^require github\.com/pulumi/pulumi-yaml v([0-9]+\.[0-9]+\.[0-9]+)$`)
	if m := pin.FindSubmatch(mod); m == nil {
		t.Fatalf("go.mod has no line `require github.com/pulumi/pulumi-yaml v<x.y.z>` for scripts/install-pulumi.sh")
	}
	// The host keeps the pkg/v3 that pulumi-yaml requires, whatever CLI runs it.
	if !regexp.MustCompile(`(?m)^\tgithub\.com/pulumi/pulumi/pkg/v3 v3\.[0-9]+\.[0-9]+ // indirect$`).Match(mod) {
		t.Fatalf("go.mod does not name the github.com/pulumi/pulumi/pkg/v3 that pulumi-yaml requires")
	}
}
