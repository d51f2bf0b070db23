package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// GetRequiredPackages lists the Pulumi packages the program depends on: every package.json under a
// node_modules directory of the program that says `"pulumi": {"resource": true, ...}`. The engine
// installs (or asks for) their resource plugins before running the program. This is
// GetRequiredPackages of sdk/nodejs/cmd/pulumi-language-nodejs/main.go in pulumi/pulumi v3.248.0:
// a dependency required from outside the program directory is missed, by design (install it in the
// project), and a broken package.json does not fail the run.
func (h *host) GetRequiredPackages(
	_ context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	sdkVersions := map[string]semver.Version{}
	packages, err := packagesInDir(req.GetInfo().GetProgramDirectory(), sdkVersions, false, map[string]struct{}{})
	if err != nil {
		// Partial results are still useful; upstream only logs these.
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: while looking for plugins: %v\n", err)
	}
	warnIncompatibleSDKs(sdkVersions)
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

// GetRequiredPlugins is the older form of GetRequiredPackages. Upstream v3.248.0 answers
// Unimplemented, since the engine only calls it when GetRequiredPackages is unimplemented; the
// same list is given here, without parameterized packages (a plugin list cannot express them), so
// engines that predate GetRequiredPackages see the plugins too.
func (h *host) GetRequiredPlugins(
	ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	resp, err := h.GetRequiredPackages(ctx, &pulumirpc.GetRequiredPackagesRequest{Info: req.GetInfo()})
	if err != nil {
		return nil, err
	}
	var plugins []*pulumirpc.PluginDependency
	for _, p := range resp.GetPackages() {
		if p.GetParameterization() != nil {
			continue
		}
		plugins = append(plugins, &pulumirpc.PluginDependency{
			Name: p.GetName(), Kind: p.GetKind(), Version: p.GetVersion(), Server: p.GetServer(),
		})
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

// packagesInDir walks dir deeply. A package.json counts only inside node_modules (the program's
// own package.json is not a dependency); nested policy packs are skipped, since their plugins
// are not the program's; symlinks (npm workspaces, pnpm) are followed once each.
func packagesInDir(
	dir string, sdkVersions map[string]semver.Version, inNodeModules bool, visited map[string]struct{},
) ([]*pulumirpc.PackageDependency, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("getting full path for plugin dir %s: %w", dir, err)
	}
	if _, seen := visited[dir]; seen {
		return nil, nil
	}
	visited[dir] = struct{}{}

	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading plugin dir %s: %w", dir, err)
	}
	var packages []*pulumirpc.PackageDependency
	var errs []error
	for _, entry := range entries {
		path := filepath.Join(dir, entry.Name())
		isDir := entry.IsDir()
		if entry.Type()&fs.ModeSymlink != 0 {
			resolved, err := filepath.EvalSymlinks(path)
			if err != nil {
				errs = append(errs, fmt.Errorf("resolving link in plugin dir %s: %w", path, err))
				continue
			}
			fi, err := os.Stat(resolved)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			path, isDir = resolved, fi.IsDir()
		}

		if isDir {
			policyPack, err := workspace.DetectPolicyPackPathAt(path)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if policyPack != "" {
				continue
			}
			more, err := packagesInDir(path, sdkVersions, inNodeModules || filepath.Base(dir) == "node_modules", visited)
			if err != nil {
				errs = append(errs, err)
			}
			packages = append(packages, more...)
			continue
		}
		if !inNodeModules || entry.Name() != "package.json" {
			continue
		}
		pkg, err := packageFromJSON(path, sdkVersions)
		if err != nil {
			errs = append(errs, err)
		} else if pkg != nil {
			packages = append(packages, pkg)
		}
	}
	return packages, errors.Join(errs...)
}

// nodePackageJSON is the part of a dependency's package.json that says whether it has a plugin.
type nodePackageJSON struct {
	Name    string                  `json:"name"`
	Version string                  `json:"version"`
	Pulumi  plugin.PulumiPluginJSON `json:"pulumi"`
}

// packageFromJSON reads one package.json: the Pulumi package it declares (nil if none), and, for
// @pulumi/pulumi itself, its version into sdkVersions.
func packageFromJSON(path string, sdkVersions map[string]semver.Version) (*pulumirpc.PackageDependency, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading package.json %s: %w", path, err)
	}
	var info nodePackageJSON
	if err := json.Unmarshal(b, &info); err != nil {
		return nil, fmt.Errorf("unmarshaling package.json %s: %w", path, err)
	}
	if info.Name == "@pulumi/pulumi" {
		v, err := semver.Parse(info.Version)
		if err != nil {
			return nil, fmt.Errorf("Could not understand version %s in '%s': %w", info.Version, path, err)
		}
		sdkVersions[path] = v
	}
	if !info.Pulumi.Resource {
		return nil, nil
	}
	name, err := pluginName(info)
	if err != nil {
		return nil, fmt.Errorf("unmarshaling package.json %s: %w", path, err)
	}
	version, err := pluginVersion(info)
	if err != nil {
		return nil, fmt.Errorf("unmarshaling package.json %s: %w", path, err)
	}
	pkg := &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: version, Server: info.Pulumi.Server}
	if p := info.Pulumi.Parameterization; p != nil {
		pkg.Parameterization = &pulumirpc.PackageParameterization{Name: p.Name, Version: p.Version, Value: p.Value}
	}
	return pkg, nil
}

// pluginName is `pulumi.name`, or for an @pulumi/ package its unscoped name; a third-party
// package must say its plugin's name.
func pluginName(info nodePackageJSON) (string, error) {
	if info.Pulumi.Name != "" {
		return info.Pulumi.Name, nil
	}
	if info.Name == "" {
		return "", errors.New("missing expected \"name\" property")
	}
	if strings.HasPrefix(info.Name, "@pulumi/") {
		return strings.TrimPrefix(info.Name, "@pulumi/"), nil
	}
	return "", fmt.Errorf("Missing property \"name\" for the third-party plugin '%v' "+
		"inside package.json under the \"pulumi\" section.", info.Name)
}

// pluginVersion is `pulumi.version`, else the package's version, with the "v" prefix the engine
// expects.
func pluginVersion(info nodePackageJSON) (string, error) {
	version := info.Pulumi.Version
	if version == "" {
		version = info.Version
	}
	if version == "" {
		return "", errors.New("Missing expected \"version\" property")
	}
	if !strings.HasPrefix(version, "v") {
		version = "v" + version
	}
	return version, nil
}

// warnIncompatibleSDKs warns, as upstream does, when two copies of @pulumi/pulumi differ in major
// version: resources registered through one would not be seen by the other.
func warnIncompatibleSDKs(sdkVersions map[string]semver.Version) {
	var firstPath string
	var first semver.Version
	for path, v := range sdkVersions {
		if firstPath == "" {
			firstPath, first = path, v
			continue
		}
		if v.Major != first.Major {
			fmt.Fprintf(os.Stderr, "Found incompatible versions of @pulumi/pulumi. Differing major versions are not supported.\n"+
				"  Version %s referenced at %s\n  Version %s referenced at %s\n", first, firstPath, v, path)
			return
		}
	}
}
