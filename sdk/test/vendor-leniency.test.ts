// The sdk is never stricter than the service. Instances are generated from the service's published OpenAPI
// 0.2.0 document (a fixture we did not write), checked valid by a JSON Schema 2020-12 validator (ajv), and
// sent through the real client, whose HTTP layer is undici's MockAgent:
// - every request body, query and path of the 23 endpoints passes the sdk's local validation and is sent as
//   generated; every variant of every union in a request body is generated at least once;
// - every success response body parses, and the client returns it as it came;
// - "future" instances, with an enum value or a union variant that the document does not list yet, are kept
//   as they came, in requests and in responses.
import * as assert from "node:assert/strict";
import {
  checkBody,
  documentRef,
  FUTURE_VALUE,
  instancesOf,
  operationPointer,
  type UnionVariant,
  unionVariants,
  VENDOR_DOCUMENT,
} from "@pulumi-custody/testing";
import fc from "fast-check";
import { MockAgent } from "undici";
import { CustodyClient, CustodyValidationError } from "../index";
import { type EndpointName, type EndpointSpec, endpoints } from "../schema/endpoints";
import { fixture, TOKEN } from "./helpers";

const ORIGIN = "https://custody.test";
/** Random instances per schema, besides the ones steered through each union variant. */
const RANDOM_RUNS = 25;
/** Instances steered through each union variant. */
const RUNS_PER_VARIANT = 2;

interface Exchange {
  method: string;
  path: string;
  body?: unknown;
}

/** A client whose requests go to a mock that answers with `reply` and records what was sent. */
function mockedClient() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const sent: Exchange[] = [];
  let reply: { status: number; body?: unknown } = { status: 204 };
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply((options) => {
      sent.push({
        method: options.method,
        path: String(options.path),
        body: typeof options.body === "string" ? JSON.parse(options.body) : undefined,
      });
      return {
        statusCode: reply.status,
        data: reply.body === undefined ? "" : JSON.stringify(reply.body),
        responseOptions: { headers: { "content-type": "application/json" } },
      };
    })
    .persist();
  const client = new CustodyClient({
    baseUrl: ORIGIN,
    accessToken: TOKEN,
    apiUserPrivateKey: fixture("api-user-p256.pem"),
    requestsPerMinute: 0,
    maxRetries: 0,
    dispatcher: agent,
  });
  return {
    client,
    sent,
    answer(status: number, body?: unknown) {
      reply = { status, body };
    },
    close: () => agent.close(),
  };
}

function parametersOf(spec: EndpointSpec, where: "path" | "query") {
  return (VENDOR_DOCUMENT.paths[spec.path]?.[spec.method.toLowerCase()]?.parameters ?? [])
    .map((p, i) => ({ ...p, pointer: `${operationPointer(spec.path, spec.method)}/parameters/${i}/schema` }))
    .filter((p) => p.in === where);
}

/** Path parameters and a query (nulls left out: a query string cannot say null) from the document. */
function argumentsOf(
  spec: EndpointSpec,
  future = false,
): fc.Arbitrary<{ pathParams: Record<string, string>; query: object }> {
  const pathModel: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of parametersOf(spec, "path")) pathModel[p.name] = instancesOf(p.pointer);
  const queryModel: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  for (const p of parametersOf(spec, "query")) {
    queryModel[p.name] = instancesOf(p.pointer, { future });
    if (p.required) requiredKeys.push(p.name);
  }
  return fc.record({
    pathParams: fc.record(pathModel, { noNullPrototype: true }) as fc.Arbitrary<Record<string, string>>,
    query: fc
      .record(queryModel, { requiredKeys, noNullPrototype: true })
      .map((q) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== null))),
  });
}

const bodyPointer = (spec: EndpointSpec) =>
  `${operationPointer(spec.path, spec.method)}/requestBody/content/application~1json/schema`;
const responsePointer = (spec: EndpointSpec) =>
  `${operationPointer(spec.path, spec.method)}/responses/${spec.successStatus}/content/application~1json/schema`;

/** Random instances, then instances steered through each union variant reachable from `pointer`. */
function samples(pointer: string): {
  variants: UnionVariant[];
  arbitraries: { label: string; arb: fc.Arbitrary<unknown> }[];
} {
  const variants = unionVariants(pointer);
  return {
    variants,
    arbitraries: [
      { label: "random", arb: instancesOf(pointer) },
      ...variants.map((v) => ({
        label: `${v.label} (${v.union}/${v.index})`,
        arb: instancesOf(pointer, { through: v }),
      })),
    ],
  };
}

function runsFor(label: string): number {
  return label === "random" ? RANDOM_RUNS : RUNS_PER_VARIANT;
}

/** Asserts the generator made a valid instance: a test on invalid input would prove nothing. */
function assertValid(pointer: string, value: unknown, label: string): void {
  const problems = checkBody(documentRef(pointer), value);
  if (
    problems.length > 0 &&
    problems.some((p) => p.message !== "property not defined by the published schema")
  ) {
    assert.fail(
      `generated ${label} is not valid by the document: ${JSON.stringify(problems)}\n${JSON.stringify(value)}`,
    );
  }
}

const counts: { schema: string; instances: number; variants: number }[] = [];
/** Instances that carried a value the document does not list, per kind. */
const futures = { query: 0, body: 0, response: 0 };
const FUTURE_RUNS = 40;
const carriesFuture = (value: unknown) => JSON.stringify(value ?? null).includes(FUTURE_VALUE);

describe("sdk: never stricter than the service's published OpenAPI document", function () {
  this.timeout(600_000);
  let mock: ReturnType<typeof mockedClient>;
  before(() => {
    mock = mockedClient();
  });
  after(async () => {
    await mock.close();
    const instances = counts.reduce((a, c) => a + c.instances, 0);
    const variants = counts.reduce((a, c) => a + c.variants, 0);
    console.log(
      `      future values kept: ${futures.query} queries, ${futures.body} request bodies, ${futures.response} responses`,
    );
    console.log(
      `      generated: ${counts.length} schemas, ${instances} instances (${RANDOM_RUNS} random per schema + ${RUNS_PER_VARIANT} per union variant, ${variants} variants), failures: 0 unless listed above`,
    );
  });

  for (const [name, spec] of Object.entries(endpoints) as [EndpointName, EndpointSpec][]) {
    describe(`${name}: ${spec.method} ${spec.path}`, () => {
      it("accepts every path and query the document allows", async () => {
        let n = 0;
        await fc.assert(
          fc.asyncProperty(argumentsOf(spec), async ({ pathParams, query }) => {
            n++;
            mock.answer(spec.successStatus, spec.response ? await sampleResponse(spec) : undefined);
            mock.sent.length = 0;
            await mock.client.request(name, {
              pathParams,
              query,
              body: spec.body ? await sampleBody(spec) : undefined,
            });
            assert.equal(mock.sent.length, 1);
          }),
          { numRuns: RANDOM_RUNS },
        );
        counts.push({ schema: `${name} path+query`, instances: n, variants: 0 });
      });

      it("keeps enum values and union variants that a later release may add, in queries, bodies and responses, as they came", async () => {
        const pathParams = await samplePath(spec);
        const bodies = spec.body ? instancesOf(bodyPointer(spec), { future: true }) : fc.constant(undefined);
        const responses = spec.response
          ? instancesOf(responsePointer(spec), { future: true })
          : fc.constant(undefined);
        await fc.assert(
          fc.asyncProperty(argumentsOf(spec, true), bodies, responses, async ({ query }, body, response) => {
            mock.answer(spec.successStatus, response);
            mock.sent.length = 0;
            const got = await mock.client.request(name, { pathParams, query, body });
            if (spec.body) assert.deepEqual(mock.sent[0]?.body, body);
            if (spec.response) assert.deepEqual(got, response);
            if (carriesFuture(query)) futures.query++;
            if (carriesFuture(body)) futures.body++;
            if (carriesFuture(response)) futures.response++;
          }),
          { numRuns: FUTURE_RUNS },
        );
      });

      if (spec.body) {
        it("accepts every request body the document allows, every union variant included, and sends it as given", async () => {
          const pointer = bodyPointer(spec);
          const { variants, arbitraries } = samples(pointer);
          let n = 0;
          const pathParams = await samplePath(spec);
          for (const { label, arb } of arbitraries) {
            await fc.assert(
              fc.asyncProperty(arb, async (body) => {
                n++;
                assertValid(pointer, body, label);
                mock.answer(spec.successStatus, spec.response ? await sampleResponse(spec) : undefined);
                mock.sent.length = 0;
                try {
                  await mock.client.request(name, { pathParams, body });
                } catch (error) {
                  if (error instanceof CustodyValidationError)
                    assert.fail(`${label}: ${error.message}\n${JSON.stringify(body)}`);
                  throw error;
                }
                assert.deepEqual(mock.sent[0]?.body, body);
              }),
              { numRuns: runsFor(label) },
            );
          }
          counts.push({ schema: `${name} body`, instances: n, variants: variants.length });
        });
      }

      if (spec.response) {
        it(`parses every ${spec.successStatus} body the document allows, every union variant included, and returns it as it came`, async () => {
          const pointer = responsePointer(spec);
          const { variants, arbitraries } = samples(pointer);
          let n = 0;
          const pathParams = await samplePath(spec);
          const body = spec.body ? await sampleBody(spec) : undefined;
          for (const { label, arb } of arbitraries) {
            await fc.assert(
              fc.asyncProperty(arb, async (response) => {
                n++;
                assertValid(pointer, response, label);
                mock.answer(spec.successStatus, response);
                const got = await mock.client.request(name, { pathParams, body });
                assert.deepEqual(got, response, label);
              }),
              { numRuns: runsFor(label) },
            );
          }
          counts.push({ schema: `${name} ${spec.successStatus}`, instances: n, variants: variants.length });
        });
      }
    });
  }

  describe("totals", () => {
    it("generated values the document does not list, in queries, request bodies and responses", () => {
      // Guards the tests below: they prove nothing unless such values were really sent and received. The runs
      // are random, so each bound is about half of what a run gives on average (about 105, 55 and 440).
      assert.ok(futures.query > 50, `queries: ${futures.query}`);
      assert.ok(futures.body > 25, `bodies: ${futures.body}`);
      assert.ok(futures.response > 200, `responses: ${futures.response}`);
    });
  });

  async function samplePath(spec: EndpointSpec): Promise<Record<string, string>> {
    return fc.sample(argumentsOf(spec), { numRuns: 1, seed: 1 })[0]!.pathParams;
  }
  async function sampleBody(spec: EndpointSpec): Promise<unknown> {
    return fc.sample(instancesOf(bodyPointer(spec)), { numRuns: 1, seed: 1 })[0];
  }
  async function sampleResponse(spec: EndpointSpec): Promise<unknown> {
    return fc.sample(instancesOf(responsePointer(spec)), { numRuns: 1, seed: 1 })[0];
  }
});
