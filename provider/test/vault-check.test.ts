// `check` of both resources, through the serialized shims: every bad input is reported as a failure that
// names its property, unknown preview values are skipped, and good inputs come back normalized.
import * as assert from "node:assert/strict";
import { UNKNOWN } from "../core/index";
import { vaultAddressProvider, vaultProvider } from "../shims/index";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

const GROUP_A = "11111111-1111-4111-8111-111111111111";
const GROUP_B = "22222222-2222-4222-8222-222222222222";
const END_USER = "33333333-3333-4333-8333-333333333333";
const PROVIDER_TEXT = "exports.handler = …";

type Failure = { property: string; reason: string };

async function checkVault(news: Record<string, unknown>) {
  assert.ok(vaultProvider.check);
  return vaultProvider.check({}, { ...news, __provider: PROVIDER_TEXT });
}

async function checkAddress(news: Record<string, unknown>) {
  assert.ok(vaultAddressProvider.check);
  return vaultAddressProvider.check({}, { ...news, __provider: PROVIDER_TEXT });
}

function failuresOf(result: { failures?: Failure[] }): Failure[] {
  return result.failures ?? [];
}

describe("provider check", () => {
  // Valid inputs are followed by one check of the settings, so the runtime talks to an emulator.
  let bed: ProviderTestbed;
  before(async () => {
    bed = await startProviderTestbed();
  });
  after(async () => bed.close());
  describe("Vault: each bad input is a failure naming its property", () => {
    const cases: Array<{ title: string; inputs: Record<string, unknown>; property: string; reason: RegExp }> =
      [
        { title: "missing name", inputs: { type: "evm" }, property: "name", reason: /required/ },
        {
          title: "name that is a number",
          inputs: { name: 42, type: "evm" },
          property: "name",
          reason: /string/,
        },
        { title: "empty name", inputs: { name: "", type: "evm" }, property: "name", reason: /empty/ },
        {
          title: "whitespace-only name",
          inputs: { name: "   ", type: "evm" },
          property: "name",
          reason: /empty/,
        },
        {
          title: "name with surrounding whitespace",
          inputs: { name: " Treasury ", type: "evm" },
          property: "name",
          reason: /whitespace/,
        },
        {
          // A value the engine cannot print as it is: no property, the reason names it (hostile-inputs.test.ts).
          title: "name with a newline",
          inputs: { name: "Trea\nsury", type: "evm" },
          property: "",
          reason: /^name contains U\+000A LINE FEED .*control characters/,
        },
        { title: "missing type", inputs: { name: "v" }, property: "type", reason: /required/ },
        { title: "unknown type", inputs: { name: "v", type: "bitcoin" }, property: "type", reason: /one of/ },
        {
          title: "exchange type",
          inputs: { name: "v", type: "exchange" },
          property: "type",
          reason: /cannot be created/,
        },
        {
          title: "type that is a number",
          inputs: { name: "v", type: 7 },
          property: "type",
          reason: /string/,
        },
        {
          title: "utxo vault without chain",
          inputs: { name: "v", type: "utxo" },
          property: "chain",
          reason: /required for "utxo"/,
        },
        {
          title: "chain on an evm vault",
          inputs: { name: "v", type: "evm", chain: "bitcoin_mainnet" },
          property: "chain",
          reason: /only for "utxo"/,
        },
        {
          title: "unknown utxo chain",
          inputs: { name: "v", type: "utxo", chain: "litecoin_mainnet" },
          property: "chain",
          reason: /one of/,
        },
        {
          title: "black_box vault without keyType",
          inputs: { name: "v", type: "black_box" },
          property: "keyType",
          reason: /required for "black_box"/,
        },
        {
          title: "keyType on a solana vault",
          inputs: { name: "v", type: "solana", keyType: "eddsa_ed25519" },
          property: "keyType",
          reason: /only for "black_box"/,
        },
        {
          title: "unknown keyType",
          inputs: { name: "v", type: "black_box", keyType: "rsa_4096" },
          property: "keyType",
          reason: /one of/,
        },
        {
          title: "vaultGroupIds that is a string",
          inputs: { name: "v", type: "evm", vaultGroupIds: GROUP_A },
          property: "vaultGroupIds",
          reason: /list/,
        },
        {
          title: "vaultGroupIds with a bad UUID",
          inputs: { name: "v", type: "evm", vaultGroupIds: [GROUP_A, "not-a-uuid"] },
          property: "vaultGroupIds",
          reason: /item 1: must be a UUID/,
        },
        {
          title: "vaultGroupIds with a number",
          inputs: { name: "v", type: "evm", vaultGroupIds: [12] },
          property: "vaultGroupIds",
          reason: /item 0: must be a UUID string/,
        },
        {
          title: "duplicate vault group ids (any case)",
          inputs: { name: "v", type: "evm", vaultGroupIds: [GROUP_A, GROUP_A.toUpperCase()] },
          property: "vaultGroupIds",
          reason: /twice/,
        },
        {
          title: "empty vaultGroupIds",
          inputs: { name: "v", type: "evm", vaultGroupIds: [] },
          property: "vaultGroupIds",
          reason: /must not be empty/,
        },
        {
          title: "endUserId that is not a UUID",
          inputs: { name: "v", type: "evm", endUserId: "alice" },
          property: "endUserId",
          reason: /UUID/,
        },
        {
          title: "adoptExisting as a string",
          inputs: { name: "v", type: "evm", adoptExisting: "yes" },
          property: "adoptExisting",
          reason: /true or false/,
        },
        {
          title: "an input the resource does not have",
          inputs: { name: "v", type: "evm", vaultGroupId: GROUP_A },
          property: "vaultGroupId",
          reason: /not an input/,
        },
        {
          title: "a safe vault without adoptExisting",
          inputs: { name: "v", type: "safe" },
          property: "type",
          reason: /adoptExisting: true/,
        },
      ];

    for (const c of cases) {
      it(c.title, async () => {
        const failures = failuresOf(await checkVault(c.inputs));
        const match = failures.find((f) => f.property === c.property);
        assert.ok(match, `expected a failure on ${c.property}, got ${JSON.stringify(failures)}`);
        assert.match(match.reason, c.reason);
      });
    }

    it("covers at least twenty distinct bad inputs", () => {
      assert.ok(cases.length >= 20, `only ${cases.length} cases`);
    });

    it("reports every problem of one declaration at once", async () => {
      const failures = failuresOf(
        await checkVault({ name: "", type: "utxo", endUserId: "x", adoptExisting: 1 }),
      );
      assert.deepEqual(failures.map((f) => f.property).sort(), [
        "adoptExisting",
        "chain",
        "endUserId",
        "name",
      ]);
    });
  });

  describe("Vault: valid inputs", () => {
    it("come back normalized, with __provider kept", async () => {
      const result = await checkVault({
        name: "Treasury",
        type: "utxo",
        chain: "bitcoin_mainnet",
        vaultGroupIds: [GROUP_A.toUpperCase(), GROUP_B],
        endUserId: END_USER.toUpperCase(),
        adoptExisting: false,
      });
      assert.deepEqual(failuresOf(result), []);
      assert.deepEqual(result.inputs, {
        name: "Treasury",
        type: "utxo",
        chain: "bitcoin_mainnet",
        vaultGroupIds: [GROUP_A, GROUP_B],
        endUserId: END_USER,
        adoptExisting: false,
        __provider: PROVIDER_TEXT,
      });
    });

    it("accept a black_box vault with its key type and a safe vault to adopt", async () => {
      assert.deepEqual(
        failuresOf(await checkVault({ name: "bb", type: "black_box", keyType: "ecdsa_stark" })),
        [],
      );
      assert.deepEqual(failuresOf(await checkVault({ name: "s", type: "safe", adoptExisting: true })), []);
    });
  });

  describe("Vault: values unknown during preview are skipped", () => {
    it("an unknown name, type or group list passes and stays unknown", async () => {
      const result = await checkVault({
        name: UNKNOWN,
        type: UNKNOWN,
        chain: "bitcoin_mainnet",
        vaultGroupIds: UNKNOWN,
      });
      assert.deepEqual(failuresOf(result), []);
      assert.equal(result.inputs?.name, UNKNOWN);
      assert.equal(result.inputs?.type, UNKNOWN);
      assert.equal(result.inputs?.vaultGroupIds, UNKNOWN);
    });

    it("an unknown item of vaultGroupIds is skipped, the known ones still checked", async () => {
      const ok = await checkVault({ name: "v", type: "evm", vaultGroupIds: [UNKNOWN, GROUP_A] });
      assert.deepEqual(failuresOf(ok), []);
      assert.deepEqual(ok.inputs?.vaultGroupIds, [UNKNOWN, GROUP_A]);
      const bad = await checkVault({ name: "v", type: "evm", vaultGroupIds: [UNKNOWN, "nope"] });
      assert.equal(failuresOf(bad)[0]?.property, "vaultGroupIds");
    });

    it("an unknown adoptExisting does not trip the safe rule; a known type still requires a utxo chain", async () => {
      assert.deepEqual(failuresOf(await checkVault({ name: "s", type: "safe", adoptExisting: UNKNOWN })), []);
      const failures = failuresOf(await checkVault({ name: UNKNOWN, type: "utxo" }));
      assert.deepEqual(
        failures.map((f) => f.property),
        ["chain"],
      );
    });
  });

  describe("VaultAddress", () => {
    const cases: Array<{ title: string; inputs: Record<string, unknown>; property: string; reason: RegExp }> =
      [
        { title: "missing vaultId", inputs: { name: "a" }, property: "vaultId", reason: /required/ },
        { title: "vaultId not a UUID", inputs: { vaultId: "v1" }, property: "vaultId", reason: /UUID/ },
        { title: "empty name", inputs: { vaultId: GROUP_A, name: "" }, property: "name", reason: /empty/ },
        {
          title: "p2sh address type",
          inputs: { vaultId: GROUP_A, addressType: "p2sh" },
          property: "addressType",
          reason: /cannot be created/,
        },
        {
          title: "unknown address type",
          inputs: { vaultId: GROUP_A, addressType: "bech32" },
          property: "addressType",
          reason: /one of/,
        },
        {
          title: "an input the resource does not have",
          inputs: { vaultId: GROUP_A, label: "x" },
          property: "label",
          reason: /not an input/,
        },
      ];
    for (const c of cases) {
      it(c.title, async () => {
        const failures = failuresOf(await checkAddress(c.inputs));
        const match = failures.find((f) => f.property === c.property);
        assert.ok(match, `expected a failure on ${c.property}, got ${JSON.stringify(failures)}`);
        assert.match(match.reason, c.reason);
      });
    }

    it("valid inputs come back normalized; an unknown vaultId is skipped", async () => {
      const ok = await checkAddress({
        vaultId: GROUP_A.toUpperCase(),
        name: "Deposits",
        addressType: "segwit",
      });
      assert.deepEqual(failuresOf(ok), []);
      assert.deepEqual(ok.inputs, {
        vaultId: GROUP_A,
        name: "Deposits",
        addressType: "segwit",
        __provider: PROVIDER_TEXT,
      });
      const preview = await checkAddress({ vaultId: UNKNOWN });
      assert.deepEqual(failuresOf(preview), []);
      assert.equal(preview.inputs?.vaultId, UNKNOWN);
    });
  });
});
