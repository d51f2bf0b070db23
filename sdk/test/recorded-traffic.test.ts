// Recorded real traffic, replayed: every exchange of sdk/test/fixtures/recorded-traffic on the package's endpoints
// goes through the real client, against a loopback server that answers with the recorded status and body.
// For each exchange, five checks:
// - request: the client sends what a real client sent (or, where the service answered 422, refuses it itself
//   at the field the service named);
// - request: what arrives is the recorded method, path, query and body;
// - outcome: a 2xx resolves; an error status rejects with its class and code;
// - body: a 2xx resolves to the body as it arrived; an error keeps the service's title, detail and error type;
// - issues: a 2xx body that the service really sends is not flagged as breaking its schema.
// The count of checks and of failures is printed at the end, like the emulator's conformance suite does.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type LoopbackServer, startLoopbackServer, VENDOR_DOCUMENT } from "@pulumi-custody/testing";
import {
  type CustodyClient,
  CustodyError,
  CustodyErrorCode,
  CustodyValidationError,
  responseValidationIssues,
} from "../index";
import { type EndpointName, type EndpointSpec, endpoints } from "../schema/endpoints";
import { FIXTURES, fixture, testClient } from "./helpers";

interface Exchange {
  recording: string;
  method: string;
  path: string;
  query: string;
  requestBody: unknown;
  status: number;
  responseBody: unknown;
}

const recorded = (
  JSON.parse(fs.readFileSync(path.join(FIXTURES, "recorded-traffic", "exchanges.json"), "utf8")) as {
    exchanges: Exchange[];
  }
).exchanges;

/**
 * The other shape real `createTransaction` answers have (docs/api-notes.md, "Transactions"): the signing vault
 * in `managed_transaction_data.vault` as `{id, name, state}` only. Made from each recorded answer by leaving
 * out the vault's other fields.
 */
const withBareVault: Exchange[] = recorded
  .filter((e) => e.path === "/api/v1/transactions" && e.status < 300)
  .map((e) => {
    const body = structuredClone(e.responseBody) as {
      managed_transaction_data: { vault: Record<string, unknown> };
    };
    const { id, name, state } = body.managed_transaction_data.vault;
    body.managed_transaction_data.vault = { id, name, state };
    return { ...e, recording: `${e.recording}, vault as {id, name, state}`, responseBody: body };
  });

const exchanges = [...recorded, ...withBareVault];

/** The endpoint of the table a recorded request went to, with its path parameters. */
function endpointOf(
  method: string,
  path: string,
): { name: EndpointName; pathParams: Record<string, string> } {
  for (const [name, spec] of Object.entries(endpoints) as [EndpointName, EndpointSpec][]) {
    if (spec.method !== method) continue;
    const names = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    const match = new RegExp(`^${spec.path.replace(/\{\w+\}/g, "([^/]+)")}$`).exec(path);
    if (match)
      return { name, pathParams: Object.fromEntries(names.map((n, i) => [n, match[i + 1] as string])) };
  }
  throw new Error(`no endpoint for ${method} ${path}`);
}

/** The recorded query string as the client's query object, typed by the document's parameter schemas. */
function queryOf(spec: EndpointSpec, raw: string): Record<string, unknown> {
  const parameters = VENDOR_DOCUMENT.paths[spec.path]?.[spec.method.toLowerCase()]?.parameters ?? [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const schema = parameters.find((p) => p.name === key)?.schema ?? {};
    if (schema.type === "array") out[key] = [...((out[key] as string[] | undefined) ?? []), value];
    else if (schema.type === "integer") out[key] = Number(value);
    else if (schema.type === "boolean") out[key] = value === "true";
    else out[key] = value;
  }
  return out;
}

/** A query string as sorted `key=value` pairs, so that two orders of the same parameters compare equal. */
const pairs = (raw: string) => [...new URLSearchParams(raw)].map(([k, v]) => `${k}=${v}`).sort();

const tally = { checks: 0, failed: [] as string[] };

describe("sdk: recorded real traffic, replayed through the client", function () {
  this.timeout(60_000);
  let server: LoopbackServer;
  let client: CustodyClient;
  before(async () => {
    server = await startLoopbackServer();
    ({ client } = testClient(server, { apiUserPrivateKey: fixture("api-user-p256.pem"), maxRetries: 0 }));
  });
  after(async () => {
    await client.close();
    await server.close();
    console.log(
      `      recorded traffic: ${exchanges.length} exchanges, ${tally.checks} checks, ${tally.failed.length} failed`,
    );
  });

  it("the fixture holds exchanges of writes and reads, successes and errors", () => {
    const kinds = new Set(exchanges.map((e) => `${e.method} ${e.status < 300 ? "2xx" : "error"}`));
    assert.deepEqual([...kinds].sort(), ["GET 2xx", "POST 2xx", "POST error"]);
  });

  for (const exchange of exchanges) {
    it(`${exchange.recording}: ${exchange.method} ${exchange.path} → ${exchange.status}`, async () => {
      const failed: string[] = [];
      const check = (what: string, test: () => void) => {
        tally.checks++;
        try {
          test();
        } catch (err) {
          const line = `${exchange.recording}: ${what}: ${(err as Error).message.split("\n")[0]}`;
          failed.push(line);
          tally.failed.push(line);
        }
      };

      const { name, pathParams } = endpointOf(exchange.method, exchange.path);
      const spec: EndpointSpec = endpoints[name];
      const before = server.requests.length;
      // A handler, not the queue: a request refused before sending must not leave its answer to the next one.
      server.setHandler(() => ({ status: exchange.status, body: exchange.responseBody ?? undefined }));
      let result: unknown;
      let error: unknown;
      try {
        result = await client.request(name, {
          pathParams,
          query: spec.query ? queryOf(spec, exchange.query) : undefined,
          body: exchange.requestBody ?? undefined,
        });
      } catch (err) {
        error = err;
      }
      const sent = server.requests.slice(before);
      const refusedByService = exchange.status === 422;
      const recordedIssues = (exchange.responseBody as { detail?: { loc: unknown[] }[] } | null)?.detail;

      if (refusedByService) {
        check("a request the service refused with 422 is refused at the field the service named", () => {
          assert.ok(error instanceof CustodyValidationError, String(error));
          const locs = error.issues.map((i) => JSON.stringify(i.loc));
          for (const issue of recordedIssues ?? [])
            assert.ok(locs.includes(JSON.stringify(issue.loc)), locs.join());
        });
      } else {
        check("the client sends the request a real client sent", () => {
          assert.ok(!(error instanceof CustodyValidationError && error.status === undefined), String(error));
          assert.equal(sent.length, 1);
        });
      }
      check("what arrives is the recorded method, path, query and body", () => {
        if (refusedByService && sent.length === 0) return; // refused before sending: nothing to compare
        const got = sent[0];
        assert.ok(got, "nothing was sent");
        assert.equal(got.method, exchange.method);
        assert.equal(got.path, exchange.path);
        assert.deepEqual(pairs(got.rawQuery), pairs(exchange.query));
        assert.deepEqual(got.body === "" ? null : JSON.parse(got.body), exchange.requestBody);
      });

      if (exchange.status < 300) {
        check("a 2xx resolves: the call took effect, or the read succeeded", () => {
          assert.equal(error, undefined, error instanceof Error ? error.message : String(error));
        });
        check("it resolves to the body as it arrived", () => assert.deepEqual(result, exchange.responseBody));
        check("no field of a body the service really sends is flagged", () =>
          assert.deepEqual(result === undefined ? [] : responseValidationIssues(result), []),
        );
      } else {
        check("an error status rejects with its class and code", () => {
          assert.ok(CustodyError.isCustodyError(error), String(error));
          const expected =
            exchange.status === 400
              ? CustodyErrorCode.BAD_REQUEST
              : [CustodyErrorCode.VALIDATION, CustodyErrorCode.INVALID_REQUEST];
          if (Array.isArray(expected)) assert.ok(expected.includes(error.code as never), error.code);
          else assert.equal(error.code, expected);
        });
        check("the error keeps what the service said", () => {
          assert.ok(CustodyError.isCustodyError(error));
          if (error.status === undefined) return; // refused locally: the service said nothing
          const body = exchange.responseBody as Record<string, unknown>;
          assert.equal(error.title, body.title);
          if (typeof body.detail === "string") assert.equal(error.detail, body.detail);
          assert.equal(error.errorType, body.error_type);
          assert.deepEqual(error.rawBody(), body);
        });
        check("an error is no success", () => assert.equal(result, undefined));
      }
      assert.deepEqual(failed, []);
    });
  }
});
