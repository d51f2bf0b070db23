// `pulumi import` round-trips for every vault type and chain the sdk knows: a vault read with its id alone (what
// the engine sends on import) reports live inputs that `check` accepts and that `diff` finds equal to the state,
// and the schema declares every value those inputs can hold as an enum member (the generated code names
// `VaultType.Exchange`, which compiles, instead of indexing the enum by a value it lacks). Types the API cannot
// create (exchange) or this resource cannot create (safe) are accepted only for adoption.
import * as assert from "node:assert/strict";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodyClient, type Vault } from "@pulumi-custody/sdk";
import { BlackBoxKeyType, isModelledVault, UTXO_CHAIN_IDS, VAULT_TYPES } from "@pulumi-custody/sdk/schema";
import { configure, disconnect } from "pulumi-custody/core";
import * as plugin from "../provider";
import { packageSchema } from "../schema";
import { VAULT_TOKEN } from "../tokens";

type Types = Record<string, { enum?: { value: string; description?: string }[] }>;

describe("import round-trip: every vault type and chain (plugin methods, emulator)", () => {
  let emulator: RunningEmulator;
  let client: CustodyClient;
  const vaults: Vault[] = [];

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    client = new CustodyClient({
      baseUrl: emulator.baseUrl,
      accessToken: emulator.accessToken,
      requestsPerMinute: 0,
    });
    await disconnect();
    plugin.configure({
      baseUrl: emulator.baseUrl,
      accessToken: emulator.accessToken,
      requestsPerMinute: "0",
    });
    // The default seed has a vault of every type; add every UTXO chain and every black-box key type.
    for (const chain of UTXO_CHAIN_IDS)
      await client.vaults.create({ name: `rt ${chain}`, type: "utxo", chain });
    for (const keyType of BlackBoxKeyType.options)
      await client.vaults.create({ name: `rt ${keyType}`, type: "black_box", key_type: keyType });
    for await (const vault of client.vaults.listAll({ vault_states: ["active"] })) vaults.push(vault);
  });
  after(async () => {
    configure(undefined);
    await client.close();
    await emulator.close();
  });

  it("the organization holds a vault of every type, every UTXO chain and every black-box key type", () => {
    assert.deepEqual([...new Set(vaults.map((v) => v.type))].sort(), [...VAULT_TYPES].sort());
    const chains = vaults.flatMap((v) =>
      isModelledVault(v) && v.type === "utxo" ? [v.chain.unique_id] : [],
    );
    for (const chain of UTXO_CHAIN_IDS) assert.ok(chains.includes(chain), chain);
  });

  it("each vault read by import has live inputs that check accepts and diff finds unchanged", async () => {
    const problems: string[] = [];
    for (const vault of vaults) {
      const read = await plugin.read(VAULT_TOKEN, vault.id, {}, {});
      assert.equal(read.id, vault.id);
      const checked = await plugin.check(VAULT_TOKEN, {}, read.inputs ?? {});
      for (const f of checked.failures)
        problems.push(`${vault.type} "${vault.name}": ${f.property} ${f.reason}`);
      if (checked.failures.length > 0) continue;
      const diff = await plugin.diff(VAULT_TOKEN, vault.id, read.outputs ?? {}, checked.inputs);
      if (diff.changes) problems.push(`${vault.type} "${vault.name}": diff reports changes`);
    }
    assert.deepEqual(problems, []);
  });

  it("a safe or exchange vault read by import is declared with adoptExisting: true; others are not", async () => {
    for (const vault of vaults) {
      const { inputs } = await plugin.read(VAULT_TOKEN, vault.id, {}, {});
      const adoptOnly = vault.type === "safe" || vault.type === "exchange";
      assert.equal(inputs?.adoptExisting, adoptOnly ? true : undefined, `${vault.type} "${vault.name}"`);
    }
  });

  it("the schema's enums hold every vault type, UTXO chain and key type, and say which types are adopt-only", () => {
    const types = packageSchema().types as Types;
    const values = (token: string) => (types[token]?.enum ?? []).map((e) => e.value).sort();
    assert.deepEqual(values("custody:index:VaultType"), [...VAULT_TYPES].sort());
    assert.deepEqual(values("custody:index:VaultChain"), [...UTXO_CHAIN_IDS].sort());
    assert.deepEqual(values("custody:index:VaultKeyType"), [...BlackBoxKeyType.options].sort());
    for (const member of types["custody:index:VaultType"]?.enum ?? []) {
      const adoptOnly = member.value === "safe" || member.value === "exchange";
      assert.equal(/adoptExisting: true/.test(member.description ?? ""), adoptOnly, member.value);
    }
  });

  it("check refuses to create an exchange or safe vault, naming adoptExisting, and accepts adopting one", async () => {
    for (const type of ["exchange", "safe"]) {
      const refused = await plugin.check(VAULT_TOKEN, {}, { name: `new ${type}`, type });
      assert.equal(refused.failures.length, 1, type);
      assert.equal(refused.failures[0].property, "type");
      assert.match(refused.failures[0].reason, /cannot create|cannot be created/);
      assert.match(refused.failures[0].reason, /adoptExisting: true/);
      const adopting = await plugin.check(
        VAULT_TOKEN,
        {},
        { name: `new ${type}`, type, adoptExisting: true },
      );
      assert.deepEqual(adopting.failures, [], type);
    }
  });

  it("adopting an exchange vault that does not exist fails with what to do, and creates nothing", async () => {
    const before = vaults.length;
    await assert.rejects(
      plugin.create(VAULT_TOKEN, { name: "no such exchange account", type: "exchange", adoptExisting: true }),
      /No exchange vault named "no such exchange account" exists to adopt.*connect/s,
    );
    let after = 0;
    for await (const _ of client.vaults.listAll({ vault_states: ["active"] })) after++;
    assert.equal(after, before);
  });

  it("adopting an existing exchange vault by name takes it over", async () => {
    const exchange = vaults.find((v) => v.type === "exchange")!;
    const { id, outputs } = await plugin.create(VAULT_TOKEN, {
      name: exchange.name,
      type: "exchange",
      adoptExisting: true,
    });
    assert.equal(id, exchange.id);
    assert.equal(outputs.acquisition, "adopted");
  });
});
