/**
 * The `custody` command line under the real engine, for the end-to-end tests of `custody review` and
 * `custody drift`: a stack of the review program (test/fixtures/review/program) on either provider path, and
 * the built `custody` bin run as a pipeline runs it, in the stack's directory with the stack's environment
 * (the engine and the plugin on PATH, the stack's backend and `PULUMI_HOME`).
 *
 * @module
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { configureForEmulator, installedProgramFolder, type TestEmulator } from "./e2e-custody";
import { createLocalStack, repoPath } from "./pulumi-engine";

const execFileAsync = promisify(execFile);

/** The two provider paths: the dynamic resources of `pulumi-custody`, and the provider plugin. */
export const PROVIDER_PATHS = ["dynamic", "plugin"] as const;

/** One of {@link PROVIDER_PATHS}. */
export type ProviderPath = (typeof PROVIDER_PATHS)[number];

/** A vault the review program declares (stack config `vaults`); values pass through unchecked. */
export interface ProgramVault {
  name: string;
  type: string;
  chain?: string;
  vaultGroupIds?: string[];
  adoptExisting?: boolean;
  /** The `archived` input. */
  archived?: boolean;
  /** The `protect` resource option. */
  protect?: boolean;
  /** The inputs declared as secrets. */
  secret?: string[];
}

/** An address the review program declares; `vault` is a key of the vaults. */
export interface ProgramAddress {
  vault: string;
  name?: string;
}

/** What the review program declares. */
export interface ProgramDeclaration {
  vaults: Record<string, ProgramVault>;
  addresses?: Record<string, ProgramAddress>;
}

/**
 * A stack of test/fixtures/review/program on `path`, run from the installed project (where pulumi-custody
 * comes from its release tarball), configured for `emulator`. `binPath` is the stack's
 * PATH: the engine's bin directory and, for the plugin path, a `pulumi-resource-custody` launcher.
 */
export async function reviewProgramStack(
  emulator: TestEmulator,
  stackName: string,
  path: ProviderPath,
  binPath: string,
): Promise<Stack> {
  const stack = await createLocalStack({
    projectDir: await installedProgramFolder("review", "test/fixtures/review/program"),
    stackName,
    envVars: { PATH: binPath },
  });
  await configureForEmulator(stack, emulator, { path: { value: path } });
  return stack;
}

/** Sets what the review program declares (both keys, so that leaving addresses out empties them). */
export async function declareProgram(stack: Stack, declared: ProgramDeclaration): Promise<void> {
  await stack.setAllConfig({
    vaults: { value: JSON.stringify(declared.vaults) },
    addresses: { value: JSON.stringify(declared.addresses ?? {}) },
  });
}

/** What a run of the `custody` bin did. */
export interface CustodyResult {
  /** Its exit code. */
  status: number;
  /** Its standard output. */
  stdout: string;
  /** Its standard error. */
  stderr: string;
}

/** The stack's environment, as the CLI runs with it. */
export function stackEnv(stack: Stack, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const ws = stack.workspace;
  return {
    ...process.env,
    ...(ws.pulumiHome ? { PULUMI_HOME: ws.pulumiHome } : {}),
    ...ws.envVars,
    ...extra,
  };
}

/**
 * Runs the built `custody` bin in the stack's work directory with the stack's environment (plus `env`);
 * resolves whatever its exit code.
 */
export async function custodyCli(
  stack: Stack,
  args: string[],
  env: Record<string, string> = {},
): Promise<CustodyResult> {
  try {
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      [repoPath("cli", "dist", "custody.js"), ...args],
      {
        cwd: stack.workspace.workDir,
        env: stackEnv(stack, env),
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return { status: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw err;
    return { status: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}
