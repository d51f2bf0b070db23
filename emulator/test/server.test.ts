// The HTTP pipeline through raw requests: auth, request ids, error mapping, content types, limits.
import assert from "node:assert/strict";
import { endpoints } from "@pulumi-custody/sdk/schema";
import { assertError, assertValidationIssue, type Harness, startHarness } from "@pulumi-custody/testing";
import { request } from "undici";

describe("emulator: HTTP pipeline", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it("answers 401 BaseError without a token and with an unknown token", async () => {
    const none = await h.api("GET", "/api/v1/vaults", { token: null });
    assertError(none, 401);
    assert.match(none.body.detail, /Authorization/);
    const wrong = await h.api("GET", "/api/v1/vaults", { token: "not-a-token" });
    assertError(wrong, 401);
    const notBearer = await h.api("GET", "/api/v1/vaults", {
      token: null,
      headers: { authorization: h.emulator.accessToken },
    });
    assertError(notBearer, 401);
  });

  it("lets the viewer token read and answers 403 on every write", async () => {
    const read = await h.api("GET", "/api/v1/vaults", { token: h.emulator.viewerAccessToken });
    assert.equal(read.status, 200);
    const writes = Object.values(endpoints).filter((e) => e.method !== "GET");
    assert.ok(writes.length >= 10);
    for (const e of writes) {
      const path = e.path.replace(/\{\w+\}/g, "00000000-0000-4000-8000-000000000000");
      const res = await h.api(e.method, path, { token: h.emulator.viewerAccessToken, json: {} });
      assertError(res, 403);
    }
    const vaults = await h.api("GET", "/api/v1/vaults", { query: { names: "viewer must not create" } });
    assert.equal(vaults.body.total, 0);
  });

  it("sends x-request-id on every response, equal to request_id of errors, unique per request", async () => {
    const ok = await h.api("GET", "/api/v1/blockchains");
    const err = await h.api("GET", "/api/v1/vaults/not-a-uuid");
    const control = await h.api("GET", "/__emulator/health", { token: null });
    const ids = [ok, err, control].map((r) => r.headers["x-request-id"]);
    for (const id of ids) assert.match(String(id), /^[0-9a-f-]{36}$/);
    assert.equal(new Set(ids).size, 3);
    assert.equal(err.body.request_id, err.headers["x-request-id"]);
  });

  it("answers an unknown path with the real 404 body (resource: path)", async () => {
    const res = await h.api(
      "GET",
      "/api/v1/vaults/00000000-0000-4000-8000-000000000000/addresses/00000000-0000-4000-8000-000000000001",
    );
    assertError(res, 404, { title: "Not found", resource: "path" });
    assert.match(res.body.detail, /^Path \/api\/v1\/vaults\/.* not found$/);
    const other = await h.api("DELETE", "/api/v1/vaults");
    assertError(other, 404, { resource: "path" });
  });

  it("answers malformed JSON with 422 json_invalid, never 500", async () => {
    const res = await h.api("POST", "/api/v1/vaults", { body: '{"name": "x", ' });
    assertValidationIssue(res, ["body", 14], "json_invalid");
    const garbage = await h.api("PUT", "/api/v1/vaults/00000000-0000-4000-8000-000000000000/name", {
      body: "\u0000\u0001",
    });
    assert.equal(garbage.status, 422);
  });

  it("answers an absent required body with loc [body], type missing", async () => {
    const res = await h.api("POST", "/api/v1/vaults", { headers: { "content-type": "application/json" } });
    assert.deepEqual(res.body.detail, [{ loc: ["body"], msg: "Field required", type: "missing" }]);
    assertError(res, 422);
    const noType = await h.api("POST", "/api/v1/vaults");
    assertValidationIssue(noType, ["body"], "missing");
  });

  it("answers a non-JSON content type with 415 and a text body with 422", async () => {
    const form = await h.api("POST", "/api/v1/vaults", {
      body: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assertError(form, 415, { title: "Unsupported media type" });
    assert.match(form.body.detail, /application\/x-www-form-urlencoded/);
    const text = await h.api("POST", "/api/v1/vaults", {
      body: "hello",
      headers: { "content-type": "text/plain" },
    });
    assertValidationIssue(text, ["body"], "model_attributes_type");
  });

  it("answers a body over 1 MiB with 413", async () => {
    const res = await h.api("POST", "/api/v1/vaults", {
      body: JSON.stringify({ name: "x".repeat(1_100_000), type: "evm" }),
    });
    assertError(res, 413, { title: "Payload too large" });
  });

  it("answers a malformed URL with 400 of the same shape", async () => {
    const res = await h.api("GET", "/api/v1/vaults/%E0%A4%A");
    assertError(res, 400);
  });

  it("reports every validation issue of path, query and body in one 422", async () => {
    const res = await h.api("PUT", "/api/v1/vaults/not-a-uuid/name", { json: { name: "" } });
    assertValidationIssue(res, ["path", "id"], "uuid_parsing");
    assertValidationIssue(res, ["body", "name"], "string_too_short");
    const q = await h.api("GET", "/api/v1/vaults", {
      query: { size: 101, page: 0, sort_by: "bogus", vault_types: "evm" },
    });
    assertValidationIssue(q, ["query", "size"], "less_than_equal");
    assertValidationIssue(q, ["query", "page"], "greater_than_equal");
    assertValidationIssue(q, ["query", "sort_by", 0], "enum");
    assert.equal(q.body.detail.length, 3);
  });

  it("words enum errors like the real service", async () => {
    const vaults = await h.api("GET", "/api/v1/vaults", { query: { names: "BTC Cold Storage" } });
    const id = vaults.body.vaults[0].id;
    const res = await h.api("POST", `/api/v1/vaults/${id}/addresses`, { json: { address_type: "p2sh" } });
    assertValidationIssue(res, ["body", "address_type"], "enum");
    assert.equal(res.body.detail[0].msg, "Input should be 'legacy', 'segwit' or 'taproot'");
  });

  it("refuses what the service does not know, though the sdk would send it (closed enums and unions)", async () => {
    const vault = await h.api("POST", "/api/v1/vaults", { json: { name: "Later", type: "quantum" } });
    assertValidationIssue(vault, ["body", "type"], "union_tag_invalid");
    const options = vault.body.detail.find((d: { loc: unknown[] }) => d.loc.join(".") === "body.type").msg;
    assert.match(options, /evm/, "the message lists the vault types the service knows");
    const list = await h.api("GET", "/api/v1/vaults", { query: { vault_types: "quantum" } });
    assertValidationIssue(list, ["query", "vault_types", 0], "enum");
  });

  it("sends rate-limit headers on every API response, a large nominal limit when unlimited", async () => {
    const res = await h.api("GET", "/api/v1/users");
    assert.match(String(res.headers["x-ratelimit-limit"]), /^(\d+), \1;w=60$/);
    assert.ok(Number(res.headers["x-ratelimit-limit"]!.toString().split(",")[0]) >= 100_000);
    assert.match(String(res.headers["x-ratelimit-remaining"]), /^\d+$/);
    assert.match(String(res.headers["x-ratelimit-reset"]), /^\d+$/);
    const unauthenticated = await h.api("GET", "/api/v1/users", { token: null });
    assert.ok(unauthenticated.headers["x-ratelimit-limit"]);
  });

  it("serves an OpenAPI 3.1 document with every path of the table, security and error schemas", async () => {
    const res = await h.api("GET", "/openapi.json", { token: null });
    assert.equal(res.status, 200);
    const doc = res.body;
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(doc.info.version, "0.2.0");
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, {
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
    });
    for (const name of [
      "BaseError",
      "ResourceError",
      "PreconditionFailedError",
      "ValidationError",
      "RateLimitError",
    ]) {
      assert.ok(doc.components.schemas[name], name);
    }
    for (const [name, e] of Object.entries(endpoints)) {
      const op = doc.paths[e.path]?.[e.method.toLowerCase()];
      assert.ok(op, `${e.method} ${e.path}`);
      assert.equal(op.operationId, name);
      assert.ok(op.responses[String(e.successStatus)], `${name} success response`);
      assert.ok(op.responses["422"] && op.responses["401"], `${name} error responses`);
    }
    const list = doc.paths["/api/v1/vaults"].get.parameters;
    const ids = list.find((p: { name: string }) => p.name === "vault_ids");
    assert.equal(ids.schema.type, "array");
    assert.equal(ids.explode, true);
    const tx = doc.paths["/api/v1/transactions"].post.parameters.map((p: { name: string }) => p.name);
    assert.deepEqual(tx, ["x-signature", "x-timestamp", "x-idempotence-id"]);
  });

  it("keeps serving while a client drops its connection mid-request", async () => {
    const controller = new AbortController();
    const pending = request(`${h.emulator.baseUrl}/api/v1/vaults`, {
      method: "GET",
      headers: { authorization: `Bearer ${h.emulator.accessToken}` },
      signal: controller.signal,
    }).catch((e: Error) => e);
    controller.abort();
    assert.ok((await pending) instanceof Error);
    const res = await h.api("GET", "/api/v1/vaults");
    assert.equal(res.status, 200);
  });
});
