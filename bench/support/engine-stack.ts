/**
 * Pulumi stacks of the fixture programs under `bench/fixtures/`, run by the real engine through the
 * Automation API on a fresh `file://` backend (see `test/support/pulumi-engine.ts`).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { createLocalStack, disposeLocalStack, enginePaths } from "../../test/support/pulumi-engine";
import { repoPath } from "./repo";

/** Options of {@link createFixtureStack}. */
export interface FixtureStackOptions {
  /** Directory name under `bench/fixtures/`. */
  fixture: string;
  /** Stack name; each stack has its own backend, so names never clash. */
  stackName: string;
  /** Stack config, e.g. `{ "bench:count": { value: "100" } }`. */
  config: ConfigMap;
  /** Extra environment for the CLI, the program and the providers. */
  envVars?: Record<string, string>;
}

/** Creates a stack of a fixture program with its config set. Release it with {@link disposeFixtureStack}. */
export async function createFixtureStack(options: FixtureStackOptions): Promise<Stack> {
  await enginePaths();
  const stack = await createLocalStack({
    projectDir: installedFixture(options.fixture),
    stackName: options.stackName,
    envVars: options.envVars,
  });
  try {
    await stack.setAllConfig(options.config);
  } catch (err) {
    await disposeLocalStack(stack);
    throw err;
  }
  return stack;
}

/** Deletes the stack's backend, config and home directory (resources are not destroyed). */
export async function disposeFixtureStack(stack: Stack): Promise<void> {
  await disposeLocalStack(stack);
}

/**
 * The engine's own default for `--parallel` on this machine: 4 × GOMAXPROCS (`pkg/cmd/pulumi/operations/up.go`
 * `defaultParallel`, v3.248.0). The benchmarks pass it explicitly so that the engine and the sdk replay run at
 * exactly the same concurrency.
 */
export function engineDefaultParallel(cores: number): number {
  return 4 * cores;
}

const installed = new Map<string, string>();

/**
 * The project directory of a fixture. A fixture whose program the repository build compiles (`main` in dist/)
 * runs from a copy in `dist/bench/programs/<fixture>` that holds pulumi-custody installed from its packed
 * tarball (scripts/install-program.sh, once per process), so that its providers are serialized as in a user's
 * stack; the others run where they are.
 */
function installedFixture(fixture: string): string {
  const source = repoPath("bench", "fixtures", fixture);
  const yaml = fs.readFileSync(path.join(source, "Pulumi.yaml"), "utf8");
  const main = /^main: (.*dist\/.*)$/m.exec(yaml)?.[1];
  if (main === undefined) return source;
  let dir = installed.get(fixture);
  if (dir === undefined) {
    dir = repoPath("dist", "bench", "programs", fixture);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.resolve(source, main), path.join(dir, "index.js"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yaml.replace(/^main: .*$/m, "main: index.js"));
    execFileSync("bash", [repoPath("scripts", "install-program.sh"), dir], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    installed.set(fixture, dir);
  }
  return dir;
}
