// What `custody import` takes from an organization (the emulator's default seed plus vaults made here): the
// filters, what stacks manage left out, the names, the inputs that declare each vault as it is, and the vaults
// a program cannot declare, listed with their reason rather than dropped.
import * as assert from "node:assert/strict";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodyClient, type Vault } from "@pulumi-custody/sdk";
import { dynamicProgram, variableOf } from "../import/dynamic-program";
import type { ImportFilter } from "../import/filter";
import { type Selection, selectForImport } from "../import/select";
import { holdingsOf } from "../import/stacks";
import { importFileOf } from "../import-file/import-file";

const ACTIVE: ImportFilter = { states: ["active"] };

describe("custody import: the selection (emulator)", () => {
  let emulator: RunningEmulator;
  let client: CustodyClient;
  let all: Vault[];
  const made = new Map<string, Vault>();

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    client = new CustodyClient({
      baseUrl: emulator.baseUrl,
      accessToken: emulator.accessToken,
      requestsPerMinute: 0,
    });
    for (const [key, body] of Object.entries({
      opsEth: { name: "ops-eth", type: "evm" },
      opsBtc: { name: "ops-btc", type: "utxo", chain: "bitcoin_testnet" },
      opsDoge: { name: "ops-doge", type: "utxo", chain: "dogecoin_mainnet" },
      // Longer than the 256 bytes a provider name may have (the emulator allows 1,024).
      long: { name: `ops-${"x".repeat(300)}`, type: "evm" },
      archived: { name: "ops-archived", type: "solana" },
    } as const))
      made.set(key, await client.vaults.create(body));
    await client.vaults.archive(made.get("archived")!.id);
    await client.vaults.addresses.create(made.get("opsBtc")!.id, {
      name: "Deposits",
      address_type: "segwit",
    });
    all = [];
    for await (const vault of client.vaults.listAll({ vault_states: ["active", "archived"] }))
      all.push(vault);
  });
  after(async () => {
    await client.close();
    await emulator.close();
  });

  const select = (filter: ImportFilter, more: Partial<Parameters<typeof selectForImport>[1]> = {}) =>
    selectForImport(client, { filter, ...more });
  const names = (selection: Selection) => selection.vaults.map((p) => p.vault.name).sort();

  it("by default every active vault, and none archived", async () => {
    const selection = await select(ACTIVE);
    const active = all.filter((v) => v.state === "active");
    const declarable = active.filter((v) => v.id !== made.get("long")!.id);
    assert.deepEqual(names(selection), declarable.map((v) => v.name).sort());
    assert.equal(selection.outsideFilter, all.length - active.length);
  });

  it("a vault a program cannot declare is listed with the rule it breaks, not dropped", async () => {
    const selection = await select({ ...ACTIVE, namePrefix: "ops-" });
    assert.deepEqual(names(selection), ["ops-btc", "ops-doge", "ops-eth"]);
    assert.equal(selection.unrepresentable.length, 1);
    const [left] = selection.unrepresentable;
    assert.equal(left.id, made.get("long")!.id);
    assert.equal(left.reason, "name: must be at most 256 bytes in UTF-8 (got 304)");
  });

  it("filters by name pattern, type, chain and state", async () => {
    assert.deepEqual(names(await select({ ...ACTIVE, namePattern: /^ops-(eth|doge)$/u })), [
      "ops-doge",
      "ops-eth",
    ]);
    assert.deepEqual(names(await select({ ...ACTIVE, namePrefix: "ops-", types: ["utxo"] })), [
      "ops-btc",
      "ops-doge",
    ]);
    assert.deepEqual(names(await select({ ...ACTIVE, chains: ["dogecoin_mainnet"], namePrefix: "ops-" })), [
      "ops-doge",
    ]);
    const archived = await select({ states: ["archived"], namePrefix: "ops-" });
    assert.deepEqual(names(archived), ["ops-archived"]);
  });

  it("leaves out what the stacks manage, on either path, and never reuses a name the stack has", async () => {
    const eth = made.get("opsEth")!;
    const btc = made.get("opsBtc")!;
    const target = holdingsOf("dev", {
      resources: [
        { urn: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev", type: "pulumi:pulumi:Stack" },
        { urn: "urn:pulumi:dev::p::custody:index:Vault::ops-doge", type: "custom:x", id: "x" },
        {
          urn: "urn:pulumi:dev::p::custody:index:Vault::eth",
          type: "custody:index:Vault",
          id: eth.id.toUpperCase(),
        },
      ],
    });
    const other = holdingsOf("team/other/prod", {
      resources: [
        {
          urn: "urn:pulumi:prod::o::pulumi-nodejs:dynamic/custody:Vault::btc",
          type: "pulumi-nodejs:dynamic/custody:Vault",
          id: btc.id,
        },
      ],
    });
    const selection = await select(
      { ...ACTIVE, namePrefix: "ops-" },
      { managedBy: [target, other], takenNames: target.names },
    );
    assert.deepEqual(names(selection), ["ops-doge"]);
    assert.deepEqual(selection.managed.map((m) => `${m.displayName}: ${m.reason}`).sort(), [
      "ops-btc: stack team/other/prod manages it",
      "ops-eth: stack dev manages it",
    ]);
    // `ops-doge` is a name the stack uses (for another resource): the vault gets its id's prefix.
    const doge = made.get("opsDoge")!;
    assert.equal(selection.vaults[0].name, `ops-doge-${doge.id.replace(/-/g, "").slice(0, 8)}`);
  });

  it("each vault is declared as it is: a utxo vault with its chain, a safe or exchange vault adopted", async () => {
    const selection = await select(ACTIVE);
    const byName = new Map(selection.vaults.map((p) => [p.vault.name, p.inputs]));
    // Its vault groups as the API reports them: the emulator puts a new vault in its default group.
    const groups = made.get("opsBtc")!.vault_groups?.map((g) => g.id);
    assert.ok(groups && groups.length > 0, "the vault is in a group");
    assert.deepEqual(byName.get("ops-btc"), {
      name: "ops-btc",
      type: "utxo",
      chain: "bitcoin_testnet",
      vaultGroupIds: groups,
    });
    const safe = selection.vaults.find((p) => p.vault.type === "safe");
    const exchange = selection.vaults.find((p) => p.vault.type === "exchange");
    assert.equal(safe?.inputs.adoptExisting, true);
    assert.equal(exchange?.inputs.adoptExisting, true);
  });

  it("with addresses: each address of the vaults taken, named after its vault, in the import file as <vault>/<address>", async () => {
    const selection = await select({ ...ACTIVE, namePrefix: "ops-" }, { withAddresses: true });
    const btc = made.get("opsBtc")!;
    const addresses = selection.addresses.filter((a) => a.vault?.vault.id === btc.id);
    assert.deepEqual(addresses.map((a) => a.name).sort(), ["ops-btc-address-1", "ops-btc-deposits"]);
    const deposits = addresses.find((a) => a.address.name === "Deposits")!;
    assert.deepEqual(deposits.inputs, { vaultId: btc.id, name: "Deposits", addressType: "segwit" });
    const file = importFileOf(selection);
    assert.ok(
      file.resources.some(
        (r) =>
          r.type === "custody:index:VaultAddress" &&
          r.id === `${btc.id}/${deposits.address.id}` &&
          r.name === "ops-btc-deposits",
      ),
    );
    assert.ok(
      file.resources.some((r) => r.type === "custody:index:Vault" && r.id === btc.id && r.name === "ops-btc"),
    );
  });

  it("an address the stack does not manage, of a vault it does, is taken (by the vault's id)", async () => {
    const btc = made.get("opsBtc")!;
    const target = holdingsOf("dev", {
      resources: [
        { urn: "urn:pulumi:dev::p::custody:index:Vault::btc", type: "custody:index:Vault", id: btc.id },
      ],
    });
    const selection = await select(
      { ...ACTIVE, namePrefix: "ops-btc" },
      { withAddresses: true, managedBy: [target], provider: "dynamic" },
    );
    assert.deepEqual(selection.vaults, []);
    assert.deepEqual(selection.addresses.map((a) => [a.name, a.vault]).sort(), [
      ["ops-btc-address-1", undefined],
      ["ops-btc-deposits", undefined],
    ]);
    assert.match(
      dynamicProgram(selection, { protect: false }),
      new RegExp(
        `^new VaultAddress\\("ops-btc-deposits", \\{ vaultId: "${btc.id}", name: "Deposits", addressType: "segwit" \\}\\);$`,
        "m",
      ),
    );
  });

  it("the dynamic program adopts every vault by its exact name, and each address by name in its vault", async () => {
    const selection = await select(
      { ...ACTIVE, namePrefix: "ops-" },
      { withAddresses: true, provider: "dynamic" },
    );
    const program = dynamicProgram(selection, { protect: true });
    const groupsOf = (key: string) => JSON.stringify(made.get(key)!.vault_groups?.map((g) => g.id));
    assert.match(program, /^import \{ Vault, VaultAddress \} from "pulumi-custody";$/m);
    assert.ok(
      program.includes(
        `const opsBtc = new Vault("ops-btc", { name: "ops-btc", type: "utxo", chain: "bitcoin_testnet", vaultGroupIds: ${groupsOf("opsBtc")}, adoptExisting: true }, { protect: true });\n`,
      ),
      program,
    );
    assert.ok(
      program.includes(
        `new Vault("ops-eth", { name: "ops-eth", type: "evm", vaultGroupIds: ${groupsOf("opsEth")}, adoptExisting: true }, { protect: true });\n`,
      ),
      program,
    );
    assert.match(
      program,
      /^new VaultAddress\("ops-btc-deposits", \{ vaultId: opsBtc\.id, name: "Deposits", addressType: "segwit" \}, \{ protect: true \}\);$/m,
    );
  });

  it("variable names of the dynamic program: camelCase, distinct for distinct names, a reserved word gets _", () => {
    assert.equal(variableOf("btc-cold-storage"), "btcColdStorage");
    assert.equal(variableOf("delete"), "delete_");
    assert.notEqual(variableOf("ops-2"), variableOf("ops2"));
  });
});
