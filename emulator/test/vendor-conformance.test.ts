// The emulator against the custody service's published OpenAPI 0.2.0 document (a fixture we did not write):
// every one of the 23 endpoints is driven through its success and its documented error statuses, filters,
// sort orders, paging edges, transaction progression and the large-data seed, and every JSON body is
// validated against the document's schema for that path, method and status, including "no property the
// document does not define".
import * as assert from "node:assert/strict";
import { endpoints } from "@pulumi-custody/sdk/schema";
import {
  type ApiResponse,
  checkBody,
  documentedStatuses,
  type Harness,
  keepNetworkOnThisMachine,
  type Loose,
  responseSchemaRef,
  startHarness,
} from "@pulumi-custody/testing";
import { startWebhookReceiver } from "./emulator-webhook-receiver";

// Some targets below are off this machine: even if their refusal broke, nothing may be sent there.
keepNetworkOnThisMachine();

/** `/api/v1/vaults/3f…` → the document's `/api/v1/vaults/{id}`. */
function templateOf(method: string, path: string): string {
  const bare = path.split("?")[0]!;
  for (const spec of Object.values(endpoints)) {
    if (spec.method !== method) continue;
    const pattern = new RegExp(`^${spec.path.replace(/\{\w+\}/g, "[^/]+")}$`);
    if (pattern.test(bare)) return spec.path;
  }
  throw new Error(`no endpoint for ${method} ${bare}`);
}

describe("emulator: conformance to the published OpenAPI 0.2.0 document", function () {
  this.timeout(120_000);
  let h: Harness;
  /** Every response validated: "METHOD template status". */
  const validated = new Map<string, number>();
  const failures: string[] = [];
  let ids: Record<string, string>;

  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.close();
    const statuses = [...validated.keys()];
    console.log(
      `      conformance: ${statuses.length} endpoint×status pairs, ${[...validated.values()].reduce((a, b) => a + b, 0)} responses validated, ${failures.length} failures`,
    );
  });

  /** Validates one response against the document; records it. */
  function conform(method: string, path: string, res: ApiResponse, expectedStatus?: number): void {
    if (expectedStatus !== undefined)
      assert.equal(res.status, expectedStatus, `${method} ${path}: ${res.text.slice(0, 300)}`);
    const template = templateOf(method, path);
    const documented = documentedStatuses(template, method);
    assert.ok(
      documented.includes(res.status),
      `${method} ${template} answered ${res.status}, not documented (${documented.join(", ")})`,
    );
    const key = `${method} ${template} ${res.status}`;
    validated.set(key, (validated.get(key) ?? 0) + 1);
    const ref = responseSchemaRef(template, method, res.status);
    if (!ref) {
      assert.ok(
        res.status === 204 ||
          res.text === "" ||
          res.headers["content-type"]?.toString().startsWith("text/csv"),
        `${key}: no JSON schema but a body`,
      );
      return;
    }
    const problems = checkBody(ref, res.body);
    if (problems.length > 0) {
      const text = `${key}: ${problems
        .slice(0, 5)
        .map((p) => `${p.at}: ${p.message}`)
        .join("; ")}`;
      failures.push(text);
      assert.fail(text);
    }
  }

  const get = async (path: string, status = 200, token?: string) => {
    const res = await h.api("GET", path, token !== undefined ? { token } : {});
    conform("GET", path, res, status);
    return res.body as Loose;
  };
  const send = async (method: string, path: string, json: unknown, status: number, token?: string) => {
    const res = await h.api(method, path, { json, ...(token !== undefined ? { token } : {}) });
    conform(method, path, res, status);
    return res.body as Loose;
  };

  it("sets up: vaults of several types, addresses, a transaction", async () => {
    const evm = await send("POST", "/api/v1/vaults", { name: "Conformance EVM", type: "evm" }, 201);
    const utxo = await send(
      "POST",
      "/api/v1/vaults",
      { name: "Conformance BTC", type: "utxo", chain: "bitcoin_mainnet" },
      201,
    );
    const sol = await send("POST", "/api/v1/vaults", { name: "Conformance SOL", type: "solana" }, 201);
    const cosmos = await send("POST", "/api/v1/vaults", { name: "Conformance ATOM", type: "cosmos" }, 201);
    const ton = await send("POST", "/api/v1/vaults", { name: "Conformance TON", type: "ton" }, 201);
    const bb = await send(
      "POST",
      "/api/v1/vaults",
      { name: "Conformance BB", type: "black_box", key_type: "ecdsa_secp256k1" },
      201,
    );
    const address = await send(
      "POST",
      `/api/v1/vaults/${utxo.id}/addresses`,
      { name: "deposits", address_type: "segwit" },
      201,
    );
    ids = {
      evm: evm.id,
      utxo: utxo.id,
      sol: sol.id,
      cosmos: cosmos.id,
      ton: ton.id,
      bb: bb.id,
      address: address.id,
    };
  });

  it("blockchains: list with filters and paging edges, suggested fees", async () => {
    await get("/api/v1/blockchains");
    await get("/api/v1/blockchains?chain_types=evm&include_testnets=false");
    await get("/api/v1/blockchains?page=1&size=1");
    await get("/api/v1/blockchains?page=999&size=100");
    await get("/api/v1/blockchains/suggested-fees?chain_ids=ethereum_mainnet");
  });

  it("users and user groups: lists, sorts, pages, one by id", async () => {
    const users = await get("/api/v1/users");
    await get("/api/v1/users?sort_by=name_asc&size=2&page=2");
    await get(`/api/v1/users/${users.users[0].id}`);
    const groups = await get("/api/v1/user-groups");
    await get("/api/v1/user-groups?size=1");
    if (groups.user_groups.length > 0) await get(`/api/v1/user-groups/${groups.user_groups[0].id}`);
  });

  it("vaults: list, filters, one of each type, assets, export", async () => {
    await get("/api/v1/vaults");
    await get("/api/v1/vaults?vault_types=utxo&vault_states=active&size=1");
    await get("/api/v1/vaults?sort_by=name_desc&page=2&size=3");
    for (const id of Object.values(ids).slice(0, 6)) await get(`/api/v1/vaults/${id}`);
    await get(`/api/v1/vaults/${ids.evm}/assets`);
    // A seeded vault that holds assets: every owned asset, then one by id.
    const seeded = await get(`/api/v1/vaults?names=${encodeURIComponent("Treasury ETH")}`);
    const assets = await get(`/api/v1/vaults/${seeded.vaults[0].id}/assets?size=100`);
    assert.ok(assets.owned_assets.length > 0);
    await get(
      `/api/v1/vaults/${seeded.vaults[0].id}/assets/${assets.owned_assets[0].priced_asset.asset_info.id}`,
    );
    const exported = await h.api("GET", "/api/v1/vaults/export_async");
    conform("GET", "/api/v1/vaults/export_async", exported);
  });

  it("vault writes: rename, proposal, archive, restore; addresses: list, rename", async () => {
    await send("PUT", `/api/v1/vaults/${ids.evm}/name`, { name: "Conformance EVM 2" }, 204);
    const groups = await h.emulator.control.peek<{ id: string }>("vault-groups");
    await send(
      "POST",
      `/api/v1/vaults/${ids.evm}/proposals`,
      { diff: { added_vault_group_ids: [groups.at(-1)!.id] } },
      204,
    );
    await send("POST", `/api/v1/vaults/${ids.sol}/archive`, undefined, 204);
    await get(`/api/v1/vaults/${ids.sol}`);
    await send("POST", `/api/v1/vaults/${ids.sol}/restore`, undefined, 204);
    await get(`/api/v1/vaults/${ids.utxo}/addresses?search=dep&size=1`);
    await send("PUT", `/api/v1/vaults/addresses/${ids.address}/name`, { name: "deposits 2" }, 204);
  });

  it("transactions and webhooks", async () => {
    const tx = await h.createTransaction({
      vault_id: ids.evm,
      signer_type: "api_signer",
      type: "evm_transaction",
      details: {
        type: "evm_transfer",
        to: "0x1111111111111111111111111111111111111111",
        value: { type: "value", value: "1" },
        asset_identifier: { type: "evm", details: { type: "native", chain: "evm_ethereum_mainnet" } },
      },
    });
    conform("POST", "/api/v1/transactions", tx, 201);
    // The recipient in each form the service takes (docs/api-notes.md, "Transactions"): the answer still
    // conforms, the recipient vault named in `to.vault`.
    const recipientVault = await send(
      "POST",
      "/api/v1/vaults",
      { name: "Conformance EVM to", type: "evm" },
      201,
    );
    for (const to of [
      { type: "hex", address: "0x2222222222222222222222222222222222222222" },
      { type: "vault_id", vault_id: recipientVault.id },
      recipientVault.id,
    ]) {
      const sent = await h.createTransaction({
        vault_id: ids.evm,
        type: "evm_transaction",
        details: {
          type: "evm_transfer",
          to,
          value: { type: "value", value: "1" },
          asset_identifier: { type: "evm", details: { type: "native", chain: "evm_ethereum_mainnet" } },
        },
      });
      conform("POST", "/api/v1/transactions", sent, 201);
    }
    const receiver = await startWebhookReceiver();
    try {
      await send("POST", "/api/v1/webhooks/test", { url: receiver.url }, 204);
      await h.emulator.control.createWebhookEndpoint({ url: receiver.url });
      await send("POST", `/api/v1/webhooks/trigger/transaction/${tx.body.id}`, undefined, 204);
      const [record] = await h.emulator.control.peek<{ id: string }>("audit-log");
      assert.ok(record);
      await send("POST", `/api/v1/webhooks/trigger/audit-log/${record.id}`, undefined, 204);
    } finally {
      await receiver.close();
    }
  });

  it("documented errors: 401, 403, 404, 409, 422, 400, 429", async () => {
    await get("/api/v1/vaults", 401, "not-a-token");
    await send(
      "POST",
      "/api/v1/vaults",
      { name: "viewer may not", type: "evm" },
      403,
      h.emulator.viewerAccessToken,
    );
    await get("/api/v1/vaults/00000000-0000-4000-8000-000000000000", 404);
    await get("/api/v1/users/00000000-0000-4000-8000-000000000000", 404);
    await send(
      "POST",
      "/api/v1/vaults",
      { name: "Conformance BTC", type: "utxo", chain: "bitcoin_mainnet" },
      409,
    );
    await send("POST", "/api/v1/vaults", { name: "", type: "nope" }, 422);
    await get("/api/v1/vaults?size=1000", 422);
    await send("POST", `/api/v1/vaults/${ids.evm}/addresses`, { name: "no" }, 400);
    // A webhook test to a link-local or private target is refused as a validation error of `url`.
    await send("POST", "/api/v1/webhooks/test", { url: "http://169.254.169.254/latest/meta-data/" }, 422);
    await h.emulator.control.setRateLimit(1);
    try {
      await h.api("GET", "/api/v1/blockchains");
      const limited = await h.api("GET", "/api/v1/blockchains");
      conform("GET", "/api/v1/blockchains", limited, 429);
    } finally {
      await h.emulator.control.setRateLimit(0);
    }
  });

  it("the large-data seed pages cleanly", async () => {
    await h.emulator.control.seedLargeDataSet({ users: 300, vaults: 300 });
    await get("/api/v1/vaults?size=100&page=3");
    await get("/api/v1/users?size=100&page=2");
  });

  it("covers every endpoint of the table", () => {
    const covered = new Set([...validated.keys()].map((k) => k.split(" ").slice(0, 2).join(" ")));
    const missing = Object.values(endpoints)
      .map((e) => `${e.method} ${e.path}`)
      .filter((e) => !covered.has(e));
    assert.deepEqual(missing, []);
    assert.deepEqual(failures, []);
  });
});
