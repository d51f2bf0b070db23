// examples/yaml-vaults, a Pulumi YAML program, as a user runs it: copied out of the repository, run by the
// upstream YAML language host (`pulumi-language-yaml`, built from github.com/pulumi/pulumi-yaml by
// scripts/install-pulumi.sh) under the real CLI, through the plugin installed from its release archive, against
// the emulator. Create (vaults, an address, a data-source lookup), a rename in place, drift caught and
// repaired, and destroy archiving the vaults. The steps share one stack and run in order.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  apiAddresses,
  apiVaultsNamed,
  assertRenameDriftCaughtAndRepaired,
  configureForEmulator,
  pulumiCli,
  startTestEmulator,
  stateResources,
  type TestEmulator,
} from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";
import { installPluginFromArchive, releaseArtifacts, userPath } from "../support/release";

const VAULT = "custody:index:Vault";
const ADDRESS = "custody:index:VaultAddress";

describe("examples/yaml-vaults: a Pulumi YAML program on the upstream YAML host (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;
  let tempRoot: string;
  const ids = new Map<string, string>();

  before(async function () {
    this.timeout(40 * 60_000);
    const engine = await enginePaths();
    await fs.promises
      .access(path.join(engine.binDir, "pulumi-language-yaml"), fs.constants.X_OK)
      .catch(() => {
        throw new Error(`${engine.binDir} has no pulumi-language-yaml: run scripts/install-pulumi.sh`);
      });
    await releaseArtifacts();
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "yaml-example-e2e-"));
    const dir = path.join(tempRoot, "yaml-vaults");
    await fs.promises.cp(repoPath("examples", "yaml-vaults"), dir, { recursive: true });
    emulator = await startTestEmulator();
    // No plugin on PATH: the engine takes the one installed from the archive.
    stack = await createLocalStack({
      projectDir: dir,
      stackName: "yaml",
      envVars: { PATH: userPath(engine.binDir) },
    });
    await installPluginFromArchive(stack);
    await configureForEmulator(stack, emulator);
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  it("the YAML host that runs it is the upstream one, at the version language-hosts/yaml pins", async () => {
    const { stdout } = await pulumiCli(stack, ["about", "--json"]);
    const about = JSON.parse(stdout) as { plugins?: { name: string; kind: string; version?: string }[] };
    const pinned = /^require github\.com\/pulumi\/pulumi-yaml v([0-9.]+)$/m.exec(
      fs.readFileSync(repoPath("language-hosts", "yaml", "go.mod"), "utf8"),
    )?.[1];
    assert.ok(pinned, "language-hosts/yaml/go.mod pins a pulumi-yaml version");
    const host = about.plugins?.find((p) => p.kind === "language" && p.name === "yaml");
    assert.equal(host?.version, pinned, stdout);
    assert.ok(
      about.plugins?.some((p) => p.kind === "resource" && p.name === "custody"),
      stdout,
    );
  });

  it("up creates the vaults and the address, and the data source finds the vault that existed", async () => {
    const up = await stack.up();

    assert.equal(up.summary.result, "succeeded");
    assert.deepEqual(up.summary.resourceChanges, { create: 4 }, "the stack, 2 vaults and 1 address");
    const vaults = await stateResources(stack, VAULT);
    for (const [key, resource] of vaults) ids.set(key, String(resource.id));
    const live = await apiVaultsNamed(emulator.client, ["YAML Treasury", "YAML Bitcoin"]);
    assert.deepEqual(live.map((v) => v.id).sort(), [...vaults.values()].map((r) => String(r.id)).sort());
    const deposits = (await apiAddresses(emulator.client, ids.get("bitcoin")!)).find(
      (a) => a.name === "Deposits",
    );
    assert.ok(deposits);
    assert.equal((await stateResources(stack, ADDRESS)).get("deposits")?.id, deposits.id);
    assert.equal(up.outputs.depositAddress.value, deposits.address.address);
    assert.equal(up.outputs.treasuryVaultId.value, ids.get("treasury"));
    assert.equal(up.outputs.bitcoinState.value, "active");
    const [seeded] = await apiVaultsNamed(emulator.client, ["Treasury ETH"]);
    const found = up.outputs.lookedUpVaults.value as { id: string; name: string }[];
    assert.deepEqual(
      found.map((v) => [v.id, v.name]),
      [[seeded.id, "Treasury ETH"]],
    );
    await stack.preview({ expectNoChanges: true });
  });

  it("renaming through the config updates the vault in place (same id)", async () => {
    await stack.setConfig("treasuryName", { value: "YAML Treasury (renamed)" });

    const up = await stack.up();

    assert.deepEqual(up.summary.resourceChanges, { same: 3, update: 1 });
    assert.equal((await emulator.client.vaults.get(ids.get("treasury")!)).name, "YAML Treasury (renamed)");
    assert.equal((await stateResources(stack, VAULT)).get("treasury")?.id, ids.get("treasury"));
  });

  it("drift: an out-of-band rename fails `preview --refresh --expect-no-changes`; `up --refresh` repairs it", async () => {
    await assertRenameDriftCaughtAndRepaired(
      stack,
      emulator.client,
      ids.get("treasury")!,
      "YAML Treasury (renamed)",
      "yaml renamed behind Pulumi's back",
    );
  });

  it("destroy archives the vaults (the API cannot delete them); up restores the same ones", async () => {
    await stack.destroy();
    for (const id of ids.values()) assert.equal((await emulator.client.vaults.get(id)).state, "archived");

    await stack.up();

    const vaults = await stateResources(stack, VAULT);
    for (const [key, resource] of vaults) {
      assert.equal(resource.id, ids.get(key), `${key}: the archived vault came back`);
      assert.equal(resource.outputs?.acquisition, "restored");
    }
  });
});
