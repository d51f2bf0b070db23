// Fuzzing with fast-check: thousands of random and malformed requests (paths among the endpoint table,
// query strings, JSON and non-JSON bodies, headers, signatures) never get a 500 and never crash the
// emulator. Webhook URLs are forced to a closed loopback port, so nothing leaves the machine.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { type EndpointSpec, endpoints, TRANSACTION_TYPES, VAULT_TYPES } from "@pulumi-custody/sdk/schema";
import { type Harness, type Loose, signMessage, startHarness } from "@pulumi-custody/testing";
import fc from "fast-check";
import { Agent, request } from "undici";
import { CHAINS } from "../seed/chains";

const SPECS = Object.entries(endpoints) as [string, EndpointSpec][];
const NAME_POOL = Array.from({ length: 12 }, (_, i) => `fuzz vault ${i}`);

describe("emulator: fuzzing", function () {
  this.timeout(120_000);
  let h: Harness;
  let agent: Agent;
  let vaultIds: string[];
  let loopbackUrl: string;
  const seen = new Map<number, number>();

  before(async () => {
    h = await startHarness();
    agent = new Agent({ connections: 8 });
    vaultIds = (await h.api("GET", "/api/v1/vaults", { query: { size: 100 } })).body.vaults.map(
      (v: Loose) => v.id,
    );
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((r) => server.close(() => r()));
    loopbackUrl = `http://127.0.0.1:${port}/hook`;
    await h.emulator.control.setWebhookSettings({ timeoutMs: 200 });
  });
  after(async () => {
    await agent.close();
    await h.close();
  });

  interface FuzzRequest {
    method: string;
    path: string;
    query: string;
    body?: string;
    headers: Record<string, string>;
    sign: boolean;
  }

  const weird = fc.oneof(
    fc.string(),
    fc.string({ unit: "grapheme" }),
    fc.constantFrom(
      "",
      " ",
      "%",
      "%zz",
      "..",
      "../..",
      "null",
      "true",
      "-1",
      "0",
      "1e309",
      "\u0000",
      "a".repeat(3000),
    ),
  );
  const id = fc.oneof(
    fc.uuid(),
    fc.constantFrom(...(["00000000-0000-4000-8000-000000000000"] as string[])),
    weird,
  );
  const token = (emulatorTokens: () => string[]) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(0).map((i) => emulatorTokens()[i]) },
      { weight: 1, arbitrary: fc.constant(1).map((i) => emulatorTokens()[i]) },
      { weight: 1, arbitrary: fc.oneof(fc.constant(undefined), weird) },
    );
  const queryValue = fc.oneof(
    weird,
    fc.integer({ min: -5, max: 1000 }).map(String),
    fc.constantFrom(
      "true",
      "false",
      "evm",
      "utxo",
      "name_asc",
      "created_at_desc",
      "active",
      "archived",
      "evm_1",
      "bitcoin_mainnet",
    ),
    fc.uuid(),
  );

  function queryArb(spec: EndpointSpec | undefined) {
    const keys = spec?.query ? Object.keys(spec.query.shape) : [];
    const key = keys.length > 0 ? fc.oneof(fc.constantFrom(...keys), weird) : weird;
    return fc.array(fc.tuple(key, queryValue), { maxLength: 6 }).map((pairs) => {
      const params = new URLSearchParams();
      for (const [k, v] of pairs) params.append(k, v);
      const s = params.toString();
      return s ? `?${s}` : "";
    });
  }

  /** Bodies that look like the real ones, with fields drawn from valid and invalid values. */
  const vaultBody = fc.record(
    {
      name: weird,
      type: fc.oneof(fc.constantFrom(...VAULT_TYPES), weird),
      chain: fc.oneof(fc.constantFrom("bitcoin_mainnet", "dogecoin_mainnet", "pearl_testnet"), weird),
      key_type: fc.oneof(fc.constantFrom("ecdsa_stark", "eddsa_ed25519"), weird),
      address: fc.oneof(fc.constant("0x1234567890abcdef1234567890abcdef12345678"), weird),
      vault_group_id: id,
      end_user_id: fc.uuid(),
      import_options: fc.oneof(
        fc.record({
          origin: fc.constant("external_signer"),
          public_key_compressed: fc.oneof(weird, fc.base64String()),
        }),
        fc.record({ origin: fc.constant("imported_keys"), key_id: fc.uuid(), derivation_path: weird }),
      ),
    },
    { requiredKeys: [] },
  );
  const chainId = fc.oneof(fc.constantFrom(...CHAINS.map((c) => c.unique_id)), weird);
  const transactionBody = fc.record(
    {
      vault_id: fc.oneof(fc.constantFrom(...["00000000-0000-4000-8000-000000000000"]), fc.uuid(), weird),
      type: fc.oneof(fc.constantFrom(...TRANSACTION_TYPES), weird),
      note: weird,
      details: fc.oneof(
        fc.record({
          type: fc.constantFrom(
            "evm_transfer",
            "evm_raw_transaction",
            "solana_transfer",
            "utxo_transfer",
            "other",
          ),
          to: fc.oneof(
            fc.constant("0x1111111111111111111111111111111111111111"),
            weird,
            fc.record({
              type: fc.constantFrom("vault_id", "hex", "contact_id"),
              vault_id: fc.uuid(),
              address: weird,
            }),
          ),
          chain: fc.oneof(chainId, fc.integer()),
          value: fc.oneof(
            fc.record({
              type: fc.constantFrom("value", "max"),
              value: fc.oneof(fc.bigInt({ min: 0n }).map(String), weird),
            }),
            fc.bigInt({ min: 0n }).map(String),
          ),
          asset_identifier: fc.record({
            type: fc.constantFrom("evm", "solana"),
            details: fc.record({
              type: fc.constantFrom("native", "erc20", "spl_token"),
              chain: chainId,
              token: fc.record({ chain: chainId, hex_repr: weird, base58_repr: weird }),
            }),
          }),
          outputs: fc.array(fc.record({ to: weird, value: fc.bigInt({ min: 0n }).map(String) }), {
            maxLength: 3,
          }),
          data: fc.record({ type: fc.constantFrom("hex", "base64"), hex_data: weird, raw_data: weird }),
        }),
        fc.jsonValue(),
      ),
    },
    { requiredKeys: [] },
  );
  const anyBody = fc.oneof(
    { weight: 4, arbitrary: vaultBody.map((b) => JSON.stringify(b)) },
    // Mostly valid creates and renames over a small pool of names, so that 201, 204 and 409 all happen.
    {
      weight: 4,
      arbitrary: fc
        .record({
          name: fc.constantFrom(...NAME_POOL),
          type: fc.constantFrom("evm", "solana", "tron", "aptos"),
        })
        .map((b) => JSON.stringify(b)),
    },
    fc.constant(undefined),
    fc.json(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    weird,
    vaultBody.map((b) => JSON.stringify(b)),
    transactionBody.map((b) => JSON.stringify(b)),
    fc.record({ name: weird }).map((b) => JSON.stringify(b)),
    fc
      .record({
        diff: fc.record(
          { added_vault_group_ids: fc.array(id), removed_vault_group_ids: fc.array(id) },
          { requiredKeys: [] },
        ),
      })
      .map((b) => JSON.stringify(b)),
    fc
      .record(
        {
          address_type: fc.oneof(fc.constantFrom("legacy", "segwit", "taproot", "p2sh"), weird),
          name: weird,
        },
        { requiredKeys: [] },
      )
      .map((b) => JSON.stringify(b)),
  );

  const requestArb = (tokens: () => string[]) =>
    fc
      .record({
        specIndex: fc.oneof(
          { weight: 9, arbitrary: fc.integer({ min: 0, max: SPECS.length - 1 }) },
          { weight: 1, arbitrary: fc.constant(-1) },
        ),
        method: fc.oneof(
          fc.constantFrom("GET", "POST", "PUT"),
          fc.constantFrom("DELETE", "PATCH", "OPTIONS", "HEAD"),
        ),
        keepMethod: fc.oneof(
          { weight: 5, arbitrary: fc.constant(true) },
          { weight: 1, arbitrary: fc.constant(false) },
        ),
        params: fc.array(
          fc.oneof({ weight: 1, arbitrary: id }, { weight: 3, arbitrary: fc.constantFrom(...vaultIds) }),
          { minLength: 2, maxLength: 2 },
        ),
        randomPath: fc.oneof(
          weird.map((s) => `/api/v1/${encodeURIComponent(s)}`),
          fc.webPath(),
          weird.map((s) => `/${s}`),
        ),
        body: anyBody,
        contentType: fc.oneof(
          { weight: 8, arbitrary: fc.constant("application/json") },
          fc.constantFrom(
            undefined,
            "text/plain",
            "application/x-www-form-urlencoded",
            "application/json; charset=utf-8",
            "multipart/form-data; boundary=x",
            "application/octet-stream",
          ),
          weird,
        ),
        authorization: token(tokens),
        extraHeaders: fc.dictionary(
          fc.constantFrom("x-timestamp", "x-signature", "x-idempotence-id", "x-request-id", "accept"),
          weird,
          { maxKeys: 3 },
        ),
        sign: fc.boolean(),
        timestamp: fc.oneof(fc.constant(undefined), fc.integer().map(String), weird),
      })
      .chain((r) => {
        const spec = r.specIndex >= 0 ? SPECS[r.specIndex]![1] : undefined;
        return queryArb(spec).map((query) => ({ ...r, spec, query }));
      })
      .map((r): FuzzRequest => {
        let path: string;
        if (r.spec) {
          let i = 0;
          path = r.spec.path.replace(/\{\w+\}/g, () => encodeURIComponent(r.params[i++] ?? ""));
        } else {
          path = r.randomPath;
        }
        const method = r.spec && r.keepMethod ? r.spec.method : r.method;
        let body = method === "GET" || method === "HEAD" ? undefined : r.body;
        // Webhook test deliveries only ever go to a closed loopback port.
        if (path.startsWith("/api/v1/webhooks/test") && body !== undefined) {
          try {
            const parsed = JSON.parse(body);
            if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
              body = JSON.stringify({ ...parsed, url: loopbackUrl });
          } catch {
            // Not JSON: it cannot carry a URL the emulator would call.
          }
        }
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.extraHeaders)) if (/^[\t\x20-\x7e]*$/.test(v)) headers[k] = v;
        if (r.contentType !== undefined && body !== undefined && /^[\t\x20-\x7e]*$/.test(r.contentType))
          headers["content-type"] = r.contentType;
        if (r.authorization !== undefined && /^[\t\x20-\x7e]*$/.test(r.authorization))
          headers.authorization = `Bearer ${r.authorization}`;
        return { method, path, query: r.query, body, headers, sign: r.sign && body !== undefined };
      });

  async function send(req: FuzzRequest): Promise<void> {
    const headers = { ...req.headers };
    if (req.sign) {
      const ts = String(Date.now());
      headers["x-timestamp"] = ts;
      headers["x-signature"] = signMessage(h.emulator.apiUserPrivateKeyPem, req.path, ts, req.body ?? "");
      headers["x-idempotence-id"] = randomUUID();
    }
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(`${h.emulator.baseUrl}${req.path}${req.query}`, {
        method: req.method as "GET",
        headers,
        body: req.body,
        dispatcher: agent,
      });
    } catch (err) {
      // undici refuses some requests before sending them (invalid header or path); that is not the server's doing.
      const code = (err as { code?: string }).code;
      assert.ok(
        code === "UND_ERR_INVALID_ARG" || code === "ERR_INVALID_URL" || code === "ERR_INVALID_CHAR",
        `${code}: ${(err as Error).message}`,
      );
      return;
    }
    const text = await res.body.text();
    seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
    const label = `${req.method} ${req.path}${req.query} → ${res.statusCode} ${text.slice(0, 300)}`;
    assert.ok(res.statusCode < 500, label);
    assert.ok(res.headers["x-request-id"], label);
    if (res.statusCode >= 400 && req.method !== "HEAD") {
      const body = JSON.parse(text);
      assert.equal(typeof body.title, "string", label);
      assert.ok(body.detail !== undefined, label);
      assert.equal(body.request_id, res.headers["x-request-id"], label);
    }
  }

  it("answers thousands of random requests without a 500 or a crash", async () => {
    const tokens = () => [h.emulator.accessToken, h.emulator.viewerAccessToken];
    await fc.assert(fc.asyncProperty(requestArb(tokens), send), { numRuns: 2500, seed: 20250601 });
    await fc.assert(fc.asyncProperty(requestArb(tokens), send), { numRuns: 500 });
    assert.equal((await h.api("GET", "/__emulator/health", { token: null })).status, 200);
    assert.equal((await h.api("GET", "/api/v1/vaults")).status, 200);
    // The run reached deep into the handlers, not only the validation layer.
    for (const status of [200, 201, 204, 400, 401, 403, 404, 409, 415, 422]) {
      assert.ok((seen.get(status) ?? 0) > 0, `status ${status} seen: ${JSON.stringify([...seen.entries()])}`);
    }
  });
});
