// A create that took effect never fails on the shape of its answer (dynamic provider path, through the
// serialized shims). A scripted service answers `POST /vaults` (and `POST /vaults/{id}/addresses`) with 201 and
// a body that breaks the documented shape: the resource is recorded from its id and the declared inputs, one
// warning names the fields, and the next read fills in the rest. Without an id, the create fails saying that it
// took effect and how to take the object over.
import * as assert from "node:assert/strict";
import { type LoopbackServer, type RecordedRequest, startLoopbackServer } from "@pulumi-custody/testing";
import { beginOperation } from "../core/batch/operation";
import { configure, disconnect, setNoticeSink } from "../core/index";
import { vaultAddressProvider, vaultProvider } from "../shims/index";

type Outs = Record<string, unknown>;

const AT = "2025-02-13T15:27:16.186000Z";
const VAULT_ID = "3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
const GROUP_ID = "5b8f0a1c-2d3e-4f5a-9b6c-7d8e9f0a1b2c";
const UTXO_VAULT_ID = "4a2c3d5e-6f70-4b8c-9d0e-1f2a3b4c5d6e";
const ADDRESS_ID = "6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8e9f";
const TOKEN = "answer-shape-test-token-0123456789";

/** An evm vault as the service sends it (a copy of the sdk tests' `evmVault`, which no package exports). */
const evmVault = {
  id: VAULT_ID,
  created_at: AT,
  modified_at: AT,
  name: "Shape Ops",
  created_by: {
    id: "2b3c4d5e-6f70-4819-8a1b-2c3d4e5f6a7b",
    user_type: "api_user",
    name: "ci-bot",
    state: "active",
    role: "trader",
  },
  vault_group: {
    id: GROUP_ID,
    name: "Default",
    vault_count: 3,
    can_current_user_create_or_edit_vaults: true,
  },
  vault_groups: [
    { id: GROUP_ID, name: "Default", vault_count: 3, can_current_user_create_or_edit_vaults: true },
  ],
  state: "active",
  are_all_chains_disabled: false,
  derivation_path: "m/44/60/1/0/0",
  public_key_compressed: "A5p0Yp3+U0h3VbX7i2dPqS4yGz1f1oA3Tq7cQm9nR2sD",
  keyset: { id: "d3e4f5a6-b7c8-4d9e-8f0a-1b2c3d4e5f6a", name: "default", scope: "organization" },
  type: "evm",
  address: "0xB519a7f0e0C5e2b5C1d8b1B4b7E6b2F0c3D4e5F6",
};

/** A UTXO vault address (a copy of the sdk tests' `utxoVaultAddress`). */
const utxoAddress = {
  id: ADDRESS_ID,
  created_at: AT,
  modified_at: AT,
  vault: { id: UTXO_VAULT_ID, name: "btc-ops", state: "active", type: "utxo" },
  name: "deposit-1",
  public_key_compressed: "AkPwJx8xqV3ZbYdC0sQFv7Qm4fJ1b0Y8wKzR1rH2s3Tt",
  derivation_path: "m/84/0/0/0/3",
  type: "utxo",
  address: {
    type: "utxo",
    address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    address_type: "segwit",
    chain: { chain_type: "utxo", unique_id: "bitcoin_mainnet" },
  },
};

/**
 * A service that knows no vault until one is created: `POST /vaults` answers `vaultCreated` (201), and from then
 * on reads by id answer `vaultLive`, the vault as the service really has it. Addresses likewise.
 */
function scriptedService(answers: {
  vaultCreated?: unknown;
  vaultLive?: unknown;
  addressCreated?: unknown;
  addressLive?: unknown;
}) {
  let vaultExists = false;
  let addressExists = false;
  return (req: RecordedRequest) => {
    if (req.method === "GET" && req.path === "/api/v1/vaults") {
      const ids = req.query.vault_ids ?? [];
      const vaults = vaultExists && ids.includes(VAULT_ID) ? [answers.vaultLive] : [];
      return { body: { total: vaults.length, page: 1, size: 100, vaults } };
    }
    if (req.method === "POST" && req.path === "/api/v1/vaults") {
      vaultExists = true;
      return { status: 201, body: answers.vaultCreated };
    }
    if (req.method === "GET" && req.path === `/api/v1/vaults/${UTXO_VAULT_ID}/addresses`) {
      const addresses = addressExists && !req.query.search ? [answers.addressLive] : [];
      return { body: { total: addresses.length, page: 1, size: 100, addresses } };
    }
    if (req.method === "POST" && req.path === `/api/v1/vaults/${UTXO_VAULT_ID}/addresses`) {
      addressExists = true;
      return { status: 201, body: answers.addressCreated };
    }
    return { status: 599, body: { title: "Not scripted", detail: `${req.method} ${req.path}` } };
  };
}

describe("a create that took effect, whose answer has the wrong shape (dynamic provider)", () => {
  let server: LoopbackServer;
  let notices: string[];
  let restoreSink: () => void;

  async function serve(answers: Parameters<typeof scriptedService>[0]): Promise<void> {
    server = await startLoopbackServer(scriptedService(answers));
    await disconnect();
    beginOperation();
    configure({
      "custody:baseUrl": server.url,
      "custody:accessToken": TOKEN,
      "custody:requestsPerMinute": "0",
      "custody:maxRetries": "0",
    });
  }

  beforeEach(() => {
    notices = [];
    restoreSink = setNoticeSink((message) => {
      notices.push(message);
    });
  });
  afterEach(async () => {
    restoreSink();
    await disconnect();
    configure(undefined);
    await server?.close();
  });

  function creates(path: string): number {
    return server.requests.filter((r) => r.method === "POST" && r.path === path).length;
  }

  for (const [shape, vaultGroups] of [
    ["a string", "Default"],
    ["an object", { id: GROUP_ID, name: "Default" }],
  ] as const) {
    it(`vault_groups ${shape}: the vault is recorded from its id and the inputs, with one warning; a read fills in the rest`, async () => {
      await serve({ vaultCreated: { ...evmVault, vault_groups: vaultGroups }, vaultLive: evmVault });
      const { id, outs } = await vaultProvider.create({ name: "Shape Ops", type: "evm", __provider: "p" });
      assert.equal(id, VAULT_ID);
      assert.equal(creates("/api/v1/vaults"), 1, "one create, never repeated");
      const recorded = outs as Outs;
      assert.equal(recorded.name, "Shape Ops");
      assert.equal(recorded.type, "evm");
      assert.equal(recorded.acquisition, "created");
      assert.equal(recorded.adoptExisting, false);

      assert.equal(notices.length, 1, notices.join("\n"));
      const [notice] = notices;
      assert.match(notice!, /^vault "Shape Ops" \(3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d\) was created/);
      assert.match(notice!, /vault_groups/);
      assert.match(notice!, /pulumi refresh/);
      assert.ok(!notice!.includes("\n"), "one line");
      assert.ok(!notice!.includes(TOKEN));

      beginOperation();
      assert.ok(vaultProvider.read);
      const read = await vaultProvider.read(id, recorded);
      assert.equal(read.id, VAULT_ID);
      const live = read.props as Outs;
      assert.equal(live.address, evmVault.address);
      assert.deepEqual(live.vaultGroupIds, [GROUP_ID]);
      assert.equal(live.state, "active");
      assert.equal(live.acquisition, "created");
    });
  }

  it("the warning escapes control characters in the fields it names", async () => {
    await serve({
      vaultCreated: { ...evmVault, smart_contract_states: { "evil\u001b[31m\r\nname": 5 } },
      vaultLive: evmVault,
    });
    const { id } = await vaultProvider.create({ name: "Shape Ops", type: "evm", __provider: "p" });
    assert.equal(id, VAULT_ID);
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.ok(!/\p{Cc}/u.test(notices[0]!), JSON.stringify(notices[0]));
    assert.ok(notices[0]!.includes("smart_contract_states.evil\\x1b[31m\\r\\nname"), notices[0]);
  });

  it("declared groups the create could not confirm: recorded as declared, so the next up proposes what is missing", async () => {
    const other = "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b";
    await serve({ vaultCreated: { ...evmVault, vault_groups: "Default" }, vaultLive: evmVault });
    const { outs } = await vaultProvider.create({
      name: "Shape Ops",
      type: "evm",
      vaultGroupIds: [GROUP_ID, other],
      __provider: "p",
    });
    const recorded = outs as Outs;
    assert.deepEqual(recorded.declaredVaultGroupIds, [GROUP_ID, other]);
    assert.ok(vaultProvider.diff);
    const diff = await vaultProvider.diff(VAULT_ID, recorded, {
      name: "Shape Ops",
      type: "evm",
      vaultGroupIds: [GROUP_ID, other],
    });
    assert.equal(diff.changes, true, "the membership is not known to match: the next up updates");
  });

  it("no id in the answer: fails saying the vault was created and how to take it over", async () => {
    const { id: _id, ...withoutId } = evmVault;
    await serve({ vaultCreated: withoutId, vaultLive: evmVault });
    await assert.rejects(
      vaultProvider.create({ name: "Shape Ops", type: "evm", __provider: "p" }),
      (err: Error) => {
        assert.match(err.message, /vault "Shape Ops" was created/);
        assert.match(err.message, /\bid\b/);
        assert.match(err.message, /adoptExisting: true/);
        assert.ok(!err.message.includes(TOKEN));
        return true;
      },
    );
    assert.equal(creates("/api/v1/vaults"), 1, "one create, never repeated");
  });

  it("an address: recorded from its id and the inputs, with one warning; a read fills in the rest", async () => {
    await serve({
      addressCreated: { ...utxoAddress, vault: "btc-ops", address: "bc1q" },
      addressLive: utxoAddress,
    });
    const path = `/api/v1/vaults/${UTXO_VAULT_ID}/addresses`;
    const { id, outs } = await vaultAddressProvider.create({
      vaultId: UTXO_VAULT_ID,
      name: "deposit-1",
      addressType: "segwit",
      __provider: "p",
    });
    assert.equal(id, ADDRESS_ID);
    assert.equal(creates(path), 1);
    const recorded = outs as Outs;
    assert.equal(recorded.vaultId, UTXO_VAULT_ID);
    assert.equal(recorded.name, "deposit-1");
    assert.equal(recorded.addressType, "segwit");
    assert.equal(recorded.acquisition, "created");
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.match(
      notices[0]!,
      /^vault address "deposit-1" \(6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8e9f\) was created/,
    );
    assert.match(notices[0]!, /\bvault\b.*\baddress\b/);

    beginOperation();
    assert.ok(vaultAddressProvider.read);
    const read = await vaultAddressProvider.read(id, recorded);
    assert.equal(read.id, ADDRESS_ID);
    assert.equal((read.props as Outs).address, utxoAddress.address.address);
    assert.equal((read.props as Outs).chain, "bitcoin_mainnet");
  });

  it("an address without an id in the answer: fails saying it was created and how to take it over", async () => {
    const { id: _id, ...withoutId } = utxoAddress;
    await serve({ addressCreated: withoutId, addressLive: utxoAddress });
    await assert.rejects(
      vaultAddressProvider.create({ vaultId: UTXO_VAULT_ID, name: "deposit-1", __provider: "p" }),
      (err: Error) => {
        assert.match(err.message, /address "deposit-1" was created in vault 4a2c3d5e/);
        assert.match(err.message, /pulumi up/);
        return true;
      },
    );
    assert.equal(creates(`/api/v1/vaults/${UTXO_VAULT_ID}/addresses`), 1);
  });
});
