// Each outcome of `diff` for both resources, called through the serialized shims: no change, update,
// replace (archive first), drift from a refresh, unknown values, and the notices a preview shows.
import * as assert from "node:assert/strict";
import { setNoticeSink, UNKNOWN } from "../core/index";
import { vaultAddressProvider, vaultProvider } from "../shims/index";

const ID = "44444444-4444-4444-8444-444444444444";
const GROUP_A = "11111111-1111-4111-8111-111111111111";
const GROUP_B = "22222222-2222-4222-8222-222222222222";
const GROUP_C = "55555555-5555-4555-8555-555555555555";

/** Outputs of a vault as `create` stores them. */
function vaultState(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Treasury",
    type: "utxo",
    state: "active",
    chain: "bitcoin_mainnet",
    vaultGroupIds: [GROUP_A],
    pendingVaultGroupIds: [],
    pendingRemovalVaultGroupIds: [],
    adoptExisting: false,
    acquisition: "created",
    createdAt: "2026-01-01T00:00:00.000000Z",
    modifiedAt: "2026-01-01T00:00:00.000000Z",
    __provider: "old provider text",
    ...overrides,
  };
}

function vaultInputs(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Treasury",
    type: "utxo",
    chain: "bitcoin_mainnet",
    __provider: "new provider text",
    ...overrides,
  };
}

describe("provider diff", () => {
  let notices: string[];
  let restore: () => void;
  beforeEach(() => {
    notices = [];
    restore = setNoticeSink((m) => {
      notices.push(m);
    });
  });
  afterEach(() => restore());

  async function diffVault(olds: Record<string, unknown>, news: Record<string, unknown>) {
    assert.ok(vaultProvider.diff);
    return vaultProvider.diff(ID, olds, news);
  }

  describe("Vault", () => {
    it("no change when only __provider differs", async () => {
      assert.deepEqual(await diffVault(vaultState(), vaultInputs()), { changes: false });
      assert.deepEqual(notices, []);
    });

    it("a rename is an update, not a replace", async () => {
      assert.deepEqual(await diffVault(vaultState(), vaultInputs({ name: "Reserve" })), { changes: true });
    });

    it("an out-of-band rename seen by refresh is an update back to the declared name", async () => {
      assert.deepEqual(await diffVault(vaultState({ name: "Renamed by hand" }), vaultInputs()), {
        changes: true,
      });
    });

    for (const [key, value] of [
      ["type", "evm"],
      ["chain", "bitcoin_testnet"],
      ["keyType", "ecdsa_secp256k1"],
      ["endUserId", "66666666-6666-4666-8666-666666666666"],
    ] as const) {
      it(`a change of ${key} replaces, archiving the old vault first, and says so`, async () => {
        const result = await diffVault(vaultState(), vaultInputs({ [key]: value }));
        assert.deepEqual(result, { changes: true, replaces: [key], deleteBeforeReplace: true });
        assert.equal(notices.length, 1);
        assert.match(notices[0] ?? "", /ARCHIVED, not deleted/);
        assert.match(notices[0] ?? "", new RegExp(`${key} `));
        assert.match(notices[0] ?? "", /Treasury/);
      });
    }

    it("an archived vault (drift seen by refresh) is an update that restores it, with a notice", async () => {
      assert.deepEqual(await diffVault(vaultState({ state: "archived" }), vaultInputs()), { changes: true });
      assert.match(notices[0] ?? "", /archived.*restores it/);
    });

    it("adoptExisting alone changes nothing", async () => {
      assert.deepEqual(await diffVault(vaultState(), vaultInputs({ adoptExisting: true })), {
        changes: false,
      });
      assert.deepEqual(await diffVault(vaultState({ adoptExisting: true }), vaultInputs()), {
        changes: false,
      });
    });

    it("vault groups: same set in another order is no change; a different set is an update", async () => {
      const olds = vaultState({ vaultGroupIds: [GROUP_A, GROUP_B] });
      assert.deepEqual(await diffVault(olds, vaultInputs({ vaultGroupIds: [GROUP_B, GROUP_A] })), {
        changes: false,
      });
      assert.deepEqual(await diffVault(olds, vaultInputs({ vaultGroupIds: [GROUP_A] })), { changes: true });
      assert.deepEqual(await diffVault(olds, vaultInputs({ vaultGroupIds: [GROUP_A, GROUP_B, GROUP_C] })), {
        changes: true,
      });
    });

    it("vault groups left unset are left alone", async () => {
      assert.deepEqual(await diffVault(vaultState({ vaultGroupIds: [GROUP_B] }), vaultInputs()), {
        changes: false,
      });
    });

    it("a pending proposal counts as done: no change while it waits for approval", async () => {
      const olds = vaultState({
        vaultGroupIds: [GROUP_A, GROUP_B],
        pendingVaultGroupIds: [GROUP_C],
        pendingRemovalVaultGroupIds: [GROUP_B],
      });
      assert.deepEqual(await diffVault(olds, vaultInputs({ vaultGroupIds: [GROUP_A, GROUP_C] })), {
        changes: false,
      });
      // Another target than the pending one is a change.
      assert.deepEqual(await diffVault(olds, vaultInputs({ vaultGroupIds: [GROUP_A, GROUP_B, GROUP_C] })), {
        changes: true,
      });
    });

    it("unknown values count as changes; an unknown replace-input is a replace", async () => {
      assert.deepEqual(await diffVault(vaultState(), vaultInputs({ name: UNKNOWN })), { changes: true });
      assert.deepEqual(await diffVault(vaultState(), vaultInputs({ vaultGroupIds: [UNKNOWN] })), {
        changes: true,
      });
      assert.deepEqual(await diffVault(vaultState(), vaultInputs({ vaultGroupIds: UNKNOWN })), {
        changes: true,
      });
      assert.deepEqual(await diffVault(vaultState(), vaultInputs({ chain: UNKNOWN })), {
        changes: true,
        replaces: ["chain"],
        deleteBeforeReplace: true,
      });
    });
  });

  describe("VaultAddress", () => {
    const olds = {
      vaultId: ID,
      name: "Deposits",
      address: "bc1qexampleexampleexample",
      addressType: "segwit",
      chain: "bitcoin_mainnet",
      __provider: "old",
    };
    async function diffAddress(news: Record<string, unknown>) {
      assert.ok(vaultAddressProvider.diff);
      return vaultAddressProvider.diff("address-id", olds, { __provider: "new", ...news });
    }

    it("no change for the same inputs, or with name and addressType left to the API", async () => {
      assert.deepEqual(await diffAddress({ vaultId: ID, name: "Deposits", addressType: "segwit" }), {
        changes: false,
      });
      assert.deepEqual(await diffAddress({ vaultId: ID }), { changes: false });
    });

    it("a rename is an update", async () => {
      assert.deepEqual(await diffAddress({ vaultId: ID, name: "Payouts" }), { changes: true });
    });

    it("a new vaultId or addressType replaces, with a notice that the old address stays", async () => {
      assert.deepEqual(await diffAddress({ vaultId: GROUP_A, name: "Deposits" }), {
        changes: true,
        replaces: ["vaultId"],
      });
      assert.deepEqual(await diffAddress({ vaultId: ID, addressType: "taproot" }), {
        changes: true,
        replaces: ["addressType"],
      });
      assert.equal(notices.length, 2);
      assert.match(notices[0] ?? "", /cannot delete addresses/);
    });

    it("unknown values count as changes", async () => {
      assert.deepEqual(await diffAddress({ vaultId: UNKNOWN }), { changes: true, replaces: ["vaultId"] });
      assert.deepEqual(await diffAddress({ vaultId: ID, name: UNKNOWN }), { changes: true });
    });
  });
});
