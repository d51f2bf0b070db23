package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// goModule is what `go list -m -json` and `go mod download -json` say of a module.
type goModule struct {
	Path    string
	Version string
	// Dir holds the module's files (the replacement's, for a replaced module); empty when not downloaded.
	Dir string
}

// GetRequiredPackages lists the Pulumi packages among the modules the program's go.mod requires: a module
// whose files hold a pulumi-plugin.json (at its root, in go/, go/*/ or */) that says `"resource": true`. The
// engine installs (or asks for) their resource plugins before running the program. As upstream, a program that
// is not a Go module, or a module that cannot be found, is no error: the list is what could be read.
func (h *host) GetRequiredPackages(
	ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	gobin, err := goBinary()
	if err != nil {
		return nil, err
	}
	dir, gomod, err := loadGoMod(ctx, gobin, req.GetInfo().GetProgramDirectory())
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-go: no Pulumi packages read: %v\n", err)
		return &pulumirpc.GetRequiredPackagesResponse{}, nil
	}
	paths := make([]string, 0, len(gomod.Require))
	for _, r := range gomod.Require {
		paths = append(paths, r.Mod.Path)
	}
	modules, err := moduleSources(ctx, gobin, dir, paths)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-go: no Pulumi packages read: %v\n", err)
		return &pulumirpc.GetRequiredPackagesResponse{}, nil
	}
	var packages []*pulumirpc.PackageDependency
	for _, m := range modules {
		if p := pulumiPackage(m); p != nil {
			packages = append(packages, p)
		}
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

// GetRequiredPlugins is the older form of GetRequiredPackages, for engines that predate it: the same list,
// without parameterized packages, which a plugin list cannot express.
func (h *host) GetRequiredPlugins(
	ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	resp, err := h.GetRequiredPackages(ctx, &pulumirpc.GetRequiredPackagesRequest{Info: req.GetInfo()})
	if err != nil {
		return nil, err
	}
	var plugins []*pulumirpc.PluginDependency
	for _, p := range resp.GetPackages() {
		if p.GetParameterization() == nil {
			plugins = append(plugins, &pulumirpc.PluginDependency{
				Name: p.GetName(), Kind: p.GetKind(), Version: p.GetVersion(), Server: p.GetServer(),
			})
		}
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

// GetProgramDependencies lists the modules of the program's go.mod (the direct ones, or all with
// TransitiveDependencies); a module replaced by a directory has no version. Only `pulumi about` and update
// metadata use it.
func (h *host) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	gobin, err := goBinary()
	if err != nil {
		return nil, err
	}
	_, gomod, err := loadGoMod(ctx, gobin, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, err
	}
	replaced := map[string]bool{}
	for _, r := range gomod.Replace {
		replaced[r.Old.Path] = true
	}
	var deps []*pulumirpc.DependencyInfo
	for _, r := range gomod.Require {
		if r.Indirect && !req.GetTransitiveDependencies() {
			continue
		}
		version := r.Mod.Version
		if replaced[r.Mod.Path] {
			version = ""
		}
		deps = append(deps, &pulumirpc.DependencyInfo{Name: r.Mod.Path, Version: version})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

// loadGoMod reads the go.mod of the module that holds dir (`go list -m -f {{.GoMod}}`, without a workspace),
// and returns its directory and contents.
func loadGoMod(ctx context.Context, gobin, dir string) (string, *modfile.File, error) {
	cmd := exec.CommandContext(ctx, gobin, "list", "-m", "-f", "{{.GoMod}}")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("go list -m in %s: %w: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	path := strings.TrimSpace(string(out))
	if path == "" {
		return "", nil, fmt.Errorf("no go.mod in or above %s", dir)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	file, err := modfile.Parse(path, data, nil)
	if err != nil {
		return "", nil, err
	}
	return filepath.Dir(path), file, nil
}

// moduleSources says where each of paths is on disk: `go list -m -json`, then `go mod download -json` for the
// modules not downloaded yet. Modules still without a directory are left out.
func moduleSources(ctx context.Context, gobin, dir string, paths []string) ([]goModule, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	listed, err := goJSON(ctx, gobin, dir, append([]string{"list", "-m", "-json"}, paths...))
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, m := range listed {
		if m.Dir == "" {
			missing = append(missing, m.Path)
		}
	}
	if len(missing) > 0 {
		downloaded, err := goJSON(ctx, gobin, dir, append([]string{"mod", "download", "-json"}, missing...))
		if err != nil {
			return nil, err
		}
		dirs := map[string]string{}
		for _, m := range downloaded {
			dirs[m.Path] = m.Dir
		}
		for i := range listed {
			if listed[i].Dir == "" {
				listed[i].Dir = dirs[listed[i].Path]
			}
		}
	}
	found := listed[:0]
	for _, m := range listed {
		if m.Dir != "" {
			found = append(found, m)
		}
	}
	return found, nil
}

// goJSON runs a go command that prints a stream of JSON module objects, and decodes them.
func goJSON(ctx context.Context, gobin, dir string, args []string) ([]goModule, error) {
	cmd := exec.CommandContext(ctx, gobin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w: %s", strings.Join(args[:2], " "), err, strings.TrimSpace(stderr.String()))
	}
	var modules []goModule
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var m goModule
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("decoding the output of go %s: %w", strings.Join(args[:2], " "), err)
		}
		modules = append(modules, m)
	}
	return modules, nil
}

// pulumiPackage is the Pulumi package a module provides, from its pulumi-plugin.json; nil when it provides
// none. As upstream, a github.com/pulumi/pulumi-<name> module without the file provides the plugin <name> at
// the module's version.
func pulumiPackage(m goModule) *pulumirpc.PackageDependency {
	manifest, err := readPluginJSON(m.Dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-go: ignoring %s: %v\n", m.Path, err)
		return nil
	}
	if manifest == nil && !strings.HasPrefix(m.Path, "github.com/pulumi/pulumi-") || manifest != nil && !manifest.Resource {
		return nil
	}
	name, version, server := "", m.Version, ""
	if manifest != nil {
		name, server = manifest.Name, manifest.Server
		if manifest.Version != "" {
			version = manifest.Version
		}
	}
	if name == "" {
		// github.com/pulumi/pulumi-aws/sdk/... provides aws.
		name = strings.SplitN(strings.Split(m.Path, "/")[2], "-", 2)[1]
	}
	version, err = releaseVersion(version)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-go: ignoring %s: %v\n", m.Path, err)
		return nil
	}
	dep := &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: version, Server: server}
	if p := manifest; p != nil && p.Parameterization != nil {
		dep.Parameterization = &pulumirpc.PackageParameterization{
			Name: p.Parameterization.Name, Version: p.Parameterization.Version, Value: p.Parameterization.Value,
		}
	}
	return dep
}

// readPluginJSON reads the first pulumi-plugin.json of a module: at its root, in go/, go/*/ or */.
func readPluginJSON(dir string) (*plugin.PulumiPluginJSON, error) {
	candidates := []string{filepath.Join(dir, "pulumi-plugin.json"), filepath.Join(dir, "go", "pulumi-plugin.json")}
	for _, pattern := range []string{filepath.Join(dir, "go", "*", "pulumi-plugin.json"), filepath.Join(dir, "*", "pulumi-plugin.json")} {
		matches, _ := filepath.Glob(pattern)
		candidates = append(candidates, matches...)
	}
	for _, path := range candidates {
		manifest, err := plugin.LoadPulumiPluginJSON(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		return manifest, err
	}
	return nil, nil
}

// releaseVersion is the release a module version names: a pseudo-version (a commit after a tag) names the
// tag before it, whose plugin exists.
func releaseVersion(version string) (string, error) {
	v, err := semver.ParseTolerant(version)
	if err != nil {
		return "", fmt.Errorf("version %q is not a semantic version", version)
	}
	if module.IsPseudoVersion(version) {
		if v.Major == 0 && v.Minor == 0 && v.Patch == 0 {
			return "", fmt.Errorf("pseudo-version %s names no release", version)
		}
		patch := v.Patch
		if patch > 0 {
			patch--
		}
		return fmt.Sprintf("v%d.%d.%d", v.Major, v.Minor, patch), nil
	}
	return version, nil
}
