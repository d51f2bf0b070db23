// The whole life of a stack of vaults and addresses under the real engine, against the emulator: create,
// idempotence, secrets in the state, renames, address replacement, drift (out-of-band rename and archive)
// and its repair, destroy (archives) and the restore that a second `up` performs.
//
// The steps share one stack and run in order; each asserts what it changed, through the API.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  ADDRESS_TYPE,
  apiAddresses,
  apiVaultsNamed,
  cliStackExport,
  type Declared,
  declare,
  fixtureStack,
  type StateResource,
  startTestEmulator,
  stateResources,
  type TestEmulator,
  VAULT_TYPE,
} from "../support/e2e-custody";
import { disposeLocalStack, enginePaths } from "../support/pulumi-engine";

const NAMES = {
  treasury: "e2e-lifecycle Treasury",
  ops: "e2e-lifecycle Operations",
  cold: "e2e-lifecycle Cold Storage",
};

const desired: Declared = {
  vaults: {
    treasury: { name: NAMES.treasury, type: "evm" },
    ops: { name: NAMES.ops, type: "solana" },
    cold: { name: NAMES.cold, type: "utxo", chain: "bitcoin_testnet" },
  },
  addresses: {
    deposits: { vault: "cold", name: "Deposits", addressType: "segwit" },
    savings: { vault: "cold", name: "Savings", addressType: "taproot" },
    // No name: it gets the resource name, so destroy then up finds it again.
    change: { vault: "cold", addressType: "segwit" },
  },
};

describe("vault lifecycle (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;
  /** Vault ids by resource name, as first created. */
  let vaultIds: Map<string, string>;
  /** Address ids and addresses by resource name, after the address changes. */
  let addressesBeforeDestroy: Map<string, { id: string; address: string }>;

  before(async function () {
    this.timeout(40 * 60_000);
    await enginePaths();
    emulator = await startTestEmulator();
    stack = await fixtureStack(emulator, "lifecycle");
    await declare(stack, desired);
    // The API user's signing key, kept as a secret config value: the state must hold it only encrypted.
    await stack.setConfig("signingKeyPem", { value: emulator.apiUserPrivateKeyPem, secret: true });
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
  });

  it("up creates every vault and address, and the state matches the API", async () => {
    const up = await stack.up();

    assert.equal(up.summary.result, "succeeded");
    assert.deepEqual(up.summary.resourceChanges, { create: 7 });
    const vaults = await stateResources(stack, VAULT_TYPE);
    assert.deepEqual([...vaults.keys()].sort(), ["cold", "ops", "treasury"]);
    vaultIds = new Map([...vaults].map(([key, r]) => [key, String(r.id)]));

    const live = await apiVaultsNamed(emulator.client, Object.values(NAMES));
    assert.equal(live.length, 3, "one vault per declared name, no duplicates");
    for (const [key, resource] of vaults) {
      const vault = live.find((v) => v.id === resource.id);
      assert.ok(vault, `vault ${key} (${resource.id}) exists in the API`);
      assert.equal(vault.name, NAMES[key as keyof typeof NAMES]);
      assert.equal(vault.state, "active");
      assert.equal(resource.outputs?.name, vault.name);
      assert.equal(resource.outputs?.acquisition, "created");
    }

    const addresses = await stateResources(stack, ADDRESS_TYPE);
    const liveAddresses = await apiAddresses(emulator.client, vaultIds.get("cold")!);
    for (const [key, expected] of [
      ["deposits", { name: "Deposits", type: "segwit" }],
      ["savings", { name: "Savings", type: "taproot" }],
      ["change", { name: "change", type: "segwit" }],
    ] as const) {
      const resource = addresses.get(key);
      const address = liveAddresses.find((a) => a.id === resource?.id);
      assert.ok(address, `address ${key} exists in the cold-storage vault`);
      assert.equal(address.name, expected.name);
      assert.equal(address.address.address_type, expected.type);
      assert.equal(resource?.outputs?.address, address.address.address);
    }
  });

  it("a second preview reports no changes", async () => {
    const preview = await stack.preview({ expectNoChanges: true });

    assert.deepEqual(preview.changeSummary, { same: 7 });
  });

  it("`pulumi stack export` holds no plaintext access token and no private key", async () => {
    assert.equal(
      (await stack.getConfig("custody:accessToken")).secret,
      true,
      "the token was set as a secret",
    );
    const stackFile = await fs.promises.readFile(
      path.join(stack.workspace.workDir, "Pulumi.lifecycle.yaml"),
      "utf8",
    );
    assert.ok(!stackFile.includes(emulator.accessToken), "no plaintext token in the stack's config file");

    const exported = await cliStackExport(stack);

    assert.ok(!exported.includes(emulator.accessToken), "no access token in the state");
    const keyBody = pemBody(emulator.apiUserPrivateKeyPem);
    assert.ok(keyBody.length > 40);
    assert.ok(!exported.includes(keyBody.slice(0, 40)), "no private key material in the state");
    assert.doesNotMatch(exported, /PRIVATE KEY/);
    // Both secrets are in the state, encrypted, so the checks above are not vacuous.
    const resources: StateResource[] = JSON.parse(exported).deployment.resources;
    const secretSig = "4dabf18193072939515e22adb298388d";
    const provider = resources.find((r) => r.type === "pulumi:providers:pulumi-nodejs");
    const token = provider?.inputs?.["custody:accessToken"] as Record<string, unknown> | undefined;
    assert.equal(typeof token?.[secretSig], "string", "the provider's token input is a secret");
    assert.equal(typeof token?.ciphertext, "string", "…stored encrypted");
    const program = resources.find((r) => r.type === "pulumi:pulumi:Stack");
    const key = program?.outputs?.signingKeyPem as Record<string, unknown> | undefined;
    assert.equal(typeof key?.ciphertext, "string", "the signing key output is stored encrypted");
  });

  it("each resource's serialized provider is a bare require of the package's provider module", async () => {
    const resources: StateResource[] = JSON.parse(await cliStackExport(stack)).deployment.resources;
    const custody = resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/custody:"));
    assert.ok(custody.length >= 4, `${custody.length} custody resources`);
    for (const resource of custody) {
      const module = resource.type.endsWith(":VaultAddress") ? "vault-address" : "vault";
      for (const side of [resource.inputs, resource.outputs]) {
        const text = String(side?.__provider);
        assert.ok(text.includes(`require("pulumi-custody/provider-runtime/${module}")`), text);
        assert.ok(Buffer.byteLength(text) < 400, `${resource.urn}: ${Buffer.byteLength(text)} bytes`);
      }
    }
  });

  it("a rename in code is an in-place update, and the API shows the new name", async () => {
    NAMES.treasury = "e2e-lifecycle Treasury (renamed)";
    desired.vaults!.treasury!.name = NAMES.treasury;
    await declare(stack, desired);

    const up = await stack.up();

    assert.deepEqual(up.summary.resourceChanges, { update: 1, same: 6 });
    const vault = await emulator.client.vaults.get(vaultIds.get("treasury")!);
    assert.equal(vault.name, NAMES.treasury);
    assert.equal((await stateResources(stack, VAULT_TYPE)).get("treasury")?.id, vault.id, "same vault");
  });

  it("a reverted replace gives back the original vault: same id, same address, no third vault", async () => {
    const original = await emulator.client.vaults.get(vaultIds.get("ops")!);
    desired.vaults!.ops = { name: NAMES.ops, type: "evm" };
    await declare(stack, desired);
    const replaced = await stack.up();
    assert.equal(replaced.summary.resourceChanges?.replace, 1);
    const replacementId = (await stateResources(stack, VAULT_TYPE)).get("ops")?.id;
    assert.notEqual(replacementId, original.id);

    // The pull request is reverted.
    desired.vaults!.ops = { name: NAMES.ops, type: "solana" };
    await declare(stack, desired);
    const reverted = await stack.up();

    assert.equal(reverted.summary.resourceChanges?.replace, 1);
    const back = (await stateResources(stack, VAULT_TYPE)).get("ops");
    assert.equal(back?.id, original.id, "the original vault is back");
    assert.equal(back?.outputs?.address, (original as { address?: string }).address);
    const live = await emulator.client.vaults.get(original.id);
    assert.equal(live.state, "active");
    assert.equal(live.name, NAMES.ops);
    const named = await emulator.client.vaults.list({ vault_states: ["active", "archived"], size: 100 });
    assert.deepEqual(
      named.vaults
        .filter((v) => v.name.startsWith(NAMES.ops))
        .map((v) => v.id)
        .sort(),
      [original.id, replacementId].sort(),
      "two vaults in all",
    );
  });

  it("an address rename is an update, and a new address type replaces the address", async () => {
    const before = await stateResources(stack, ADDRESS_TYPE);
    desired.addresses!.deposits!.name = "Deposits (main)";
    // Addresses cannot be deleted, so the replacement needs a name of its own.
    desired.addresses!.savings = { vault: "cold", name: "Savings (segwit)", addressType: "segwit" };
    await declare(stack, desired);

    const up = await stack.up();

    assert.equal(up.summary.resourceChanges?.update, 1);
    assert.equal(up.summary.resourceChanges?.replace, 1);
    const after = await stateResources(stack, ADDRESS_TYPE);
    const live = await apiAddresses(emulator.client, vaultIds.get("cold")!);
    const deposits = live.find((a) => a.id === after.get("deposits")?.id);
    assert.equal(after.get("deposits")?.id, before.get("deposits")?.id, "renamed in place");
    assert.equal(deposits?.name, "Deposits (main)");

    const savings = after.get("savings");
    assert.notEqual(savings?.id, before.get("savings")?.id, "replaced by a new address");
    const replacement = live.find((a) => a.id === savings?.id);
    assert.equal(replacement?.name, "Savings (segwit)");
    assert.equal(replacement?.address.address_type, "segwit");
    // The old one cannot be deleted: it is only forgotten, and the engine output says so.
    assert.ok(live.some((a) => a.id === before.get("savings")?.id && a.name === "Savings"));
    assert.match(up.stdout, /cannot delete addresses/);
    addressesBeforeDestroy = new Map(
      [...after].map(([key, r]) => [key, { id: String(r.id), address: String(r.outputs?.address) }]),
    );
  });

  it("drift: an out-of-band rename fails `preview --refresh --expect-no-changes`", async () => {
    await emulator.client.vaults.rename(vaultIds.get("ops")!, "renamed behind Pulumi's back");

    await assert.rejects(stack.preview({ refresh: true, expectNoChanges: true }), (err: unknown) => {
      assert.match(String(err), /no changes were expected for preview but changes were proposed/);
      return true;
    });
  });

  it("drift: an out-of-band archive fails `preview --refresh --expect-no-changes` as well", async () => {
    // Put the rename right first, so this step sees only the archive.
    await emulator.client.vaults.rename(vaultIds.get("ops")!, NAMES.ops);
    await stack.preview({ refresh: true, expectNoChanges: true });
    await emulator.client.vaults.archive(vaultIds.get("cold")!);

    await assert.rejects(stack.preview({ refresh: true, expectNoChanges: true }), (err: unknown) => {
      assert.match(String(err), /no changes were expected for preview but changes were proposed/);
      return true;
    });
    // The archived vault is drift, not a deletion: it stays in the state.
    assert.ok((await stateResources(stack, VAULT_TYPE)).has("cold"));
  });

  it("`up --refresh` repairs the drift: the vault is restored and renamed back, with the same id", async () => {
    await emulator.client.vaults.rename(vaultIds.get("treasury")!, "renamed again out of band");

    const up = await stack.up({ refresh: true });

    assert.equal(up.summary.result, "succeeded");
    const treasury = await emulator.client.vaults.get(vaultIds.get("treasury")!);
    assert.equal(treasury.name, NAMES.treasury);
    const cold = await emulator.client.vaults.get(vaultIds.get("cold")!);
    assert.equal(cold.state, "active");
    assert.equal(cold.name, NAMES.cold);
    await stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("destroy archives every vault (the API keeps them, archived)", async () => {
    const destroy = await stack.destroy();

    assert.equal(destroy.summary.result, "succeeded");
    assert.equal((await stateResources(stack, VAULT_TYPE)).size, 0);
    for (const [key, id] of vaultIds) {
      const vault = await emulator.client.vaults.get(id);
      assert.equal(vault.state, "archived", `vault ${key} is archived`);
    }
  });

  it("a second up restores the same vault ids and the same addresses", async () => {
    const up = await stack.up();

    assert.equal(up.summary.result, "succeeded");
    const vaults = await stateResources(stack, VAULT_TYPE);
    for (const [key, id] of vaultIds) {
      assert.equal(vaults.get(key)?.id, id, `vault ${key} has its old id`);
      assert.equal(vaults.get(key)?.outputs?.acquisition, "restored");
      assert.equal((await emulator.client.vaults.get(id)).state, "active");
    }
    const addresses = await stateResources(stack, ADDRESS_TYPE);
    for (const [key, before] of addressesBeforeDestroy) {
      assert.equal(addresses.get(key)?.id, before.id, `address ${key} has its old id`);
      assert.equal(addresses.get(key)?.outputs?.address, before.address);
    }
    assert.equal((await apiVaultsNamed(emulator.client, Object.values(NAMES))).length, 3, "no duplicates");
    await stack.preview({ expectNoChanges: true });
  });
});

function pemBody(pem: string): string {
  return pem
    .split("\n")
    .filter((line) => line && !line.startsWith("-----"))
    .join("");
}
