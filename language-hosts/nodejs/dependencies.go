package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// GetProgramDependencies lists the dependencies declared in the program's package.json with the
// version installed in node_modules (or the declared range when it is not installed); only
// `pulumi about` and update metadata use it.
func (h *host) GetProgramDependencies(
	_ context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetPwd()
	}
	if dir == "" {
		return &pulumirpc.GetProgramDependenciesResponse{}, nil
	}
	pkgDir, pkg, err := nearestPackageJSON(dir)
	if err != nil || pkgDir == "" {
		return &pulumirpc.GetProgramDependenciesResponse{}, err
	}
	var deps []*pulumirpc.DependencyInfo
	for _, group := range []map[string]string{pkg.Dependencies, pkg.DevDependencies} {
		for name, declared := range group {
			v := declared
			if installed := installedVersion(pkgDir, name); installed != "" {
				v = installed
			}
			deps = append(deps, &pulumirpc.DependencyInfo{Name: name, Version: v})
		}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

type packageJSON struct {
	Version         string            `json:"version"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
}

func nearestPackageJSON(dir string) (string, *packageJSON, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil {
			var pkg packageJSON
			if err := json.Unmarshal(b, &pkg); err != nil {
				return "", nil, fmt.Errorf("reading %s: %w", filepath.Join(d, "package.json"), err)
			}
			return d, &pkg, nil
		}
		if filepath.Dir(d) == d {
			return "", nil, nil
		}
	}
}

// installedVersion follows Node's lookup: node_modules/<name> in dir and then in each parent.
func installedVersion(dir, name string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "node_modules", name, "package.json")); err == nil {
			var pkg packageJSON
			if json.Unmarshal(b, &pkg) == nil {
				return pkg.Version
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
