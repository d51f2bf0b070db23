// Under random faults (20% of requests: 500, 429, 408, connection resets, and faults after commit), creating 30
// vaults and 20 addresses at once through the provider converges within two rounds and never duplicates.
import * as assert from "node:assert/strict";
import { vault, vaultAddress } from "../core/index";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

const VAULTS = 30;
const ADDRESSES_PER_UTXO_VAULT = 2;

/** Runs every job, then the failed ones again, for at most `rounds` rounds; returns what still failed. */
async function inRounds<T, R>(
  jobs: T[],
  run: (job: T) => Promise<R>,
  rounds: number,
): Promise<{ failed: T[]; done: Map<T, R> }> {
  const done = new Map<T, R>();
  let pending = jobs;
  for (let round = 1; round <= rounds && pending.length > 0; round++) {
    const results = await Promise.allSettled(pending.map(run));
    pending = pending.filter((job, i) => {
      const result = results[i];
      if (result?.status === "fulfilled") done.set(job, result.value);
      return result?.status !== "fulfilled";
    });
  }
  return { failed: pending, done };
}

describe("provider under random faults (emulator)", function () {
  this.timeout(120_000);
  let bed: ProviderTestbed;
  before(async () => {
    bed = await startProviderTestbed();
  });
  after(async () => bed.close());

  for (const seed of [11, 42]) {
    it(`seed ${seed}: ${VAULTS} vaults and their addresses converge in two rounds, no duplicates`, async () => {
      await bed.reset();
      await bed.emulator.control.clearRequests();
      // The seeded rate draws per request, and which requests are sent depends on how reads batch (timing), so
      // the writes whose answer is lost after they commit are also planted: at least one of each kind.
      await bed.emulator.control.setFaults({
        seed,
        rate: 0.2,
        rules: [
          { kind: "after_commit_500", rate: 0.5, route: "createVault", count: 2 },
          { kind: "after_commit_reset", rate: 0.5, route: "createVault", count: 2 },
          { kind: "after_commit_500", rate: 0.5, route: "createVaultAddress", count: 2 },
        ],
      });

      const declared = Array.from({ length: VAULTS }, (_, i) =>
        i % 3 === 0
          ? { name: `Soak ${i}`, type: "utxo", chain: "bitcoin_mainnet" }
          : { name: `Soak ${i}`, type: i % 3 === 1 ? "evm" : "solana" },
      );
      const vaults = await inRounds(declared, (inputs) => vault.create(inputs), 2);
      assert.deepEqual(vaults.failed, []);

      const utxoIds = [...vaults.done.entries()].filter(([d]) => d.type === "utxo").map(([, r]) => r.id);
      const addresses = utxoIds.flatMap((vaultId) =>
        Array.from({ length: ADDRESSES_PER_UTXO_VAULT }, (_, k) => ({ vaultId, name: `Soak address ${k}` })),
      );
      assert.equal(addresses.length, 20);
      const created = await inRounds(addresses, (inputs) => vaultAddress.create(inputs), 2);
      assert.deepEqual(created.failed, []);

      await bed.emulator.control.clearFaults();
      const raw = await bed.emulator.control.peek<{ id: string; name: string }>("vaults");
      for (const d of declared) {
        const same = raw.filter((v) => v.name === d.name);
        assert.equal(same.length, 1, `${same.length} vaults named ${d.name}`);
        assert.equal(same[0]?.id, vaults.done.get(d)?.id);
      }
      const rawAddresses = await bed.emulator.control.peek<{
        id: string;
        name: string;
        vault: { id: string };
      }>("addresses");
      for (const a of addresses) {
        const same = rawAddresses.filter((r) => r.vault.id === a.vaultId && r.name === a.name);
        assert.equal(same.length, 1, `${same.length} addresses named ${a.name} in ${a.vaultId}`);
        assert.equal(same[0]?.id, created.done.get(a)?.id);
      }
      // The faults really happened, including writes that were committed but whose answer was lost.
      const faults = (await bed.emulator.control.listRequests()).map((r) => r.fault).filter(Boolean);
      assert.ok(faults.length >= 10, `only ${faults.length} faults`);
      for (const kind of ["after_commit_500", "after_commit_reset"]) {
        assert.ok(faults.includes(kind), `no ${kind} happened: ${faults.join(", ")}`);
      }
    });
  }
});
