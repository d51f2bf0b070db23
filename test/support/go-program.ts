/**
 * Go programs of the end-to-end suites: the Go SDK of the release, where a program's go.mod finds it, and the
 * environment its `go build` (by our Go language host) runs in.
 *
 * @module
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoPath } from "./pulumi-engine";
import { releaseArtifacts } from "./release";

const execFileAsync = promisify(execFile);

/** The Go SDK's module path (plugin/go-sdk.ts). */
export const GO_SDK_MODULE = "github.com/pulumi-custody/pulumi-custody/sdk/go/custody";

/** The Pulumi Go SDK the programs require: the version the generated SDK's go.mod requires. */
export const PULUMI_GO_SDK = "v3.248.0";

/**
 * The environment of a Go program's stack: its modules come from the Go module proxy (or its cache), as
 * scripts/install-pulumi.sh gets the CLI's, without the checksum database, which the build machines cannot reach.
 * The build flags are that script's, so the Go build cache that its builds of the language hosts filled serves
 * the Pulumi SDK's packages to the programs too.
 */
export const GO_PROGRAM_ENV: Readonly<Record<string, string>> = {
  GOFLAGS: "-mod=mod -trimpath -tags=osusergo,grpcnotrace",
  GOSUMDB: "off",
  GOTOOLCHAIN: "local",
  CGO_ENABLED: "0",
};

/** The release's Go SDK (custody-go-sdk-v<version>.tar.gz) extracted into `dir`, which is returned. */
export async function goSdkFromRelease(dir: string): Promise<string> {
  const release = await releaseArtifacts();
  await fs.promises.mkdir(dir, { recursive: true });
  await execFileAsync("tar", [
    "-xzf",
    path.join(release.dir, `custody-go-sdk-v${release.version}.tar.gz`),
    "-C",
    dir,
  ]);
  return dir;
}

/**
 * The go.mod of a program module `module` that requires the Pulumi Go SDK and the custody SDK, the latter
 * replaced by the folder `sdkDir` (as a user's go.mod would require its released version). It also requires the
 * modules of our Go language host at the versions its go.mod pins (language-hosts/go/go.mod, the same module graph
 * as scripts/pulumi-cli's): newer than the Pulumi SDK's minimums, which any program may have, and the versions the
 * build cache holds compiled from the hosts' builds, so that a machine compiles the Pulumi SDK's dependencies
 * once, not once more for the programs.
 */
export function goModWithSdk(module: string, sdkDir: string): string {
  const hostMod = fs.readFileSync(repoPath("language-hosts", "go", "go.mod"), "utf8");
  const pinned = [...hostMod.matchAll(/^\t(\S+) (v\S+)(?: \/\/ indirect)?$/gm)]
    // The Pulumi SDK is required above, and pkg/v3 (the hosts' code generators) is no program's dependency.
    .filter(
      ([, path]) =>
        !path.startsWith("pulumi-custody.local/") && !path.startsWith("github.com/pulumi/pulumi/"),
    )
    .map(([, path, version]) => `\t${path} ${version} // indirect`);
  const replaced = [...hostMod.matchAll(/^replace (\S+) => (\S+ v\S+)$/gm)]
    .filter(([, path]) => !path.startsWith("pulumi-custody.local/"))
    .map(([line]) => line);
  return [
    `module ${module}`,
    "",
    "go 1.25.11",
    "",
    "require (",
    `\t${GO_SDK_MODULE} v0.0.0`,
    `\tgithub.com/pulumi/pulumi/sdk/v3 ${PULUMI_GO_SDK}`,
    ")",
    "",
    "require (",
    ...pinned,
    ")",
    "",
    `replace ${GO_SDK_MODULE} => ${JSON.stringify(sdkDir)}`,
    ...replaced,
    "",
  ].join("\n");
}
