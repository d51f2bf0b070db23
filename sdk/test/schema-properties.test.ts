/**
 * Property tests over the request schemas: every valid request the schemas admit reaches the server as bytes
 * that parse back to exactly the input (and that the schema accepts there too); every invalid one is refused
 * locally, with an issue whose path names the offending field, and nothing is sent.
 */
import { strict as assert } from "node:assert";
import { type LoopbackServer, type RecordedRequest, startLoopbackServer } from "@pulumi-custody/testing";
import fc from "fast-check";
import type { z } from "zod";
import { type CustodyClient, CustodyValidationError } from "../index";
import {
  BlackBoxKeyType,
  CREATABLE_VAULT_TYPES,
  CreatableUtxoAddressType,
  CreateTransactionRequest,
  CreateVaultAddressRequest,
  CreateVaultRequest,
  ListUsersQuery,
  ListVaultsQuery,
  ListVaultsSortableFields,
  RenameVaultRequest,
  SubmitUpdateVaultChangeProposalRequest,
  UserRole,
  UserSortableFields,
  UserState,
  UserType,
  UTXO_CHAIN_IDS,
  VaultOriginType,
  VaultState,
  VaultType,
} from "../schema/index";
import { evmVault, fixture, IDS, testClient, transactionRecord, utxoVaultAddress } from "./helpers";

const RUNS = 60;

// ---- arbitraries of valid requests ------------------------------------------------------------------------

const uuid = fc.uuid();
/** Any text at all, lone surrogates included: JSON carries them as escapes. */
const anyText = fc.string({ unit: "binary", minLength: 1, maxLength: 40 });
/** Well-formed Unicode text, as a query parameter must be. */
const queryText = fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 });
const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString("hex"));
const some = <T>(arb: fc.Arbitrary<T>, max = 4) => fc.array(arb, { minLength: 1, maxLength: max });

const importOptions = fc.oneof(
  fc.record(
    { origin: fc.constant("imported_keys"), key_id: uuid, derivation_path: fc.constant("m/44/60/0/0/0") },
    { noNullPrototype: true, requiredKeys: ["origin", "key_id"] },
  ),
  fc.record(
    {
      origin: fc.constant("external_signer"),
      public_key_compressed: fc.base64String({ minLength: 4, maxLength: 48 }).filter((s) => s.length > 0),
      chain_code: fc.base64String({ minLength: 44, maxLength: 44 }),
    },
    { noNullPrototype: true, requiredKeys: ["origin", "public_key_compressed"] },
  ),
);
const common = { name: anyText, end_user_id: uuid, vault_group_id: uuid };
const simpleTypes = CREATABLE_VAULT_TYPES.filter(
  (t) => !["black_box", "utxo", "safe", "arch", "stacks"].includes(t),
);

/** Every variant of `CreateVaultRequest`. */
const createVaultRequest = fc.oneof(
  fc.record(
    { ...common, type: fc.constantFrom(...simpleTypes), import_options: importOptions },
    { noNullPrototype: true, requiredKeys: ["name", "type"] },
  ),
  fc.record(
    { ...common, type: fc.constantFrom("arch", "stacks") },
    { noNullPrototype: true, requiredKeys: ["name", "type"] },
  ),
  fc.record(
    { ...common, type: fc.constant("black_box"), key_type: fc.constantFrom(...BlackBoxKeyType.options) },
    { noNullPrototype: true, requiredKeys: ["name", "type", "key_type"] },
  ),
  fc.record(
    {
      ...common,
      type: fc.constant("utxo"),
      chain: fc.constantFrom(...UTXO_CHAIN_IDS),
      import_options: importOptions,
    },
    { noNullPrototype: true, requiredKeys: ["name", "type", "chain"] },
  ),
  fc.record(
    { ...common, type: fc.constant("safe"), address: hex(20).map((h) => `0x${h}`) },
    { noNullPrototype: true, requiredKeys: ["name", "type", "address"] },
  ),
);

const createAddressRequest = fc.record(
  {
    name: anyText,
    address_type: fc.constantFrom(...CreatableUtxoAddressType.options),
    import_address: fc.record(
      { derivation_path: fc.constantFrom("m/84/0/0/0/7", "m/44/0/0/1/2") },
      { noNullPrototype: true },
    ),
  },
  { noNullPrototype: true, requiredKeys: [] },
);

const proposalRequest = fc.record(
  {
    diff: fc.record(
      {
        added_vault_group_ids: fc.array(uuid, { maxLength: 4 }),
        removed_vault_group_ids: fc.array(uuid, { maxLength: 4 }),
      },
      { noNullPrototype: true, requiredKeys: [] },
    ),
  },
  { noNullPrototype: true },
);

const evmTransfer = fc.record(
  {
    vault_id: uuid,
    type: fc.constant("evm_transaction"),
    signer_type: fc.constantFrom("initiator", "api_signer"),
    note: anyText,
    details: fc.record(
      {
        type: fc.constant("evm_transfer"),
        to: fc.oneof(
          hex(20).map((h) => `0x${h}`),
          hex(20).map((h) => ({ type: "hex", address: `0x${h}` })),
          uuid.map((id) => ({ type: "vault_id", vault_id: id })),
        ),
        asset_identifier: fc.oneof(
          fc.constantFrom("evm_1", "evm_arbitrum_mainnet").map((chain) => ({
            type: "evm",
            details: { type: "native", chain },
          })),
          hex(20).map((h) => ({
            type: "evm",
            details: { type: "erc20", token: { chain: "evm_1", hex_repr: `0x${h}` } },
          })),
        ),
        value: fc.oneof(
          fc.bigInt({ min: 0n, max: 10n ** 30n }).map((v) => ({ type: "value", value: v.toString() })),
          fc.constant({ type: "max" }),
        ),
        gas: fc
          .constantFrom("low", "medium", "high")
          .map((level) => ({ type: "priority", priority_level: level })),
        skip_prediction: fc.boolean(),
      },
      { noNullPrototype: true, requiredKeys: ["type", "to", "asset_identifier", "value"] },
    ),
  },
  { noNullPrototype: true },
);

const listVaultsQuery = fc.record(
  {
    sort_by: some(fc.constantFrom(...ListVaultsSortableFields.options)),
    page: fc.integer({ min: 1, max: 10_000 }),
    size: fc.integer({ min: 0, max: 100 }),
    skip_count: fc.boolean(),
    vault_ids: some(uuid),
    names: some(queryText),
    vault_types: some(fc.constantFrom(...VaultType.options)),
    vault_states: some(fc.constantFrom(...VaultState.options)),
    origin_type: fc.constantFrom(...VaultOriginType.options),
    account_addresses: some(hex(20).map((h) => `0x${h}`)),
    positive_native_balance_chain_ids: some(fc.constantFrom("evm_1", "solana_mainnet", "cosmos_cosmoshub-4")),
  },
  { noNullPrototype: true, requiredKeys: [] },
);

const listUsersQuery = fc.record(
  {
    sort_by: some(fc.constantFrom(...UserSortableFields.options)),
    page: fc.integer({ min: 1, max: 10_000 }),
    size: fc.integer({ min: 0, max: 400 }),
    types: some(fc.constantFrom(...UserType.options)),
    roles: some(fc.constantFrom(...UserRole.options)),
    states: some(fc.constantFrom(...UserState.options)),
    include_deleted: fc.boolean(),
    names: some(queryText),
    emails: some(fc.emailAddress()),
    user_ids: some(uuid),
    external_ids: some(queryText),
    group_ids__not: some(uuid),
  },
  { noNullPrototype: true, requiredKeys: [] },
);

// ---- helpers ----------------------------------------------------------------------------------------------

/** The query as a typical server reads it: a lone value is a string, a repeated key an array. */
function serverView(req: RecordedRequest): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, values] of Object.entries(req.query)) out[k] = values.length === 1 ? values[0] : values;
  return out;
}

function assertQueryRoundTrip(req: RecordedRequest, input: Record<string, unknown>, schema: z.ZodType): void {
  // Exact: every parameter arrives once per value, in order, as its decimal or literal text.
  const expected: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(input)) expected[k] = (Array.isArray(v) ? v : [v]).map(String);
  assert.deepEqual(req.query, expected);
  // And the server, reading it back with the same schema, sees what the client was given.
  assert.deepEqual(schema.parse(serverView(req)), schema.parse(input));
}

function assertBodyRoundTrip(req: RecordedRequest, input: unknown, schema: z.ZodType): void {
  const received = JSON.parse(req.body);
  assert.deepEqual(received, input);
  assert.ok(schema.safeParse(received).success, "the schema accepts what the server received");
  assert.equal(req.headers["content-type"], "application/json");
}

describe("sdk schema properties", function () {
  this.timeout(120_000);
  let server: LoopbackServer;
  let client: CustodyClient;

  before(async () => {
    server = await startLoopbackServer((req) => {
      if (req.method === "PUT" || req.path.endsWith("/proposals")) return { status: 204 };
      if (req.path === "/api/v1/vaults" && req.method === "POST") return { status: 201, body: evmVault };
      if (req.path.endsWith("/addresses")) return { status: 201, body: utxoVaultAddress };
      if (req.path === "/api/v1/transactions") return { status: 201, body: transactionRecord("x") };
      const key = req.path === "/api/v1/users" ? "users" : "vaults";
      return { body: { total: 0, page: 1, size: 50, [key]: [] } };
    });
    ({ client } = testClient(server, { apiUserPrivateKey: fixture("api-user-p256.pem") }));
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  /** The one request `run` made, after checking it made exactly one. */
  async function sent(run: () => Promise<unknown>): Promise<RecordedRequest> {
    const before = server.requests.length;
    await run();
    assert.equal(server.requests.length, before + 1);
    return server.requests[before];
  }

  /** `run` is refused locally with an issue at `loc`, and sends nothing. */
  async function refused(run: () => Promise<unknown>, loc: string): Promise<void> {
    const before = server.requests.length;
    const err = await run().then(
      () => assert.fail(`expected a rejection at ${loc}`),
      (e: unknown) => e,
    );
    assert.ok(err instanceof CustodyValidationError, String(err));
    assert.equal(err.code, "ERR_CUSTODY_INVALID_REQUEST");
    const locs = err.issues.map((i) => i.loc.join("."));
    assert.ok(locs.includes(loc), `expected an issue at ${loc}, got ${JSON.stringify(locs)}`);
    assert.equal(server.requests.length, before, "nothing was sent");
  }

  describe("valid requests round-trip", () => {
    it("CreateVaultRequest, every variant", async () => {
      await fc.assert(
        fc.asyncProperty(createVaultRequest, async (body) => {
          assert.ok(CreateVaultRequest.safeParse(body).success, "the arbitrary only makes valid requests");
          const req = await sent(() => client.vaults.create(body as never));
          assert.equal(req.method, "POST");
          assertBodyRoundTrip(req, body, CreateVaultRequest);
        }),
        { numRuns: RUNS * 2 },
      );
    });

    it("RenameVaultRequest (vaults and addresses)", async () => {
      await fc.assert(
        fc.asyncProperty(uuid, anyText, fc.boolean(), async (id, name, isAddress) => {
          const req = await sent(() =>
            isAddress ? client.vaults.addresses.rename(id, name) : client.vaults.rename(id, name),
          );
          assert.equal(req.method, "PUT");
          assert.equal(
            req.path,
            isAddress ? `/api/v1/vaults/addresses/${id}/name` : `/api/v1/vaults/${id}/name`,
          );
          assertBodyRoundTrip(req, { name }, RenameVaultRequest);
        }),
        { numRuns: RUNS },
      );
    });

    it("CreateVaultAddressRequest", async () => {
      await fc.assert(
        fc.asyncProperty(uuid, createAddressRequest, async (vaultId, body) => {
          const req = await sent(() => client.vaults.addresses.create(vaultId, body as never));
          assertBodyRoundTrip(req, body, CreateVaultAddressRequest);
        }),
        { numRuns: RUNS },
      );
    });

    it("SubmitUpdateVaultChangeProposalRequest", async () => {
      await fc.assert(
        fc.asyncProperty(uuid, proposalRequest, async (vaultId, body) => {
          const req = await sent(() => client.vaults.submitChangeProposal(vaultId, body));
          assertBodyRoundTrip(req, body, SubmitUpdateVaultChangeProposalRequest);
        }),
        { numRuns: RUNS },
      );
    });

    it("CreateTransactionRequest (EVM transfers), byte-exact and signed over those bytes", async () => {
      await fc.assert(
        fc.asyncProperty(evmTransfer, async (body) => {
          const req = await sent(() => client.transactions.create(body as never));
          assertBodyRoundTrip(req, body, CreateTransactionRequest);
          assert.equal(req.body, JSON.stringify(body));
        }),
        { numRuns: RUNS },
      );
    });

    it("ListVaultsQuery, with arrays as repeated keys", async () => {
      await fc.assert(
        fc.asyncProperty(listVaultsQuery, async (query) => {
          const req = await sent(() => client.vaults.list(query as never));
          assert.equal(req.path, "/api/v1/vaults");
          assertQueryRoundTrip(req, query, ListVaultsQuery);
        }),
        { numRuns: RUNS },
      );
    });

    it("ListUsersQuery, with arrays as repeated keys", async () => {
      await fc.assert(
        fc.asyncProperty(listUsersQuery, async (query) => {
          const req = await sent(() => client.users.list(query as never));
          assertQueryRoundTrip(req, query, ListUsersQuery);
        }),
        { numRuns: RUNS },
      );
    });
  });

  describe("invalid requests are refused with a path", () => {
    /** A valid create-vault body broken in one way, with the path of the broken field. */
    const brokenCreateVault = createVaultRequest.chain((valid) => {
      const v = valid as Record<string, unknown>;
      const options: fc.Arbitrary<[Record<string, unknown>, string]>[] = [
        fc.constant([{ ...v, name: "" }, "body.name"]),
        fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)).map((name) => [{ ...v, name }, "body.name"]),
        fc.constant([Object.fromEntries(Object.entries(v).filter(([k]) => k !== "name")), "body.name"]),
        // A type this release does not list is the service's to judge; one it cannot create is refused.
        fc.constant([{ ...v, type: "exchange" }, "body.type"]),
        fc.oneof(fc.integer(), fc.constant(null)).map((type) => [{ ...v, type }, "body.type"]),
        anyText
          .filter((t) => !/^[0-9a-f-]{36}$/i.test(t))
          .map((id) => [{ ...v, vault_group_id: id }, "body.vault_group_id"]),
      ];
      if (v.type === "utxo") {
        options.push(fc.oneof(fc.integer(), fc.boolean()).map((chain) => [{ ...v, chain }, "body.chain"]));
      }
      if (v.type === "black_box") options.push(fc.constant([{ ...v, key_type: 4096 }, "body.key_type"]));
      if (v.type === "safe") options.push(hex(19).map((h) => [{ ...v, address: `0x${h}` }, "body.address"]));
      return fc.oneof(...options);
    });

    it("CreateVaultRequest", async () => {
      await fc.assert(
        fc.asyncProperty(brokenCreateVault, async ([body, loc]) => {
          await refused(() => client.vaults.create(body as never), loc);
        }),
        { numRuns: RUNS * 2 },
      );
    });

    it("RenameVaultRequest and the path id", async () => {
      const broken = fc.oneof(
        fc.tuple(uuid, fc.constant(""), fc.constant("body.name")),
        fc.tuple(
          uuid,
          fc.oneof(fc.integer(), fc.constant(null), fc.constant(["a"])),
          fc.constant("body.name"),
        ),
        fc.tuple(
          anyText.filter((t) => !/^[0-9a-f-]{36}$/i.test(t)),
          fc.constant("ok"),
          fc.constant("path.id"),
        ),
      );
      await fc.assert(
        fc.asyncProperty(broken, async ([id, name, loc]) => {
          await refused(() => client.vaults.rename(id, name as string), loc);
        }),
        { numRuns: RUNS },
      );
    });

    it("CreateVaultAddressRequest", async () => {
      const broken = fc.oneof(
        fc.constant<[unknown, string]>([{ name: "" }, "body.name"]),
        fc
          .constantFrom("p2sh", "merkleroot", 7)
          .map((t): [unknown, string] => [{ address_type: t }, "body.address_type"]),
        fc.constant<[unknown, string]>([{ import_address: {} }, "body.import_address.derivation_path"]),
        fc.constant<[unknown, string]>([
          { import_address: { derivation_path: "" } },
          "body.import_address.derivation_path",
        ]),
      );
      await fc.assert(
        fc.asyncProperty(uuid, broken, async (vaultId, [body, loc]) => {
          await refused(() => client.vaults.addresses.create(vaultId, body as never), loc);
        }),
        { numRuns: RUNS },
      );
    });

    it("SubmitUpdateVaultChangeProposalRequest", async () => {
      const broken = fc.oneof(
        fc.constant<[unknown, string]>([{}, "body.diff"]),
        fc
          .tuple(
            fc.array(uuid, { maxLength: 3 }),
            anyText.filter((t) => !/^[0-9a-f-]{36}$/i.test(t)),
          )
          .map(([ids, bad]): [unknown, string] => [
            { diff: { removed_vault_group_ids: [...ids, bad] } },
            `body.diff.removed_vault_group_ids.${ids.length}`,
          ]),
      );
      await fc.assert(
        fc.asyncProperty(broken, async ([body, loc]) => {
          await refused(() => client.vaults.submitChangeProposal(IDS.vault, body as never), loc);
        }),
        { numRuns: RUNS },
      );
    });

    it("CreateTransactionRequest", async () => {
      const broken = evmTransfer.chain((valid) => {
        const v = valid as Record<string, unknown> & { details: Record<string, unknown> };
        return fc.oneof(
          anyText
            .filter((t) => !/^[0-9a-f-]{36}$/i.test(t))
            .map((id): [unknown, string] => [{ ...v, vault_id: id }, "body.vault_id"]),
          fc.constant<[unknown, string]>([{ ...v, type: 42 }, "body.type"]),
          fc
            .constantFrom("1.5", "-1", "0x10", "")
            .map((amount): [unknown, string] => [
              { ...v, details: { ...v.details, value: { type: "value", value: amount } } },
              "body.details.value.value",
            ]),
          fc
            .constantFrom("0x12", "vitalik.eth", "")
            .map((to): [unknown, string] => [{ ...v, details: { ...v.details, to } }, "body.details.to"]),
        );
      });
      await fc.assert(
        fc.asyncProperty(broken, async ([body, loc]) => {
          await refused(() => client.transactions.create(body as never), loc);
        }),
        { numRuns: RUNS },
      );
    });

    // An enum value this release does not list is the service's to judge (vendor-leniency.test.ts).
    it("list queries: out-of-range page and size, bad uuids, wrong types", async () => {
      const broken = fc.oneof(
        fc.integer({ max: 0 }).map((page): [string, unknown, string] => ["vaults", { page }, "query.page"]),
        fc.integer({ min: 101 }).map((size): [string, unknown, string] => ["vaults", { size }, "query.size"]),
        fc.integer({ max: -1 }).map((size): [string, unknown, string] => ["vaults", { size }, "query.size"]),
        fc.integer({ min: 401 }).map((size): [string, unknown, string] => ["users", { size }, "query.size"]),
        fc
          .double({ min: 0.001, max: 399.999, noNaN: true })
          .filter((n) => !Number.isInteger(n))
          .map((size): [string, unknown, string] => ["users", { size }, "query.size"]),
        fc
          .tuple(
            fc.array(uuid, { maxLength: 3 }),
            queryText.filter((t) => !/^[0-9a-f-]{36}$/i.test(t)),
          )
          .map(([ok, bad]): [string, unknown, string] => [
            "users",
            { user_ids: [...ok, bad] },
            `query.user_ids.${ok.length}`,
          ]),
        fc
          .constantFrom("yes", "1", "TRUE", "")
          .map((v): [string, unknown, string] => ["users", { include_deleted: v }, "query.include_deleted"]),
      );
      await fc.assert(
        fc.asyncProperty(broken, async ([list, query, loc]) => {
          await refused(
            () => (list === "users" ? client.users.list(query as never) : client.vaults.list(query as never)),
            loc,
          );
        }),
        { numRuns: RUNS * 2 },
      );
    });
  });
});
