/**
 * Requests that break the schema are rejected before anything is sent, with a message that names the field and
 * the rule, in the service's own issue shape (`{loc, msg, type}`).
 */
import { strict as assert } from "node:assert";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import { type CustodyClient, CustodyValidationError } from "../index";
import { evmTransferRequest, fixture, IDS, testClient } from "./helpers";

interface Case {
  title: string;
  call: (c: CustodyClient) => Promise<unknown>;
  /** Expected `loc.join(".")` → `msg` of one issue. */
  issue: [string, string | RegExp];
}

const cases: Case[] = [
  {
    title: "an empty vault name",
    call: (c) => c.vaults.create({ type: "evm", name: "" }),
    issue: ["body.name", "must not be empty"],
  },
  {
    title: "a missing vault name",
    call: (c) => c.vaults.create({ type: "evm" } as never),
    issue: ["body.name", "is required"],
  },
  {
    title: "a vault name of the wrong type",
    call: (c) => c.vaults.create({ type: "evm", name: 42 } as never),
    issue: ["body.name", "must be a string (got number)"],
  },
  {
    title: "an exchange vault (cannot be created)",
    call: (c) => c.vaults.create({ type: "exchange", name: "x" } as never),
    issue: ["body.type", /^must be one of "aptos", .*"evm"/],
  },
  {
    title: "a Safe vault with a bad address",
    call: (c) => c.vaults.create({ type: "safe", name: "s", address: "0x123" }),
    issue: ["body.address", "must be a 0x-prefixed 20-byte hex address"],
  },
  {
    title: "a bad vault group id",
    call: (c) => c.vaults.create({ type: "evm", name: "x", vault_group_id: "default" }),
    issue: ["body.vault_group_id", "must be a UUID"],
  },
  {
    title: "no body at all",
    call: (c) => c.vaults.create(undefined as never),
    issue: ["body", "is required"],
  },
  {
    title: "a rename to an empty name",
    call: (c) => c.vaults.rename(IDS.vault, ""),
    issue: ["body.name", "must not be empty"],
  },
  {
    title: "a path id that is not a UUID",
    call: (c) => c.vaults.archive("vault-1"),
    issue: ["path.id", "must be a UUID"],
  },
  {
    title: "a p2sh address (the service refuses to create those)",
    call: (c) => c.vaults.addresses.create(IDS.utxoVault, { address_type: "p2sh" as never }),
    issue: ["body.address_type", 'must be one of "legacy", "segwit", "taproot"'],
  },
  {
    title: "a proposal with a bad group id",
    call: (c) =>
      c.vaults.submitChangeProposal(IDS.vault, { diff: { added_vault_group_ids: [IDS.vaultGroup, "g2"] } }),
    issue: ["body.diff.added_vault_group_ids.1", "must be a UUID"],
  },
  {
    title: "page 0",
    call: (c) => c.vaults.list({ page: 0 }),
    issue: ["query.page", "must be >= 1"],
  },
  {
    title: "size above 100 on vaults",
    call: (c) => c.vaults.list({ size: 101 }),
    issue: ["query.size", "must be <= 100"],
  },
  {
    title: "size above 400 on users",
    call: (c) => c.users.list({ size: 401 }),
    issue: ["query.size", "must be <= 400"],
  },
  {
    title: "a fractional size",
    call: (c) => c.users.list({ size: 2.5 }),
    issue: ["query.size", "must be an integer"],
  },
  {
    title: "a boolean filter given as a word",
    call: (c) => c.users.list({ include_deleted: "yes" as never }),
    issue: ["query.include_deleted", "must be a boolean (got string)"],
  },
  {
    title: "a lone surrogate in a text filter",
    call: (c) => c.vaults.list({ names: ["ok", "bad\uD800"] }),
    issue: ["query.names", "must be well-formed Unicode text"],
  },
  {
    title: "a webhook URL that is not absolute",
    call: (c) => c.webhooks.test({ url: "/hooks" }),
    issue: ["body.url", "must be an absolute URL"],
  },
  {
    title: "an EVM transfer with a fractional amount",
    call: (c) =>
      c.transactions.create({
        ...evmTransferRequest,
        details: { ...evmTransferRequest.details, value: { type: "value", value: "1.5" } },
      }),
    issue: ["body.details.value.value", "must be a string of decimal digits"],
  },
  {
    title: "an EVM recipient that is neither an address nor a vault id",
    call: (c) =>
      c.transactions.create({
        ...evmTransferRequest,
        details: { ...evmTransferRequest.details, to: "0x123" },
      }),
    issue: ["body.details.to", "must be a 0x-prefixed 20-byte hex address or a vault id (a UUID)"],
  },
  {
    title: "an EVM recipient object with a bad vault id",
    call: (c) =>
      c.transactions.create({
        ...evmTransferRequest,
        details: { ...evmTransferRequest.details, to: { type: "vault_id", vault_id: "vault-2" } },
      }),
    issue: ["body.details.to.vault_id", "must be a UUID"],
  },
];

describe("sdk request validation", () => {
  let server: LoopbackServer;
  let client: CustodyClient;
  before(async () => {
    server = await startLoopbackServer(() => ({ status: 204 }));
    ({ client } = testClient(server, { apiUserPrivateKey: fixture("api-user-p256.pem") }));
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  for (const tc of cases) {
    it(`rejects ${tc.title} locally: ${tc.issue[0]}`, async () => {
      const err = await tc.call(client).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyValidationError, String(err));
      assert.equal(err.code, "ERR_CUSTODY_INVALID_REQUEST");
      assert.equal(err.status, undefined);
      const [loc, msg] = tc.issue;
      const issue = err.issues.find((i) => i.loc.join(".") === loc);
      assert.ok(issue, `no issue at ${loc}: ${JSON.stringify(err.issues)}`);
      if (typeof msg === "string") assert.equal(issue.msg, msg);
      else assert.match(issue.msg, msg);
      assert.ok(err.message.includes(`${loc}: ${issue.msg}`), err.message);
      assert.ok(err.message.startsWith(`Invalid request for ${err.method} `), err.message);
      assert.equal(server.requests.length, 0, "nothing was sent");
    });
  }

  it("reports every problem at once", async () => {
    const err = await client.vaults
      .list({ page: 0, size: 1000, vault_ids: ["not-a-uuid"] })
      .catch((e: unknown) => e);
    assert.ok(err instanceof CustodyValidationError);
    assert.deepEqual(
      err.issues.map((i) => i.loc.join(".")),
      ["query.page", "query.size", "query.vault_ids.0"],
    );
  });

  const AT = "2025-02-13T15:27:16.186000Z";
  it("keeps what a later service release may accept: unknown enum values, transaction types and details without `type`", async () => {
    server.enqueue({ status: 200, body: { total: 0, page: 1, size: 50, vaults: [] } });
    await client.vaults.list({ vault_types: ["evm", "bitcoin"] });
    assert.deepEqual(server.requests.at(-1)?.query.vault_types, ["evm", "bitcoin"]);
    for (const body of [
      { ...evmTransferRequest, type: "evm_swap" },
      // A black-box signature's details carry `format`, not `type` (the published schema).
      {
        vault_id: IDS.vault,
        type: "black_box_signature",
        details: { format: "hash_binary", hash_binary: "AA==" },
      },
    ]) {
      server.enqueue({
        status: 201,
        body: { id: IDS.transaction, created_at: AT, modified_at: AT, type: body.type, state: "approved" },
      });
      await client.transactions.create(body as never);
      assert.equal(server.requests.at(-1)?.body, JSON.stringify(body));
    }
  });

  it("an EVM transfer's `to` in each of the forms the service accepts is sent as given", async () => {
    // docs/api-notes.md, "Transactions": an object, a bare 0x address, or the bare id of the recipient vault.
    for (const to of [
      { type: "hex", address: "0xB519a7f0e0C5e2b5C1d8b1B4b7E6b2F0c3D4e5F6" },
      { type: "vault_id", vault_id: IDS.utxoVault },
      { type: "contact_id", contact_id: IDS.user },
      "0xB519a7f0e0C5e2b5C1d8b1B4b7E6b2F0c3D4e5F6",
      IDS.utxoVault,
      IDS.utxoVault.toUpperCase(),
    ] as const) {
      server.enqueue({
        status: 201,
        body: {
          id: IDS.transaction,
          created_at: AT,
          modified_at: AT,
          type: "evm_transaction",
          state: "approved",
        },
      });
      const body = { ...evmTransferRequest, details: { ...evmTransferRequest.details, to } };
      await client.transactions.create(body);
      assert.equal(server.requests.at(-1)?.body, JSON.stringify(body));
    }
  });

  it("unmodelled transaction types pass with their envelope checked", async () => {
    server.enqueue({
      status: 201,
      body: {
        id: IDS.transaction,
        created_at: "2025-02-13T15:27:16.186000Z",
        modified_at: "2025-02-13T15:27:16.186000Z",
        type: "ton_transaction",
        state: "waiting_for_approval",
      },
    });
    const body = {
      vault_id: IDS.vault,
      type: "ton_transaction",
      details: { type: "ton_transfer", anything: [1] },
    };
    await client.transactions.create(body as never);
    assert.equal(server.requests.at(-1)?.body, JSON.stringify(body));
  });

  it("an empty array filter sends no key (the same as leaving the filter out)", async () => {
    server.enqueue({ body: { total: 0, page: 1, size: 50, vaults: [] } });
    await client.vaults.list({ vault_ids: [], names: ["a"] });
    assert.equal(server.requests.at(-1)?.rawQuery, "names=a");
  });
});
