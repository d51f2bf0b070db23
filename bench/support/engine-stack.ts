/**
 * Pulumi stacks of the fixture programs under `bench/fixtures/`, run by the real engine through the
 * Automation API on a fresh `file://` backend (see `test/support/pulumi-engine.ts`).
 */
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
    projectDir: repoPath("bench", "fixtures", options.fixture),
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
