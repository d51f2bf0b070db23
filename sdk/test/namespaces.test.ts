/**
 * The namespaces against the endpoint table: every method of every namespace of the client, called against a
 * scripted server, sends exactly the method and path the table gives its endpoint, and the namespaces together
 * reach every endpoint of the table.
 */
import { strict as assert } from "node:assert";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import type { CustodyClient } from "../index";
import { type CallMethodSpec, declarationOf, type ListAllMethodSpec } from "../resources/define-namespace";
import { type EndpointName, endpoints } from "../schema/endpoints";
import { evmTransferRequest, fixture, IDS, testClient } from "./helpers";

/** A valid body for each endpoint that takes one (the client validates it before sending). */
const BODIES: Partial<Record<EndpointName, unknown>> = {
  createVault: { type: "evm", name: "treasury" },
  submitVaultChangeProposal: {
    diff: { added_vault_group_ids: [IDS.vaultGroup], removed_vault_group_ids: [] },
  },
  createVaultAddress: { name: "deposit-1", address_type: "segwit" },
  createTransaction: evmTransferRequest,
  testWebhook: { url: "https://hooks.example.com/custody" },
};

/** Distinct ids, one per id argument of a call, in order. */
const ARG_IDS = [IDS.vault, IDS.asset, IDS.address];

interface MethodCase {
  /** e.g. `vaults.addresses.rename`. */
  title: string;
  namespace: object;
  member: string;
  spec: CallMethodSpec | ListAllMethodSpec;
}

/** Every method of every namespace (and sub-namespace) of the client, from the live objects. */
function methodsOf(client: CustodyClient): MethodCase[] {
  const cases: MethodCase[] = [];
  const walk = (namespace: object, prefix: string) => {
    const spec = declarationOf(namespace);
    assert.ok(spec, `${prefix} is built from a declaration`);
    // Every function of the namespace is a declared method (nothing hand-written beside the declaration).
    const proto = Object.getPrototypeOf(namespace) as object;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === "constructor") continue;
      assert.ok(name in spec && typeof spec[name] !== "function", `${prefix}.${name} is declared`);
    }
    for (const [member, entry] of Object.entries(spec)) {
      const title = `${prefix}.${member}`;
      if (typeof entry === "function") {
        walk((namespace as Record<string, object>)[member]!, title);
      } else {
        assert.equal(
          typeof (namespace as Record<string, unknown>)[member],
          "function",
          `${title} is a method`,
        );
        cases.push({ title, namespace, member, spec: entry });
      }
    }
  };
  for (const [key, value] of Object.entries(client)) {
    if (declarationOf(value)) walk(value as object, key);
  }
  return cases;
}

/** The positional arguments of a call: ids (distinct, in order), `{}` for a query, a valid body, a name. */
function argumentsOf(c: MethodCase, endpoint: EndpointName): { values: unknown[]; ids: string[] } {
  const ids: string[] = [];
  const values = c.spec.args.map((arg) => {
    if (arg === "query") return {};
    if (arg === "name") return "renamed";
    if (arg === "body") {
      assert.ok(endpoint in BODIES, `a sample body for ${endpoint}`);
      return BODIES[endpoint];
    }
    const id = ARG_IDS[ids.length]!;
    ids.push(id);
    return id;
  });
  return { values, ids };
}

/** The table's path template as a pattern: each `{param}` is one UUID. */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("([0-9a-f-]{36})")}$`);
}

describe("sdk namespaces: every method sends its endpoint's method and path from the table", () => {
  let server: LoopbackServer;
  let client: CustodyClient;
  const reached = new Set<EndpointName>();

  before(async () => {
    server = await startLoopbackServer();
    // Lists answer an empty page (so `listAll` stops after one request); everything else a 404, never retried.
    server.setHandler((req) => {
      const list = Object.values(endpoints).find(
        (e) => "list" in e && e.method === req.method && templatePattern(e.path).test(req.path),
      );
      if (list && "list" in list) {
        return { body: { total: 0, page: 1, size: list.list.maxPageSize, [list.list.itemsKey]: [] } };
      }
      return { status: 404, body: { title: "Not Found", detail: "scripted", resource: "vault" } };
    });
    ({ client } = testClient(server, { apiUserPrivateKey: fixture("api-user-p256.pem"), maxRetries: 0 }));
  });

  after(async () => {
    await client.close();
    await server.close();
  });

  const cases = (() => {
    // The client is built in `before`; the case list needs one now, so a throwaway one lists the methods.
    const { client: lister } = testClient({ url: "http://127.0.0.1:9" } as LoopbackServer);
    void lister.close();
    return methodsOf(lister);
  })();

  it("finds the methods of every namespace", () => {
    assert.ok(cases.length >= 28, `found ${cases.length} methods`);
  });

  for (const c of cases) {
    const endpoint = "listAll" in c.spec ? c.spec.listAll : c.spec.endpoint;
    const spec = endpoints[endpoint];
    it(`${c.title}: the ${endpoint} endpoint (${spec.method} ${spec.path})`, async () => {
      const namespace = methodsOf(client).find((m) => m.title === c.title)!.namespace as Record<
        string,
        (...args: unknown[]) => unknown
      >;
      const { values, ids } = argumentsOf(c, endpoint);
      const before = server.requests.length;
      const result = namespace[c.member]!(...values);
      try {
        if ("listAll" in c.spec) {
          for await (const _ of result as AsyncIterable<unknown>);
        } else {
          await result;
        }
      } catch {
        // The scripted 404 of a call: only the request matters here.
      }
      assert.equal(server.requests.length, before + 1, "exactly one request");
      const req = server.requests[before]!;
      assert.equal(req.method, spec.method, "the table's method");
      const match = templatePattern(spec.path).exec(req.path);
      assert.ok(match, `${req.path} is the table's path ${spec.path}`);
      assert.deepEqual(match.slice(1), ids, "the id arguments fill the path's placeholders in order");
      reached.add(endpoint);
    });
  }

  it("reaches every endpoint of the table from some namespace method", () => {
    const declared = new Set(cases.map((c) => ("listAll" in c.spec ? c.spec.listAll : c.spec.endpoint)));
    assert.deepEqual([...declared].sort(), Object.keys(endpoints).sort(), "the namespaces cover the table");
    assert.deepEqual([...reached].sort(), Object.keys(endpoints).sort(), "every endpoint was called");
  });
});
