package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"
)

func programInfo(t *testing.T, root string, options map[string]any) *pulumirpc.ProgramInfo {
	t.Helper()
	opts, err := structpb.NewStruct(options)
	if err != nil {
		t.Fatal(err)
	}
	return &pulumirpc.ProgramInfo{RootDirectory: root, ProgramDirectory: root, EntryPoint: ".", Options: opts}
}

func TestParseOptionsReadsBinaryAndBuildTargetAndRefusesTheRestByName(t *testing.T) {
	opts, err := parseOptions(programInfo(t, "/proj", map[string]any{"buildTarget": "bin/program"}))
	if err != nil || opts.buildTarget != "/proj/bin/program" || opts.binary != "" {
		t.Fatalf("buildTarget: %+v, %v; want /proj/bin/program", opts, err)
	}
	opts, err = parseOptions(programInfo(t, "/proj", map[string]any{"binary": "my-program"}))
	if err != nil || opts.binary != "my-program" {
		t.Fatalf("binary: %+v, %v", opts, err)
	}
	for _, c := range []struct {
		options map[string]any
		want    string
	}{
		{map[string]any{"binary": "a", "buildTarget": "b"}, "cannot both be set"},
		{map[string]any{"binary": 3.0}, "runtime option binary must be a non-empty string"},
		{map[string]any{"toolchain": "gccgo"}, "runtime option toolchain is not supported"},
	} {
		if _, err := parseOptions(programInfo(t, "/proj", c.options)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parseOptions(%v) = %v, want an error with %q", c.options, err, c.want)
		}
	}
}

// The Go SDK reads its run from these variables (pulumi.Run); a missing one makes it fail or run the wrong stack.
func TestProgramEnvCarriesTheRunAfterTheHostsEnvironment(t *testing.T) {
	env, err := programEnv([]string{"HOME=/home/u"}, &pulumirpc.RunRequest{
		Project: "p", Stack: "dev", Organization: "org", MonitorAddress: "127.0.0.1:1", DryRun: true, Parallel: 8,
		Config: map[string]string{"custody:baseUrl": "http://x"}, ConfigSecretKeys: []string{"custody:accessToken"},
		Info: &pulumirpc.ProgramInfo{RootDirectory: "/proj"},
	}, "127.0.0.1:2")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"HOME=/home/u",
		`PULUMI_CONFIG={"custody:baseUrl":"http://x"}`,
		`PULUMI_CONFIG_SECRET_KEYS=["custody:accessToken"]`,
		"PULUMI_ORGANIZATION=org", "PULUMI_PROJECT=p", "PULUMI_ROOT_DIRECTORY=/proj", "PULUMI_STACK=dev",
		"PULUMI_DRY_RUN=true", "PULUMI_PARALLEL=8", "PULUMI_MONITOR=127.0.0.1:1", "PULUMI_ENGINE=127.0.0.1:2",
	}
	if strings.Join(env, "\n") != strings.Join(want, "\n") {
		t.Fatalf("programEnv =\n%s\nwant\n%s", strings.Join(env, "\n"), strings.Join(want, "\n"))
	}
}

func TestPulumiPackageReadsTheModulesPluginJSON(t *testing.T) {
	dir := t.TempDir()
	write := func(path, contents string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(contents), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sdk := filepath.Join(dir, "custody")
	write(filepath.Join(sdk, "pulumi-plugin.json"),
		`{"resource": true, "name": "custody", "version": "0.2.0", "server": "github://api.github.com/pulumi-custody/pulumi-custody"}`)
	nested := filepath.Join(dir, "nested")
	write(filepath.Join(nested, "go", "aws", "pulumi-plugin.json"), `{"resource": true, "name": "aws"}`)
	notResource := filepath.Join(dir, "lib")
	write(filepath.Join(notResource, "pulumi-plugin.json"), `{"resource": false, "name": "lib"}`)

	got := pulumiPackage(goModule{Path: "github.com/pulumi-custody/pulumi-custody/sdk/go/custody", Version: "v0.1.0", Dir: sdk})
	if got == nil || got.GetName() != "custody" || got.GetVersion() != "0.2.0" || got.GetKind() != "resource" ||
		got.GetServer() != "github://api.github.com/pulumi-custody/pulumi-custody" {
		t.Fatalf("custody: %v", got)
	}
	// Without a version in the file, the module's; a pseudo-version names the release before it.
	got = pulumiPackage(goModule{Path: "example.com/x", Version: "v6.1.1-0.20240101000000-abcdefabcdef", Dir: nested})
	if got == nil || got.GetName() != "aws" || got.GetVersion() != "v6.1.0" {
		t.Fatalf("aws: %v", got)
	}
	if got := pulumiPackage(goModule{Path: "example.com/lib", Version: "v1.0.0", Dir: notResource}); got != nil {
		t.Fatalf("a module whose plugin is not a resource plugin: %v", got)
	}
	if got := pulumiPackage(goModule{Path: "example.com/other", Version: "v1.0.0", Dir: t.TempDir()}); got != nil {
		t.Fatalf("a module without pulumi-plugin.json: %v", got)
	}
}

func TestBuildProgramReportsWhatGoBuildPrinted(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("the test needs go on PATH: %v", err)
	}
	dir := t.TempDir()
	for name, contents := range map[string]string{
		"go.mod":  "module example.com/broken\n\ngo 1.21\n",
		"main.go": "package main\n\nfunc main() { undefinedFunction() }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(contents), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := buildProgram(context.Background(), dir, filepath.Join(dir, "program"))
	if err == nil || !strings.Contains(err.Error(), "undefined: undefinedFunction") {
		t.Fatalf("err = %v, want go build's message", err)
	}

	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	program, err := buildProgram(context.Background(), dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(program)
	if out, err := exec.Command(program).CombinedOutput(); err != nil {
		t.Fatalf("the built program: %v: %s", err, out)
	}

	if _, err := buildProgram(context.Background(), t.TempDir(), ""); err == nil || !strings.Contains(err.Error(), "no Go files") {
		t.Fatalf("an empty directory: %v", err)
	}
}
