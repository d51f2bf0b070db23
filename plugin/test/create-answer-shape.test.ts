// A create that took effect never fails on the shape of its answer (provider plugin path). A scripted service
// answers `POST /vaults` (and `POST /vaults/{id}/addresses`) with 201 and a body that breaks the documented
// shape: the plugin's `create` returns the id and the outputs known from the inputs, one warning names the
// fields (a secret name masked), and `read` fills in the rest. Without an id, `create` fails saying that the
// call took effect and how to take the object over.
import * as assert from "node:assert/strict";
import { type LoopbackServer, type RecordedRequest, startLoopbackServer } from "@pulumi-custody/testing";
import { configure, disconnect, setNoticeSink } from "pulumi-custody/core";
import { SECRET_SIG, SIG_KEY, unwrap } from "../properties";
import * as plugin from "../provider";
import { VAULT_ADDRESS_TOKEN, VAULT_TOKEN } from "../tokens";

const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

const AT = "2025-02-13T15:27:16.186000Z";
const VAULT_ID = "3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
const GROUP_ID = "5b8f0a1c-2d3e-4f5a-9b6c-7d8e9f0a1b2c";
const UTXO_VAULT_ID = "4a2c3d5e-6f70-4b8c-9d0e-1f2a3b4c5d6e";
const ADDRESS_ID = "6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8e9f";
const TOKEN = "plugin-answer-shape-token-0123456789";

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

/** A service that knows no vault until one is created; reads by id then answer the live records. */
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

describe("plugin: a create that took effect, whose answer has the wrong shape", () => {
  let server: LoopbackServer;
  let notices: string[];
  let restoreSink: () => void;

  async function serve(answers: Parameters<typeof scriptedService>[0]): Promise<void> {
    server = await startLoopbackServer(scriptedService(answers));
    await disconnect();
    plugin.configure({
      baseUrl: server.url,
      accessToken: secret(TOKEN),
      requestsPerMinute: "0",
      maxRetries: "0",
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

  it("vault_groups not a list: the id and the known outputs, one warning; read fills in the rest", async () => {
    await serve({ vaultCreated: { ...evmVault, vault_groups: "Default" }, vaultLive: evmVault });
    const { id, outputs } = await plugin.create(VAULT_TOKEN, { name: "Shape Ops", type: "evm" });
    assert.equal(id, VAULT_ID);
    assert.equal(creates("/api/v1/vaults"), 1, "one create, never repeated");
    assert.equal(outputs.name, "Shape Ops");
    assert.equal(outputs.type, "evm");
    assert.equal(outputs.acquisition, "created");
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.match(notices[0]!, /^vault "Shape Ops" \(3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d\) was created/);
    assert.match(notices[0]!, /vault_groups/);
    assert.match(notices[0]!, /pulumi refresh/);
    assert.ok(!notices[0]!.includes(TOKEN));

    const read = await plugin.read(VAULT_TOKEN, id, outputs, { name: "Shape Ops", type: "evm" });
    assert.equal(read.id, VAULT_ID);
    const live = unwrap(read.outputs ?? {}).values;
    assert.equal(live.address, evmVault.address);
    assert.deepEqual(live.vaultGroupIds, [GROUP_ID]);
    assert.equal(live.state, "active");
  });

  it("a secret name stays out of the warning, and the outputs that carry it stay secret", async () => {
    await serve({ vaultCreated: { ...evmVault, vault_groups: { id: GROUP_ID } }, vaultLive: evmVault });
    const { id, outputs } = await plugin.create(VAULT_TOKEN, { name: secret("Shape Ops"), type: "evm" });
    assert.equal(id, VAULT_ID);
    assert.equal((outputs.name as Record<string, unknown>)[SIG_KEY], SECRET_SIG, "name stays secret");
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.ok(!notices[0]!.includes("Shape Ops"), notices[0]);
    assert.match(notices[0]!, /vault_groups/);
  });

  it("no id in the answer: fails saying the vault was created and how to take it over", async () => {
    const { id: _id, ...withoutId } = evmVault;
    await serve({ vaultCreated: withoutId, vaultLive: evmVault });
    await assert.rejects(plugin.create(VAULT_TOKEN, { name: "Shape Ops", type: "evm" }), (err: Error) => {
      assert.match(err.message, /vault "Shape Ops" was created/);
      assert.match(err.message, /adoptExisting: true/);
      assert.ok(!err.message.includes(TOKEN));
      return true;
    });
    assert.equal(creates("/api/v1/vaults"), 1, "one create, never repeated");
  });

  it("an address: the id and the known outputs, one warning; read fills in the rest", async () => {
    await serve({
      addressCreated: { ...utxoAddress, vault: "btc-ops", address: "bc1q" },
      addressLive: utxoAddress,
    });
    const { id, outputs } = await plugin.create(VAULT_ADDRESS_TOKEN, {
      vaultId: UTXO_VAULT_ID,
      name: "deposit-1",
    });
    assert.equal(id, ADDRESS_ID);
    assert.equal(creates(`/api/v1/vaults/${UTXO_VAULT_ID}/addresses`), 1);
    assert.equal(outputs.vaultId, UTXO_VAULT_ID);
    assert.equal(outputs.name, "deposit-1");
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.match(
      notices[0]!,
      /^vault address "deposit-1" \(6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8e9f\) was created/,
    );

    const read = await plugin.read(VAULT_ADDRESS_TOKEN, id, outputs, { vaultId: UTXO_VAULT_ID });
    assert.equal(read.id, ADDRESS_ID);
    assert.equal(unwrap(read.outputs ?? {}).values.address, utxoAddress.address.address);
  });
});
