// The sdk's CustodyClient against the emulator: every response parses with the client's schemas, signing
// and idempotent retries agree, and errors map to the client's error classes.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import {
  CREATABLE_VAULT_TYPES,
  CustodyClient,
  CustodyConflictError,
  CustodyNotFoundError,
  CustodyPermissionError,
} from "@pulumi-custody/sdk";
import { type Harness, type Loose, startHarness, uniqueName } from "@pulumi-custody/testing";

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("emulator: with the sdk client", function () {
  this.timeout(60_000);
  let h: Harness;
  let client: CustodyClient;
  before(async () => {
    h = await startHarness();
    client = new CustodyClient({
      baseUrl: h.emulator.baseUrl,
      accessToken: h.emulator.accessToken,
      apiUserPrivateKey: h.emulator.apiUserPrivateKeyPem,
      requestsPerMinute: 0,
      advanced: { retryBaseDelayMs: 1, retryMaxDelayMs: 5 },
    });
  });
  after(async () => {
    await client.close();
    await h.close();
  });

  it("lists every collection through listAll (several pages) with responses that parse", async () => {
    await h.emulator.control.seedLargeDataSet({ users: 900, vaults: 250 });
    const vaults = await collect(client.vaults.listAll());
    assert.equal(vaults.length, (await client.vaults.list({ size: 0 })).total);
    assert.ok(vaults.length > 250);
    assert.equal(new Set(vaults.map((v) => v.id)).size, vaults.length);
    const users = await collect(client.users.listAll({ include_deleted: true }));
    assert.ok(users.length > 900);
    assert.ok(users.some((u) => u.state === "deleted"));
    assert.equal((await collect(client.userGroups.listAll())).length, 4);
    const chains = await collect(client.blockchains.listAll({ show_all: true, include_exchanges: true }));
    assert.ok(chains.length > 100);
    const fees = await client.blockchains.suggestedFees({ chains: ["evm_1", "bitcoin_mainnet"] });
    assert.ok(fees.suggested_fees.evm_1);
    const treasury = vaults.find((v) => v.name === "Treasury ETH")!;
    const assets = await collect(client.vaults.assets.listAll(treasury.id));
    assert.equal(assets.length, 9);
    const btc = vaults.find((v) => v.name === "BTC Cold Storage")!;
    assert.equal((await collect(client.vaults.addresses.listAll(btc.id))).length, 4);
    assert.equal((await client.vaults.exportBalances({ vaults_ids: [treasury.id] }))?.state, "ready");
  });

  it("creates every vault type, renames, archives and restores", async () => {
    for (const type of CREATABLE_VAULT_TYPES) {
      const body: Loose = { name: uniqueName(type), type };
      if (type === "utxo") body.chain = "bitcoin_testnet";
      if (type === "black_box") body.key_type = "ecdsa_secp256k1";
      if (type === "safe") body.address = "0xabcdefabcdefabcdefabcdefabcdefabcdefabcd";
      const vault = await client.vaults.create(body);
      assert.equal(vault.type, type);
    }
    const vault = await client.vaults.create({ name: uniqueName(), type: "utxo", chain: "bitcoin_mainnet" });
    const address = await client.vaults.addresses.create(vault.id, { address_type: "taproot" });
    await client.vaults.addresses.rename(address.id, "savings");
    await client.vaults.rename(vault.id, uniqueName("renamed"));
    await client.vaults.archive(vault.id);
    assert.equal((await client.vaults.get(vault.id)).state, "archived");
    await client.vaults.restore(vault.id);
    assert.equal((await client.vaults.get(vault.id)).state, "active");
  });

  it("signs transactions the emulator accepts, and a retry after a fault-after-commit returns the original", async () => {
    const vault = await client.vaults.create({ name: uniqueName(), type: "evm" });
    const body = {
      vault_id: vault.id,
      type: "evm_transaction" as const,
      details: {
        type: "evm_transfer" as const,
        to: "0x1111111111111111111111111111111111111111",
        asset_identifier: {
          type: "evm" as const,
          details: { type: "native" as const, chain: "evm_base_mainnet" },
        },
        value: { type: "value" as const, value: "42" },
      },
    };
    const tx = await client.transactions.create(body);
    assert.equal(tx.state, "approved");
    await h.emulator.control.setFaults({
      rules: [{ kind: "after_commit_500", rate: 1, route: "createTransaction", count: 1 }],
    });
    try {
      const id = randomUUID();
      const retried = await client.transactions.create(body, { idempotencyId: id });
      const all = await h.emulator.control.listTransactions<Loose>({ vaultId: vault.id });
      assert.equal(all.length, 2, "the faulted attempt and its retry made one transaction");
      assert.equal(all.find((t) => t.managed_transaction_data.idempotence_id === id)?.id, retried.id);
      assert.equal((await h.emulator.control.getFaults()).fired[0], 1);
    } finally {
      await h.emulator.control.clearFaults();
    }
  });

  it("maps emulator errors to the client's error classes", async () => {
    await assert.rejects(client.vaults.create({ name: "Treasury ETH", type: "evm" }), CustodyConflictError);
    await assert.rejects(client.vaults.get(randomUUID()), CustodyNotFoundError);
    const viewer = new CustodyClient({
      baseUrl: h.emulator.baseUrl,
      accessToken: h.emulator.viewerAccessToken,
      requestsPerMinute: 0,
    });
    try {
      await assert.rejects(viewer.vaults.create({ name: uniqueName(), type: "evm" }), CustodyPermissionError);
    } finally {
      await viewer.close();
    }
  });
});
