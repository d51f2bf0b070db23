/**
 * Shared pieces of the custody end-to-end tests: an emulator per suite, stacks of the fixture program, the
 * root program or an example wired to it, and the two views every test compares: what the Pulumi state holds
 * and what the API says.
 *
 * ```ts
 * const emulator = await startTestEmulator();
 * const stack = await fixtureStack(emulator, "lifecycle");
 * await declare(stack, { vaults: { treasury: { name: "e2e treasury", type: "evm" } } });
 * await stack.up();
 * const [vault] = await apiVaultsNamed(emulator.client, ["e2e treasury"]);
 * ```
 *
 * @module
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { type Vault as ApiVault, CustodyClient, type UtxoVaultAddress } from "@pulumi-custody/sdk";
import { createLocalStack, disposeLocalStack, pulumiCli, repoPath } from "./pulumi-engine";
import { installedProject } from "./release";

export { type CliOptions, pulumiCli } from "./pulumi-engine";

/** Type token of the `Vault` resource. */
export const VAULT_TYPE = "pulumi-nodejs:dynamic/custody:Vault";
/** Type token of the `VaultAddress` resource. */
export const ADDRESS_TYPE = "pulumi-nodejs:dynamic/custody:VaultAddress";

/** Every vault state, so that API lookups see archived vaults too. */
const ALL_VAULT_STATES = ["active", "archived", "pending", "aborted", "deleted"] as const;

/** An emulator on loopback plus a client of its API (retries on, rate limit off). */
export interface TestEmulator extends RunningEmulator {
  /** A client of the emulator's `/api/v1`, as the seeded API user. */
  client: CustodyClient;
  /** Stops the client and the emulator. */
  stop(): Promise<void>;
}

/** Starts an emulator on 127.0.0.1 with a random port (call {@link TestEmulator.stop} in `after`). */
export async function startTestEmulator(options: Partial<EmulatorOptions> = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, ...options });
  const client = new CustodyClient({
    baseUrl: emulator.baseUrl,
    accessToken: emulator.accessToken,
    requestsPerMinute: 0,
    // The checks must not fail because of an injected fault.
    maxRetries: 10,
    advanced: { retryBaseDelayMs: 20, retryMaxDelayMs: 200 },
  });
  return Object.assign(emulator, {
    client,
    async stop() {
      await client.close();
      await emulator.close();
    },
  });
}

/** A vault the fixture program declares (`custody-stack:vaults`); values pass through unchecked. */
export interface VaultSpec {
  name: string;
  /**
   * An environment variable of the program: the vault's name is `pulumi.secret(<its value>)` instead of `name`,
   * a secret the engine knows nothing of, as a name written in the program as `pulumi.secret("…")` is.
   */
  secretNameFromEnv?: string;
  type: string;
  chain?: string;
  keyType?: string;
  vaultGroupIds?: string[];
  adoptExisting?: boolean;
  /** How the program hands the name over: as it is (the default) or as an Output, a Promise, a secret. */
  nameAs?: "output" | "promise" | "secret";
}

/** An address the fixture program declares (`custody-stack:addresses`); `vault` is a key of the vaults. */
export interface AddressSpec {
  vault: string;
  name?: string;
  addressType?: string;
}

/** The desired state of the fixture program. */
export interface Declared {
  vaults?: Record<string, VaultSpec>;
  addresses?: Record<string, AddressSpec>;
}

/**
 * A program of the repository (its `Pulumi.yaml` and compiled `main`), copied into the shared installed project
 * ({@link installedProject}), where it loads `pulumi-custody` from the package's release tarball as a user's
 * program does: its serialized providers are then `require("pulumi-custody/…")` (a workspace link would be
 * serialized by value). Made once per process; resolves to the program's directory.
 *
 * @param name - the program's folder in the installed project
 * @param project - the repository folder holding its `Pulumi.yaml`
 * @param main - its compiled program, relative to the repository
 */
function installedProgram(name: string, project: string, main: string): Promise<string> {
  let made = installedPrograms.get(name);
  if (!made) {
    made = (async () => {
      const compiled = repoPath(main);
      await requireBuilt(compiled);
      const dir = path.join((await installedProject()).dir, "programs", name);
      await fs.promises.mkdir(dir, { recursive: true });
      await fs.promises.copyFile(compiled, path.join(dir, "index.js"));
      const yaml = await fs.promises.readFile(repoPath(project, "Pulumi.yaml"), "utf8");
      await fs.promises.writeFile(
        path.join(dir, "Pulumi.yaml"),
        yaml.replace(/^main: .*$/m, "main: index.js"),
      );
      return dir;
    })();
    installedPrograms.set(name, made);
  }
  return made;
}
const installedPrograms = new Map<string, Promise<string>>();

/**
 * A plain JavaScript program of the repository (a folder with its `Pulumi.yaml`, no build step), copied whole
 * into the shared installed project, as {@link installedProgram} does for a compiled one.
 */
export function installedProgramFolder(name: string, folder: string): Promise<string> {
  let made = installedPrograms.get(name);
  if (!made) {
    made = (async () => {
      const dir = path.join((await installedProject()).dir, "programs", name);
      await fs.promises.cp(repoPath(folder), dir, { recursive: true });
      return dir;
    })();
    installedPrograms.set(name, made);
  }
  return made;
}

/**
 * The fixture program that declares whatever the stack config lists (`test/fixtures/custody-stack`), installed
 * as a user's program ({@link installedProgram}).
 */
export function fixtureDir(): Promise<string> {
  return installedProgram(
    "custody-stack",
    "test/fixtures/custody-stack",
    "dist/test/fixtures/custody-stack/index.js",
  );
}

/** The program that calls the data sources its stack config names (`test/fixtures/messages`), installed. */
export function messagesFixtureDir(): Promise<string> {
  return installedProgram("messages", "test/fixtures/messages", "dist/test/fixtures/messages/index.js");
}

/**
 * A stack of the fixture program, configured for `emulator`: base URL, the access token as a secret, and
 * the client-side rate limit off.
 */
export async function fixtureStack(emulator: TestEmulator, stackName: string): Promise<Stack> {
  return configureForEmulator(
    await createLocalStack({ projectDir: await fixtureDir(), stackName }),
    emulator,
  );
}

/**
 * A stack of the root program (`/Pulumi.yaml`, compiled to `dist/index.js`), installed as the demo runs it
 * ({@link installedProgram}), configured for `emulator`.
 */
export async function rootProgramStack(emulator: TestEmulator, stackName: string): Promise<Stack> {
  const dir = await installedProgram("root", ".", "dist/index.js");
  return configureForEmulator(await createLocalStack({ projectDir: dir, stackName }), emulator);
}

/**
 * A stack of `examples/<name>` as a user runs it: the folder copied out of the repository into the project
 * where every package is installed from its release file (test/support/release.ts), its own `Pulumi.yaml`
 * (TypeScript through ts-node), configured for `emulator`. The copy's package.json must be satisfied by what
 * that project installed, so the example installs as it is.
 */
export async function exampleStack(emulator: TestEmulator, name: string, stackName: string): Promise<Stack> {
  const project = await installedProject();
  const dir = path.join(project.dir, "examples", name);
  if (!fs.existsSync(dir)) {
    await fs.promises.cp(repoPath("examples", name), dir, {
      recursive: true,
      filter: (source) => !source.split(path.sep).includes("node_modules"),
    });
    assertDependenciesInstalled(dir, project.nodeModules);
  }
  const stack = await createLocalStack({ projectDir: dir, stackName });
  return configureForEmulator(stack, emulator);
}

/** Every dependency of the package.json in `dir` is satisfied by what `projectDir`'s node_modules holds. */
function assertDependenciesInstalled(dir: string, nodeModules: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const semver: { satisfies(version: string, range: string): boolean } = require(
    require.resolve("semver", { paths: [path.join(nodeModules, "@pulumi", "pulumi")] }),
  );
  for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
    const installed = path.join(nodeModules, name, "package.json");
    assert.ok(fs.existsSync(installed), `${dir}/package.json needs ${name}, which is not installed`);
    const { version } = JSON.parse(fs.readFileSync(installed, "utf8"));
    assert.ok(
      semver.satisfies(version, String(range)),
      `${dir}/package.json: ${name}@${range} excludes ${version}`,
    );
  }
}

/**
 * Points a stack at `emulator` through the provider's stack settings (`custody:baseUrl`, the token as a
 * secret, no client-side rate limit), plus any `extra` config.
 */
export async function configureForEmulator(
  stack: Stack,
  emulator: TestEmulator,
  extra: Record<string, { value: string; secret?: boolean }> = {},
): Promise<Stack> {
  await stack.setAllConfig({
    "custody:baseUrl": { value: emulator.baseUrl },
    "custody:accessToken": { value: emulator.accessToken, secret: true },
    "custody:requestsPerMinute": { value: "0" },
    ...extra,
  });
  return stack;
}

async function requireBuilt(file: string): Promise<void> {
  try {
    await fs.promises.access(file);
  } catch {
    throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
}

/** Sets the fixture program's desired state (both keys, so that leaving one out empties it). */
export async function declare(stack: Stack, declared: Declared): Promise<void> {
  await stack.setAllConfig({
    vaults: { value: JSON.stringify(declared.vaults ?? {}) },
    addresses: { value: JSON.stringify(declared.addresses ?? {}) },
  });
}

/** One resource of an exported deployment. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The resources of `type` in the stack's state, keyed by resource name (the last part of the URN). */
export async function stateResources(stack: Stack, type: string): Promise<Map<string, StateResource>> {
  const exported = await stack.exportStack();
  const resources: StateResource[] = exported.deployment?.resources ?? [];
  return new Map(resources.filter((r) => r.type === type).map((r) => [resourceName(r.urn), r]));
}

/**
 * The text of `pulumi stack export` as a user runs it (secrets stay encrypted). The Automation API's
 * `stack.exportStack()` passes `--show-secrets`, so it cannot show what the state file holds.
 */
export async function cliStackExport(stack: Stack): Promise<string> {
  return (await pulumiCli(stack, ["stack", "export"])).stdout;
}

/** The resource name in a URN (`urn:pulumi:stack::project::type::name` → `name`). */
export function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** Every vault with one of `names`, in any state (so archived ones and duplicates show). */
export async function apiVaultsNamed(client: CustodyClient, names: string[]): Promise<ApiVault[]> {
  const vaults: ApiVault[] = [];
  // The `names` filter takes full names; a few dozen per request keeps the URL short.
  for (let i = 0; i < names.length; i += 25) {
    for await (const vault of client.vaults.listAll({
      names: names.slice(i, i + 25),
      vault_states: [...ALL_VAULT_STATES],
    })) {
      vaults.push(vault);
    }
  }
  return vaults;
}

/** Every vault of the organization, in any state. */
export async function apiAllVaults(client: CustodyClient): Promise<ApiVault[]> {
  const vaults: ApiVault[] = [];
  for await (const vault of client.vaults.listAll({ vault_states: [...ALL_VAULT_STATES] }))
    vaults.push(vault);
  return vaults;
}

/** Every address of a UTXO vault. */
export async function apiAddresses(client: CustodyClient, vaultId: string): Promise<UtxoVaultAddress[]> {
  const addresses: UtxoVaultAddress[] = [];
  for await (const address of client.vaults.addresses.listAll(vaultId)) addresses.push(address);
  return addresses;
}

/** The plain value of a stack output (`undefined` when absent). */
export function outputValue<T>(outputs: Record<string, { value: unknown }>, name: string): T {
  return outputs[name]?.value as T;
}

/**
 * The drift step every path's scenario shares: the stack starts clean, a vault renamed out of band makes
 * `preview --refresh --expect-no-changes` fail, `up --refresh` renames it back to `declaredName`, and the stack
 * is clean again.
 */
export async function assertRenameDriftCaughtAndRepaired(
  stack: Stack,
  client: CustodyClient,
  vaultId: string,
  declaredName: string,
  outOfBandName: string,
): Promise<void> {
  await stack.preview({ refresh: true, expectNoChanges: true });
  await client.vaults.rename(vaultId, outOfBandName);

  await assert.rejects(stack.preview({ refresh: true, expectNoChanges: true }), (err: unknown) => {
    assert.match(String(err), /no changes were expected for preview but changes were proposed/);
    return true;
  });

  const up = await stack.up({ refresh: true });
  assert.equal(up.summary.result, "succeeded");
  assert.equal((await client.vaults.get(vaultId)).name, declaredName);
  await stack.preview({ refresh: true, expectNoChanges: true });
}

/** What {@link importAndRunPrintedCode} needs: a project whose program file is replaced by printed code. */
export interface PrintedImportOptions {
  /** The emulator the plugin talks to; the vault is made in it out of band. */
  emulator: TestEmulator;
  /** A project directory of the program's language; its program is overwritten. */
  projectDir: string;
  /** The program file, relative to `projectDir` (`index.ts`, `__main__.py`). */
  programFile: string;
  /** `PATH` of the stack: the engine, its language hosts and a `pulumi-resource-custody` launcher. */
  path: string;
  /** Name of the vault made out of band (and imported). */
  vaultName: string;
  /** Runs on the new stack before the import (to install the plugin into its `PULUMI_HOME`, say). */
  prepare?: (stack: Stack) => Promise<void>;
}

/**
 * The whole `pulumi import` story as a user lives it: a vault is made out of band, `pulumi import
 * custody:index:Vault printed <id> --out <program>` adopts it into a new stack of `projectDir` and writes the
 * code the language host generates (GenerateProgram) as the program, and that program, run as is, has no
 * changes, with and without `--refresh`. Returns the printed code, for the caller's language-specific checks,
 * and the id of the vault.
 */
export async function importAndRunPrintedCode(
  options: PrintedImportOptions,
): Promise<{ code: string; vaultId: string }> {
  const { emulator, projectDir, programFile } = options;
  const made = await emulator.client.vaults.create({ name: options.vaultName, type: "evm" });
  const program = `${projectDir}/${programFile}`;
  await fs.promises.writeFile(program, "");
  const stack = await createLocalStack({ projectDir, stackName: "printed", envVars: { PATH: options.path } });
  try {
    await options.prepare?.(stack);
    await configureForEmulator(stack, emulator);
    await pulumiCli(stack, [
      "import",
      "custody:index:Vault",
      "printed",
      made.id,
      "--out",
      program,
      "--protect=false",
      "--yes",
    ]);
    const code = await fs.promises.readFile(program, "utf8");
    const imported = (await stateResources(stack, "custody:index:Vault")).get("printed");
    assert.equal(imported?.id, made.id);
    assert.equal(imported?.outputs?.acquisition, "adopted");

    await stack.preview({ expectNoChanges: true });
    await stack.preview({ refresh: true, expectNoChanges: true });
    return { code, vaultId: made.id };
  } finally {
    await disposeLocalStack(stack);
  }
}
