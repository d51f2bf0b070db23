// Under faults: the emulator fails 20% of API requests (500, 429, 408, connection resets, and writes that are
// applied but whose response is lost), from a fixed seed. An `up` of 30 vaults and 20 addresses must
// converge in at most two runs, create no duplicate, and leave the state equal to what the API holds.
import * as assert from "node:assert/strict";
import type { Stack, UpResult } from "@pulumi/pulumi/automation";
import {
  ADDRESS_TYPE,
  type AddressSpec,
  apiAddresses,
  apiVaultsNamed,
  declare,
  fixtureStack,
  startTestEmulator,
  stateResources,
  type TestEmulator,
  VAULT_TYPE,
  type VaultSpec,
} from "../support/e2e-custody";
import { disposeLocalStack, enginePaths } from "../support/pulumi-engine";

const FAULT_RATE = 0.2;
const MAX_RUNS = 2;

// 30 vaults: 10 each of evm, solana and utxo; 20 addresses: two on each utxo vault.
const vaults: Record<string, VaultSpec> = {};
const addresses: Record<string, AddressSpec> = {};
for (let i = 0; i < 10; i++) {
  vaults[`evm-${i}`] = { name: `e2e-faults EVM ${i}`, type: "evm" };
  vaults[`sol-${i}`] = { name: `e2e-faults Solana ${i}`, type: "solana" };
  vaults[`btc-${i}`] = { name: `e2e-faults BTC ${i}`, type: "utxo", chain: "bitcoin_testnet" };
  addresses[`btc-${i}-deposits`] = { vault: `btc-${i}`, name: "Deposits", addressType: "segwit" };
  // No name: named after the resource, which is what a lost create response is reconciled by.
  addresses[`btc-${i}-savings`] = { vault: `btc-${i}`, addressType: "taproot" };
}
const vaultNames = Object.values(vaults).map((v) => v.name);

describe("under faults: 30 vaults and 20 addresses at a 20% fault rate (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;
  const runs: Array<{ ok: true; result: UpResult } | { ok: false; error: string }> = [];

  before(async function () {
    this.timeout(40 * 60_000);
    await enginePaths();
    // Keep every request, to count the faults afterwards.
    emulator = await startTestEmulator({ requestLogSize: 100_000 });
    await emulator.control.setFaults({
      seed: "e2e-faults",
      // 500, 429, 408 and connection resets on any request; on writes also the after-commit kinds.
      rate: FAULT_RATE,
      // Besides, the first creates of a vault and of an address are applied but their responses lost: the
      // case that makes a naive retry create a duplicate.
      rules: [
        { kind: "after_commit_reset", route: "createVault", rate: 1, count: 1 },
        { kind: "after_commit_500", route: "createVault", rate: 1, count: 1 },
        { kind: "after_commit_reset", route: "createVaultAddress", rate: 1, count: 1 },
        { kind: "after_commit_500", route: "createVaultAddress", rate: 1, count: 1 },
      ],
    });
    stack = await fixtureStack(emulator, "faults");
    await declare(stack, { vaults, addresses });
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
  });

  it(`converges in at most ${MAX_RUNS} runs of up`, async () => {
    while (runs.length < MAX_RUNS) {
      try {
        runs.push({ ok: true, result: await stack.up() });
        break;
      } catch (err) {
        runs.push({ ok: false, error: String(err) });
      }
    }

    const last = runs.at(-1);
    assert.ok(
      last?.ok,
      `no successful up in ${MAX_RUNS} runs; last error:\n${last && !last.ok ? last.error : ""}`,
    );
    // The faults really happened, creates included (the run is not vacuous).
    const requests = await emulator.control.listRequests();
    const faulted = requests.filter((r) => r.fault !== undefined);
    assert.ok(
      faulted.length >= requests.length * 0.1,
      `${faulted.length} faults in ${requests.length} requests`,
    );
    const lostCreates = faulted.filter((r) => r.method === "POST" && r.fault?.startsWith("after_commit"));
    assert.ok(lostCreates.filter((r) => r.route === "/api/v1/vaults").length >= 2, "lost vault creates");
    assert.ok(
      lostCreates.filter((r) => r.route === "/api/v1/vaults/{id}/addresses").length >= 2,
      "lost address creates",
    );
    const kinds = new Map<string, number>();
    for (const r of faulted) kinds.set(String(r.fault), (kinds.get(String(r.fault)) ?? 0) + 1);
    console.log(
      `      ${runs.length} run(s) of up; ${faulted.length} faults in ${requests.length} API requests:`,
      JSON.stringify(Object.fromEntries(kinds)),
    );
    // Converged: with the faults off, a refresh finds nothing to change.
    await emulator.control.clearFaults();
    await stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("created no duplicate vault: every name exists exactly once", async () => {
    const live = await apiVaultsNamed(emulator.client, vaultNames);

    const counts = new Map<string, number>();
    for (const vault of live) counts.set(vault.name, (counts.get(vault.name) ?? 0) + 1);
    assert.deepEqual(
      [...counts].filter(([, n]) => n !== 1),
      [],
    );
    assert.equal(counts.size, vaultNames.length);
  });

  it("created no duplicate address: every address name exists once per vault", async () => {
    for (const vault of await apiVaultsNamed(emulator.client, vaultNames)) {
      if (vault.type !== "utxo") continue;
      const key = Object.keys(vaults).find((k) => vaults[k]?.name === vault.name);
      const names = (await apiAddresses(emulator.client, vault.id)).map((a) => a.name);
      assert.equal(names.filter((n) => n === "Deposits").length, 1, `${vault.name}: one Deposits`);
      const savings = `${key}-savings`;
      assert.equal(names.filter((n) => n === savings).length, 1, `${vault.name}: one ${savings}`);
      // Each vault starts with one address of its own; nothing beyond the two declared ones was left behind.
      assert.equal(names.length, 3, `${vault.name}: ${names.join(", ")}`);
    }
  });

  it("left the state equal to the server's: the same ids, names and addresses", async () => {
    const live = await apiVaultsNamed(emulator.client, vaultNames);
    const inState = await stateResources(stack, VAULT_TYPE);

    assert.equal(inState.size, 30);
    for (const [key, spec] of Object.entries(vaults)) {
      const resource = inState.get(key);
      const vault = live.find((v) => v.id === resource?.id);
      assert.ok(vault, `vault ${key} in the state (${resource?.id}) exists in the API`);
      assert.equal(vault.name, spec.name);
      assert.equal(resource?.outputs?.name, spec.name);
      assert.equal(vault.state, "active");
    }
    const addressesInState = await stateResources(stack, ADDRESS_TYPE);
    assert.equal(addressesInState.size, 20);
    for (const [key, spec] of Object.entries(addresses)) {
      const resource = addressesInState.get(key);
      const vaultId = inState.get(spec.vault)?.id;
      const address = (await apiAddresses(emulator.client, String(vaultId))).find(
        (a) => a.id === resource?.id,
      );
      assert.ok(address, `address ${key} in the state (${resource?.id}) exists in its vault`);
      assert.equal(address.name, spec.name ?? key);
      assert.equal(resource?.outputs?.address, address.address.address);
      assert.equal(resource?.outputs?.vaultId, vaultId);
    }
  });
});
