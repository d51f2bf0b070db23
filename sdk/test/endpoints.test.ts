/**
 * Every endpoint of the table, through its namespace method: the exact request that reaches the server
 * (method, path, query with repeated keys, body bytes, headers) and the parsed response.
 */
import { strict as assert } from "node:assert";
import { createPublicKey, verify } from "node:crypto";
import { type LoopbackServer, type ScriptedResponse, startLoopbackServer } from "@pulumi-custody/testing";
import type { CustodyClient } from "../index";
import { endpoints } from "../schema/index";
import {
  apiUser,
  cosmosChain,
  evmChain,
  evmTransferRequest,
  evmVault,
  exportRecord,
  fixture,
  IDS,
  ownedAsset,
  personUser,
  suggestedFees,
  TOKEN,
  testClient,
  transactionRecord,
  userGroup,
  utxoVault,
  utxoVaultAddress,
} from "./helpers";

interface EndpointCase {
  /** The endpoint of the table this case covers. */
  endpoint: keyof typeof endpoints;
  /** What the test calls it. */
  title: string;
  call: (client: CustodyClient) => Promise<unknown>;
  respond: ScriptedResponse;
  method: string;
  path: string;
  rawQuery?: string;
  /** Exact body text the server must receive (`""` for none). */
  body?: string;
  /** What the call resolves to. */
  result: unknown;
}

const IDEMPOTENCY_ID = "6f9619ff-8b86-4d11-b42d-00c04fc964ff";
const page = <K extends string>(key: K, items: unknown[], extra: { page?: number; size?: number } = {}) => ({
  total: items.length,
  page: extra.page ?? 1,
  size: extra.size ?? 50,
  [key]: items,
});

const cases: EndpointCase[] = [
  {
    endpoint: "listBlockchains",
    title: "blockchains.list",
    call: (c) =>
      c.blockchains.list({
        chain_types: ["evm", "cosmos"],
        sources: ["default"],
        include_testnets: false,
        show_all: true,
        page: 2,
        size: 100,
      }),
    respond: { body: page("chains", [evmChain, cosmosChain], { page: 2, size: 100 }) },
    method: "GET",
    path: "/api/v1/blockchains",
    rawQuery:
      "chain_types=evm&chain_types=cosmos&sources=default&include_testnets=false&show_all=true&page=2&size=100",
    result: page("chains", [evmChain, cosmosChain], { page: 2, size: 100 }),
  },
  {
    endpoint: "getSuggestedFees",
    title: "blockchains.suggestedFees",
    call: (c) =>
      c.blockchains.suggestedFees({
        chains: ["evm_arbitrum_mainnet", "bitcoin_mainnet"],
        chain_types: ["utxo"],
      }),
    respond: { body: suggestedFees },
    method: "GET",
    path: "/api/v1/blockchains/suggested-fees",
    rawQuery: "chains=evm_arbitrum_mainnet&chains=bitcoin_mainnet&chain_types=utxo",
    result: suggestedFees,
  },
  {
    endpoint: "listUsers",
    title: "users.list",
    call: (c) =>
      c.users.list({
        roles: ["admin", "trader"],
        include_deleted: true,
        size: 400,
        emails: ["a+b@example.com"],
        group_ids__not: [IDS.userGroup],
        sort_by: ["created_asc"],
      }),
    respond: { body: page("users", [personUser, apiUser], { size: 400 }) },
    method: "GET",
    path: "/api/v1/users",
    rawQuery: `roles=admin&roles=trader&include_deleted=true&size=400&emails=a%2Bb%40example.com&group_ids__not=${IDS.userGroup}&sort_by=created_asc`,
    result: page("users", [personUser, apiUser], { size: 400 }),
  },
  {
    endpoint: "getUser",
    title: "users.get",
    call: (c) => c.users.get(IDS.user),
    respond: { body: personUser },
    method: "GET",
    path: `/api/v1/users/${IDS.user}`,
    result: personUser,
  },
  {
    endpoint: "listUserGroups",
    title: "userGroups.list",
    call: (c) =>
      c.userGroups.list({ name: "Signers & Co", user_ids: [IDS.user, IDS.apiUser], states: ["active"] }),
    respond: { body: page("user_groups", [userGroup]) },
    method: "GET",
    path: "/api/v1/user-groups",
    rawQuery: `name=Signers%20%26%20Co&user_ids=${IDS.user}&user_ids=${IDS.apiUser}&states=active`,
    result: page("user_groups", [userGroup]),
  },
  {
    endpoint: "getUserGroup",
    title: "userGroups.get",
    call: (c) => c.userGroups.get(IDS.userGroup),
    respond: { body: userGroup },
    method: "GET",
    path: `/api/v1/user-groups/${IDS.userGroup}`,
    result: userGroup,
  },
  {
    endpoint: "listVaults",
    title: "vaults.list",
    call: (c) =>
      c.vaults.list({
        sort_by: ["name_asc"],
        vault_types: ["evm", "utxo"],
        vault_states: ["active", "archived"],
        origin_type: "native",
        positive_native_balance_chain_ids: ["evm_1"],
      }),
    respond: { body: page("vaults", [evmVault, utxoVault]) },
    method: "GET",
    path: "/api/v1/vaults",
    rawQuery:
      "sort_by=name_asc&vault_types=evm&vault_types=utxo&vault_states=active&vault_states=archived&origin_type=native&positive_native_balance_chain_ids=evm_1",
    result: page("vaults", [evmVault, utxoVault]),
  },
  {
    endpoint: "createVault",
    title: "vaults.create",
    call: (c) => c.vaults.create({ type: "evm", name: "treasury", vault_group_id: IDS.vaultGroup }),
    respond: { status: 201, body: evmVault },
    method: "POST",
    path: "/api/v1/vaults",
    body: `{"type":"evm","name":"treasury","vault_group_id":"${IDS.vaultGroup}"}`,
    result: evmVault,
  },
  {
    endpoint: "exportVaultBalances",
    title: "vaults.exportBalances (200)",
    call: (c) =>
      c.vaults.exportBalances({ limit: 10, vaults_ids: [IDS.vault, IDS.utxoVault], vault_types: ["evm"] }),
    respond: { body: exportRecord },
    method: "GET",
    path: "/api/v1/vaults/export_async",
    rawQuery: `limit=10&vaults_ids=${IDS.vault}&vaults_ids=${IDS.utxoVault}&vault_types=evm`,
    result: exportRecord,
  },
  {
    endpoint: "exportVaultBalances",
    title: "vaults.exportBalances (204)",
    call: (c) => c.vaults.exportBalances(),
    respond: { status: 204 },
    method: "GET",
    path: "/api/v1/vaults/export_async",
    result: undefined,
  },
  {
    endpoint: "getVault",
    title: "vaults.get",
    call: (c) => c.vaults.get(IDS.utxoVault),
    respond: { body: utxoVault },
    method: "GET",
    path: `/api/v1/vaults/${IDS.utxoVault}`,
    result: utxoVault,
  },
  {
    endpoint: "listVaultAssets",
    title: "vaults.assets.list",
    call: (c) =>
      c.vaults.assets.list(IDS.vault, {
        chains: ["evm_arbitrum_mainnet"],
        is_hidden: false,
        search: "eth",
        size: 10,
      }),
    respond: { body: page("owned_assets", [ownedAsset], { size: 10 }) },
    method: "GET",
    path: `/api/v1/vaults/${IDS.vault}/assets`,
    rawQuery: "chains=evm_arbitrum_mainnet&is_hidden=false&search=eth&size=10",
    result: page("owned_assets", [ownedAsset], { size: 10 }),
  },
  {
    endpoint: "getVaultAsset",
    title: "vaults.assets.get",
    call: (c) => c.vaults.assets.get(IDS.vault, IDS.asset),
    respond: { body: ownedAsset },
    method: "GET",
    path: `/api/v1/vaults/${IDS.vault}/assets/${IDS.asset}`,
    result: ownedAsset,
  },
  {
    endpoint: "submitVaultChangeProposal",
    title: "vaults.submitChangeProposal",
    call: (c) =>
      c.vaults.submitChangeProposal(IDS.vault, {
        diff: { added_vault_group_ids: [IDS.vaultGroup2], removed_vault_group_ids: [IDS.vaultGroup] },
      }),
    respond: { status: 204 },
    method: "POST",
    path: `/api/v1/vaults/${IDS.vault}/proposals`,
    body: `{"diff":{"added_vault_group_ids":["${IDS.vaultGroup2}"],"removed_vault_group_ids":["${IDS.vaultGroup}"]}}`,
    result: undefined,
  },
  {
    endpoint: "archiveVault",
    title: "vaults.archive",
    call: (c) => c.vaults.archive(IDS.vault),
    respond: { status: 204 },
    method: "POST",
    path: `/api/v1/vaults/${IDS.vault}/archive`,
    result: undefined,
  },
  {
    endpoint: "restoreVault",
    title: "vaults.restore",
    call: (c) => c.vaults.restore(IDS.vault),
    respond: { status: 204 },
    method: "POST",
    path: `/api/v1/vaults/${IDS.vault}/restore`,
    result: undefined,
  },
  {
    endpoint: "renameVault",
    title: "vaults.rename",
    call: (c) => c.vaults.rename(IDS.vault, "cold storage ✓"),
    respond: { status: 204 },
    method: "PUT",
    path: `/api/v1/vaults/${IDS.vault}/name`,
    body: '{"name":"cold storage ✓"}',
    result: undefined,
  },
  {
    endpoint: "createVaultAddress",
    title: "vaults.addresses.create",
    call: (c) => c.vaults.addresses.create(IDS.utxoVault, { name: "deposit-1", address_type: "segwit" }),
    respond: { status: 201, body: utxoVaultAddress },
    method: "POST",
    path: `/api/v1/vaults/${IDS.utxoVault}/addresses`,
    body: '{"name":"deposit-1","address_type":"segwit"}',
    result: utxoVaultAddress,
  },
  {
    endpoint: "listVaultAddresses",
    title: "vaults.addresses.list",
    call: (c) =>
      c.vaults.addresses.list(IDS.utxoVault, {
        address_types: ["legacy", "segwit"],
        addresses: ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"],
        sort_by: ["created_at_desc"],
      }),
    respond: { body: page("addresses", [utxoVaultAddress]) },
    method: "GET",
    path: `/api/v1/vaults/${IDS.utxoVault}/addresses`,
    rawQuery:
      "address_types=legacy&address_types=segwit&addresses=bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq&sort_by=created_at_desc",
    result: page("addresses", [utxoVaultAddress]),
  },
  {
    endpoint: "renameVaultAddress",
    title: "vaults.addresses.rename",
    call: (c) => c.vaults.addresses.rename(IDS.address, "deposit-2"),
    respond: { status: 204 },
    method: "PUT",
    path: `/api/v1/vaults/addresses/${IDS.address}/name`,
    body: '{"name":"deposit-2"}',
    result: undefined,
  },
  {
    endpoint: "createTransaction",
    title: "transactions.create",
    call: (c) => c.transactions.create(evmTransferRequest, { idempotencyId: IDEMPOTENCY_ID }),
    respond: { status: 201, body: transactionRecord(IDEMPOTENCY_ID) },
    method: "POST",
    path: "/api/v1/transactions",
    body: JSON.stringify(evmTransferRequest),
    result: transactionRecord(IDEMPOTENCY_ID),
  },
  {
    endpoint: "testWebhook",
    title: "webhooks.test",
    call: (c) => c.webhooks.test({ url: "https://hooks.example.com/custody", events: ["audit_log"] }),
    respond: { status: 204 },
    method: "POST",
    path: "/api/v1/webhooks/test",
    body: '{"url":"https://hooks.example.com/custody","events":["audit_log"]}',
    result: undefined,
  },
  {
    endpoint: "triggerTransactionWebhook",
    title: "webhooks.triggerTransaction",
    call: (c) => c.webhooks.triggerTransaction(IDS.transaction),
    respond: { status: 204 },
    method: "POST",
    path: `/api/v1/webhooks/trigger/transaction/${IDS.transaction}`,
    result: undefined,
  },
  {
    endpoint: "triggerAuditLogWebhook",
    title: "webhooks.triggerAuditLog",
    call: (c) => c.webhooks.triggerAuditLog(IDS.auditLog),
    respond: { status: 204 },
    method: "POST",
    path: `/api/v1/webhooks/trigger/audit-log/${IDS.auditLog}`,
    result: undefined,
  },
];

describe("sdk endpoints: the exact request and the parsed response", () => {
  let server: LoopbackServer;
  let client: CustodyClient;
  const now = 1_739_459_236_186;

  before(async () => {
    server = await startLoopbackServer();
    ({ client } = testClient(server, {
      apiUserPrivateKey: fixture("api-user-p256.pem"),
      advanced: { now: () => now },
    }));
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it("covers every endpoint of the table", () => {
    const covered = new Set(cases.map((c) => c.endpoint));
    assert.deepEqual([...covered].sort(), Object.keys(endpoints).sort());
  });

  for (const tc of cases) {
    it(`${tc.title}: ${tc.method} ${tc.path}`, async () => {
      const before = server.requests.length;
      server.enqueue(tc.respond);
      const result = await tc.call(client);
      assert.equal(server.requests.length, before + 1, "exactly one request");
      const req = server.requests[before];
      const spec = endpoints[tc.endpoint];
      assert.equal(req.method, tc.method);
      assert.equal(req.method, spec.method, "method agrees with the endpoint table");
      assert.equal(req.path, tc.path);
      assert.equal(req.rawQuery, tc.rawQuery ?? "");
      assert.equal(req.body, tc.body ?? "");
      assert.equal(req.headers.authorization, `Bearer ${TOKEN}`);
      assert.equal(req.headers.accept, "application/json");
      assert.match(String(req.headers["user-agent"]), /^pulumi-custody-sdk\/\d+\.\d+\.\d+ node\//);
      assert.equal(req.headers["content-type"], tc.body === undefined ? undefined : "application/json");
      if (spec.retry === "idempotency-key") {
        assert.equal(req.headers["x-idempotence-id"], IDEMPOTENCY_ID);
      } else {
        assert.equal(req.headers["x-idempotence-id"], undefined);
      }
      if ("signed" in spec && spec.signed) {
        assert.equal(req.headers["x-timestamp"], String(now));
        const message = `${tc.path}|${now}|${req.body}`;
        const ok = verify(
          "sha256",
          Buffer.from(message),
          createPublicKey(fixture("api-user-p256.pub.pem")),
          Buffer.from(String(req.headers["x-signature"]), "base64"),
        );
        assert.ok(ok, "node:crypto verifies x-signature over path|timestamp|body");
      } else {
        assert.equal(req.headers["x-signature"], undefined);
        assert.equal(req.headers["x-timestamp"], undefined);
      }
      assert.deepEqual(result, tc.result);
    });
  }

  it("keeps fields the schema does not know, and accepts the older real shapes", async () => {
    const extended = { ...evmVault, brand_new_field: { nested: [1, 2] } };
    server.enqueue({ body: extended });
    const vault = await client.vaults.get(IDS.vault);
    assert.deepEqual((vault as Record<string, unknown>).brand_new_field, { nested: [1, 2] });
    assert.deepEqual((vault as Record<string, unknown>).keyset, evmVault.keyset);
    assert.equal(vault.vault_group?.vault_count, 3);
    assert.equal(vault.type, "evm");
  });

  it("percent-encodes path ids it is given only after validating them as UUIDs", async () => {
    const before = server.requests.length;
    await assert.rejects(
      client.vaults.get("../users"),
      (err: Error & { code?: string; issues?: unknown }) => {
        assert.equal(err.code, "ERR_CUSTODY_INVALID_REQUEST");
        assert.deepEqual((err.issues as { loc: unknown[] }[])[0].loc, ["path", "id"]);
        return true;
      },
    );
    assert.equal(server.requests.length, before, "nothing was sent");
  });
});
