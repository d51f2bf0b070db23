// The `custody` provider plugin (pulumi-resource-custody) under the real engine, against the emulator: the
// plugin is found on PATH (a launcher of the built `plugin/dist/cli.js`), and a program declares its resources
// by token (`custody:index:Vault`, `custody:index:VaultAddress`). Create, rename, drift and its repair,
// archive on delete and restore, `pulumi import` of a vault made out of band, the bulk import file of
// `custody-import-file`, and no secret in plain text in `pulumi stack export`.
//
// The steps share one stack and run in order.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  apiAddresses,
  apiVaultsNamed,
  assertRenameDriftCaughtAndRepaired,
  cliStackExport,
  configureForEmulator,
  pulumiCli,
  startTestEmulator,
  stateResources,
  type TestEmulator,
} from "../support/e2e-custody";
import {
  createLocalStack,
  disposeLocalStack,
  enginePaths,
  pluginLauncherDir,
  repoPath,
} from "../support/pulumi-engine";

const execFileAsync = promisify(execFile);

const VAULT = "custody:index:Vault";
const ADDRESS = "custody:index:VaultAddress";
const PROVIDER = "pulumi:providers:custody";

const NAMES = {
  treasury: "np Treasury",
  renamed: "np Treasury (renamed)",
  cold: "np Cold",
  hidden: "np confidential vault name 7f3a",
  outOfBand: "np made out of band",
};

describe("custody provider plugin (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;
  let tempRoot: string;
  let binDirs: string;
  const ids = new Map<string, string>();

  async function declare(
    target: Stack,
    vaults: Record<string, object>,
    addresses: Record<string, object> = {},
  ): Promise<void> {
    await target.setAllConfig({
      vaults: { value: JSON.stringify(vaults) },
      addresses: { value: JSON.stringify(addresses) },
    });
  }

  async function newStack(
    name: string,
    configured: boolean,
    env: Record<string, string> = {},
  ): Promise<Stack> {
    const created = await createLocalStack({
      projectDir: repoPath("test", "fixtures", "native-plugin"),
      stackName: name,
      envVars: { PATH: binDirs, ...env },
    });
    return configured ? configureForEmulator(created, emulator) : created;
  }

  before(async function () {
    this.timeout(40 * 60_000);
    const engine = await enginePaths();
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "native-plugin-e2e-"));
    binDirs = [await pluginLauncherDir(tempRoot), engine.binDir, process.env.PATH].join(path.delimiter);
    emulator = await startTestEmulator();
    stack = await newStack("plugin", true);
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  it("`pulumi package get-schema` runs the plugin and binds its schema with Pulumi's own binder", async () => {
    const launcher = path.join(tempRoot, "bin", "pulumi-resource-custody");
    // The command binds the schema and fails when the binder reports an error.
    const { stdout } = await pulumiCli(stack, ["package", "get-schema", launcher], { onStack: false });
    const bound = JSON.parse(stdout) as { name: string; resources: Record<string, unknown>; config: unknown };
    assert.equal(bound.name, "custody");
    assert.deepEqual(Object.keys(bound.resources).sort(), [VAULT, ADDRESS].sort());
  });

  it("up creates vaults and an address through the plugin found on PATH", async () => {
    await declare(
      stack,
      {
        treasury: { name: NAMES.treasury, type: "evm" },
        cold: { name: NAMES.cold, type: "utxo", chain: "bitcoin_testnet" },
        hidden: { name: NAMES.hidden, type: "solana", secretName: true },
      },
      { deposits: { vault: "cold", name: "Deposits" } },
    );

    const up = await stack.up();

    assert.equal(up.summary.result, "succeeded");
    assert.deepEqual(up.summary.resourceChanges, { create: 5 }, "the stack, 3 vaults and 1 address");
    const vaults = await stateResources(stack, VAULT);
    assert.deepEqual([...vaults.keys()].sort(), ["cold", "hidden", "treasury"]);
    for (const [key, resource] of vaults) ids.set(key, String(resource.id));
    const [treasury] = await apiVaultsNamed(emulator.client, [NAMES.treasury]);
    assert.equal(treasury.id, ids.get("treasury"));
    assert.equal(vaults.get("treasury")?.outputs?.acquisition, "created");
    // A utxo vault comes with a default address; the declared one is the one named "Deposits".
    const deposits = (await apiAddresses(emulator.client, ids.get("cold")!)).find(
      (a) => a.name === "Deposits",
    );
    assert.ok(deposits, "the declared address exists in the vault");
    assert.equal((await stateResources(stack, ADDRESS)).get("deposits")?.id, deposits.id);
    assert.deepEqual(up.outputs.vaultStates.value, { treasury: "active", cold: "active", hidden: "active" });
  });

  it("the program calls custody:index:getVaults through the provider (Invoke)", async () => {
    await stack.setConfig("lookupNames", { value: JSON.stringify([NAMES.treasury, NAMES.cold]) });

    const up = await stack.up();

    assert.deepEqual(
      [...up.outputs.lookedUp.value].sort((a: { name: string }, b: { name: string }) =>
        a.name.localeCompare(b.name),
      ),
      [
        { id: ids.get("cold"), name: NAMES.cold },
        { id: ids.get("treasury"), name: NAMES.treasury },
      ],
    );
    await stack.removeConfig("lookupNames");
  });

  it("the state holds no secret in plain text (`pulumi stack export`)", async () => {
    const exported = await cliStackExport(stack);

    assert.ok(!exported.includes(emulator.accessToken), "the access token is not in plain text");
    assert.ok(!exported.includes(NAMES.hidden), "the secret vault name is not in plain text");
    const state = JSON.parse(exported).deployment.resources as {
      type: string;
      urn: string;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
    }[];
    const hidden = state.find((r) => r.type === VAULT && r.urn.endsWith("::hidden"));
    assert.ok(
      hidden?.outputs?.name && typeof hidden.outputs.name === "object",
      "the name output is a secret",
    );
    assert.ok(hidden?.inputs?.name && typeof hidden.inputs.name === "object", "the name input is a secret");
    const provider = state.find((r) => r.type === PROVIDER);
    assert.ok(provider, "the default provider is in the state");
    assert.equal(typeof provider.inputs?.accessToken, "object", "the provider's token input is a secret");
    // The vault itself works with its secret name.
    const [live] = await apiVaultsNamed(emulator.client, [NAMES.hidden]);
    assert.equal(live.id, ids.get("hidden"));
  });

  it("renaming in the program updates the vault in place (same id)", async () => {
    await declare(
      stack,
      {
        treasury: { name: NAMES.renamed, type: "evm" },
        cold: { name: NAMES.cold, type: "utxo", chain: "bitcoin_testnet" },
        hidden: { name: NAMES.hidden, type: "solana", secretName: true },
      },
      { deposits: { vault: "cold", name: "Deposits" } },
    );

    const up = await stack.up();

    assert.deepEqual(up.summary.resourceChanges, { same: 4, update: 1 });
    const live = await emulator.client.vaults.get(ids.get("treasury")!);
    assert.equal(live.name, NAMES.renamed);
    await stack.preview({ expectNoChanges: true });
  });

  it("drift: an out-of-band rename fails `preview --refresh --expect-no-changes`, and `up --refresh` repairs it", async () => {
    await assertRenameDriftCaughtAndRepaired(
      stack,
      emulator.client,
      ids.get("treasury")!,
      NAMES.renamed,
      "renamed behind Pulumi's back",
    );
  });

  it("removing a vault from the program archives it; declaring it again restores the same vault", async () => {
    await declare(
      stack,
      {
        cold: { name: NAMES.cold, type: "utxo", chain: "bitcoin_testnet" },
        hidden: { name: NAMES.hidden, type: "solana", secretName: true },
      },
      { deposits: { vault: "cold", name: "Deposits" } },
    );
    const removed = await stack.up();
    assert.equal(removed.summary.resourceChanges?.delete, 1);
    assert.equal((await emulator.client.vaults.get(ids.get("treasury")!)).state, "archived");

    await declare(
      stack,
      {
        treasury: { name: NAMES.renamed, type: "evm" },
        cold: { name: NAMES.cold, type: "utxo", chain: "bitcoin_testnet" },
        hidden: { name: NAMES.hidden, type: "solana", secretName: true },
      },
      { deposits: { vault: "cold", name: "Deposits" } },
    );
    const restored = await stack.up();

    assert.equal(restored.summary.resourceChanges?.create, 1);
    const treasury = (await stateResources(stack, VAULT)).get("treasury");
    assert.equal(treasury?.id, ids.get("treasury"), "the archived vault came back, not a new one");
    assert.equal(treasury?.outputs?.acquisition, "restored");
    assert.equal((await emulator.client.vaults.get(ids.get("treasury")!)).state, "active");
  });

  it("`pulumi import custody:index:Vault` adopts a vault made out of band; the program then has no changes", async () => {
    const made = await emulator.client.vaults.create({ name: NAMES.outOfBand, type: "evm" });

    const { stdout } = await pulumiCli(stack, [
      "import",
      VAULT,
      "adopted",
      made.id,
      "--generate-code=false",
      // The program does not declare `protect`, which `pulumi import` sets by default.
      "--protect=false",
      "--yes",
    ]);

    assert.match(stdout, /import/);
    const adopted = (await stateResources(stack, VAULT)).get("adopted");
    assert.equal(adopted?.id, made.id);
    assert.equal(adopted?.outputs?.acquisition, "adopted");
    // The import declares the vault's approved vault groups, as the service reports them (docs/provider.md).
    const live = await emulator.client.vaults.get(made.id);
    const groups =
      live.vault_groups?.map((group) => group.id) ?? (live.vault_group ? [live.vault_group.id] : []);
    assert.ok(groups.length > 0, "the service put the new vault in a group");
    assert.deepEqual(adopted?.inputs, { name: NAMES.outOfBand, type: "evm", vaultGroupIds: groups });

    await declare(
      stack,
      {
        treasury: { name: NAMES.renamed, type: "evm" },
        cold: { name: NAMES.cold, type: "utxo", chain: "bitcoin_testnet" },
        hidden: { name: NAMES.hidden, type: "solana", secretName: true },
        adopted: { name: NAMES.outOfBand, type: "evm" },
      },
      { deposits: { vault: "cold", name: "Deposits" } },
    );
    await stack.preview({ expectNoChanges: true });
    await stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("custody import-file lists the organization's vaults in a file that `pulumi import --file` accepts", async () => {
    const file = path.join(tempRoot, "import.json");
    await execFileAsync(
      process.execPath,
      [repoPath("cli", "dist", "custody.js"), "import-file", "--with-addresses", "--out", file],
      {
        env: {
          ...process.env,
          CUSTODY_BASE_URL: emulator.baseUrl,
          CUSTODY_ACCESS_TOKEN: emulator.accessToken,
        },
      },
    );
    const listed = JSON.parse(await fs.promises.readFile(file, "utf8")) as {
      resources: { type: string; name: string; id: string }[];
    };
    const active: string[] = [];
    for await (const vault of emulator.client.vaults.listAll({ vault_states: ["active"] }))
      active.push(vault.id);
    assert.deepEqual(
      listed.resources
        .filter((r) => r.type === VAULT)
        .map((r) => r.id)
        .sort(),
      [...active].sort(),
    );
    assert.ok(listed.resources.some((r) => r.type === ADDRESS && r.id.startsWith(`${ids.get("cold")}/`)));

    // A fresh stack without stack config: the plugin takes the API from the environment.
    const bulk = await newStack("bulk", false, {
      CUSTODY_BASE_URL: emulator.baseUrl,
      CUSTODY_ACCESS_TOKEN: emulator.accessToken,
    });
    try {
      await declare(bulk, {});
      await pulumiCli(bulk, ["import", "--file", file, "--generate-code=false", "--protect=false", "--yes"]);
      const imported = await stateResources(bulk, VAULT);
      assert.deepEqual([...imported.values()].map((r) => r.id).sort(), [...active].sort());
      assert.equal(
        (await stateResources(bulk, ADDRESS)).size,
        listed.resources.filter((r) => r.type === ADDRESS).length,
      );
    } finally {
      await disposeLocalStack(bulk);
    }
  });
});
