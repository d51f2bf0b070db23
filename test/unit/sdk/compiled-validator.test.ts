// The compiled fast path of response validation (sdk/schema/compiled-validator.ts) must answer exactly as zod
// does: it accepts a body if and only if zod accepts it, and returns the same value, key order included. Checked
// over instances generated from the service's published OpenAPI document (valid ones, ones carrying values of
// a later release, and mutated ones that break them), for every response schema of the endpoint table.
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { MockAgent } from "undici";
import { z } from "zod";
import { CustodyClient, CustodyResponseValidationError } from "../../../sdk";
import { COMPILE_AFTER_CALLS, compiledParse } from "../../../sdk/schema/compiled-validator";
import { type EndpointName, type EndpointSpec, endpoints } from "../../../sdk/schema/endpoints";
import { closedWorld, openEnum, openUnion } from "../../../sdk/schema/open";
import { Vault } from "../../../sdk/schema/vaults";
import { instancesOf, unionVariants } from "../../support/vendor-instances";
import { operationPointer } from "../../support/vendor-openapi";
import { TOKEN } from "./helpers";

const responsePointer = (spec: EndpointSpec) =>
  `${operationPointer(spec.path, spec.method)}/responses/${spec.successStatus}/content/application~1json/schema`;

/** Values that sit on the edges of the translated rules: empty and astral strings, unsafe and fractional numbers. */
const EDGE_VALUES: unknown[] = [
  "",
  "x",
  "😀",
  "😀".repeat(7),
  "😀".repeat(37),
  "a".repeat(74),
  "a".repeat(75),
  "00000000-0000-0000-0000-00000000000g",
  "0x",
  0,
  -1,
  1.5,
  2 ** 53,
  -(2 ** 53),
  1e21,
  true,
  null,
  [],
  {},
  [null],
  { type: "evm" },
  { type: "value_of_a_later_release" },
];

interface Mutation {
  at: number;
  kind: "delete" | "replace" | "edge";
  value: unknown;
  edge: number;
}

/** Every object and array inside `root` with its keys, depth first, the root included. */
function containers(root: unknown): { node: Record<string, unknown>; keys: string[] }[] {
  const out: { node: Record<string, unknown>; keys: string[] }[] = [];
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    const keys = Object.keys(node);
    out.push({ node: node as Record<string, unknown>, keys });
    for (const key of keys) walk((node as Record<string, unknown>)[key]);
  };
  walk(root);
  return out;
}

/** Applies `mutations` to a deep copy of `value`: deletes a key or replaces a value somewhere inside it. */
function mutate(value: unknown, mutations: Mutation[]): unknown {
  const copy = structuredClone(value);
  for (const m of mutations) {
    const places = containers(copy).filter((c) => c.keys.length > 0);
    if (places.length === 0) break;
    const place = places[m.at % places.length]!;
    const key = place.keys[Math.floor(m.at / places.length) % place.keys.length]!;
    if (m.kind === "delete") {
      if (Array.isArray(place.node)) place.node.splice(Number(key), 1);
      else delete place.node[key];
    } else {
      place.node[key] =
        m.kind === "edge" ? structuredClone(EDGE_VALUES[m.edge % EDGE_VALUES.length]) : m.value;
    }
  }
  return copy;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom("delete" as const, "replace" as const, "edge" as const),
  value: fc.jsonValue({ maxDepth: 2 }),
  edge: fc.nat(),
});

/** Asserts the compiled path and zod agree on `body`; returns whether zod accepted it. */
function assertSameAnswer(name: string, schema: z.ZodType, body: unknown): boolean {
  const parse = compiledParse(schema)!;
  const fast = parse(body);
  const slow = schema.safeParse(body);
  const shown = JSON.stringify(body);
  assert.equal(
    fast !== undefined,
    slow.success,
    `${name}: compiled ${fast ? "accepts" : "rejects"}\n${shown}`,
  );
  if (fast !== undefined && slow.success) {
    assert.deepStrictEqual(fast.data, slow.data, `${name}: different output\n${shown}`);
    // Key order too: it shows in JSON.stringify, hence in anything that serialises the result.
    assert.equal(JSON.stringify(fast.data), JSON.stringify(slow.data), `${name}: different key order`);
  }
  return slow.success;
}

describe("sdk: compiled response validation answers exactly as zod", function () {
  this.timeout(300_000);
  const tally = { accepted: 0, rejected: 0 };
  after(() => {
    console.log(`      bodies checked: ${tally.accepted} accepted and ${tally.rejected} rejected by both`);
  });

  for (const [name, spec] of Object.entries(endpoints) as [EndpointName, EndpointSpec][]) {
    const schema = spec.response;
    if (schema === undefined) continue;
    describe(`${name}: ${spec.method} ${spec.path}`, () => {
      it("is compiled", () => {
        assert.ok(compiledParse(schema), `${name}'s response schema fell back to zod alone`);
      });

      it("accepts a document instance (random, through every union variant, or of a later release) iff zod does, with the same output", () => {
        const pointer = responsePointer(spec);
        const arbitraries = [
          instancesOf(pointer),
          instancesOf(pointer, { future: true }),
          ...unionVariants(pointer).map((through) => instancesOf(pointer, { through })),
        ];
        for (const arb of arbitraries) {
          fc.assert(
            fc.property(arb, (body) => {
              tally[assertSameAnswer(name, schema, body) ? "accepted" : "rejected"]++;
            }),
            { numRuns: 10 },
          );
        }
      });

      it("rejects a mutated instance iff zod does, and returns the same output when both accept", () => {
        fc.assert(
          fc.property(
            instancesOf(responsePointer(spec), { future: true }),
            fc.array(mutation, { minLength: 1, maxLength: 3 }),
            (body, mutations) => {
              tally[assertSameAnswer(name, schema, mutate(body, mutations)) ? "accepted" : "rejected"]++;
            },
          ),
          { numRuns: 150 },
        );
      });
    });
  }

  describe("totals", () => {
    it("checked bodies that both accept and bodies that both reject", () => {
      // Each side must be well represented, or the equivalence above says little about it.
      assert.ok(tally.accepted > 1000, `accepted: ${tally.accepted}`);
      assert.ok(tally.rejected > 500, `rejected: ${tally.rejected}`);
    });
  });

  describe("what it leaves to zod", () => {
    it("steps aside inside closedWorld, where open enums and unions are closed", () => {
      const vault = fc
        .sample(instancesOf(responsePointer(endpoints.getVault), { future: true }), {
          numRuns: 50,
          seed: 7,
        })
        .find((v) => (v as { type: string }).type === "value_of_a_later_release");
      assert.ok(vault, "the generator made no vault of a later type");
      assert.ok(compiledParse(Vault)!(vault), "accepted in the open world");
      assert.equal(
        closedWorld(() => compiledParse(Vault)!(vault)),
        undefined,
      );
    });

    it("refuses schemas it cannot translate exactly, which keep using zod alone", () => {
      assert.equal(compiledParse(z.object({ a: z.string().transform((s) => s.length) })), undefined);
      assert.equal(compiledParse(z.object({ a: z.string().default("x") })), undefined);
      assert.equal(compiledParse(z.string().refine((s) => s !== "x")), undefined);
      assert.equal(compiledParse(z.object({ id: z.uuid() })), undefined);
      assert.equal(compiledParse(z.coerce.number()), undefined);
    });

    it("keeps refused values of open enums and unions refused", () => {
      const kind = openEnum(["a", "b"], { refused: ["c"] });
      const union = openUnion("type", [z.looseObject({ type: z.literal("a"), n: z.number() })], {
        refused: ["c"],
      });
      for (const [schema, values] of [
        [kind, ["a", "later", "c", 1]],
        [union, [{ type: "a", n: 1 }, { type: "a" }, { type: "later" }, { type: "c" }, { n: 1 }]],
      ] as const) {
        for (const value of values) assertSameAnswer("refused", schema as z.ZodType, value);
      }
      assert.equal(compiledParse(kind as z.ZodType)!("c"), undefined);
      assert.ok(compiledParse(kind as z.ZodType)!("later"));
    });

    it("measures string lengths as zod does, astral characters and lone surrogates included", () => {
      const schema = z.object({ s: z.string().min(3).max(4) });
      const answers = [
        "ab",
        "abc",
        "abcd",
        "abcde",
        "😀",
        "😀a",
        "😀😀",
        "😀😀a",
        "😀😀😀😀a",
        "\uD800ab",
        "a\uDC00\uD800b",
      ].map((s) => assertSameAnswer("length", schema, { s }));
      // Astral strings on both sides of the bounds, or the loop above proves little.
      assert.deepEqual(answers.slice(4, 9), [false, false, false, true, false]);
    });
  });
});

describe("sdk: responses after the compiled path takes over", () => {
  it("returns the same vault, and rejects a broken one with the same error, as in the first calls", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    let reply: unknown;
    agent
      .get("https://custody.test")
      .intercept({ path: () => true, method: "GET" })
      .reply(() => ({ statusCode: 200, data: JSON.stringify(reply) }))
      .persist();
    const client = new CustodyClient({
      baseUrl: "https://custody.test",
      accessToken: TOKEN,
      requestsPerMinute: 0,
      maxRetries: 0,
      dispatcher: agent,
    });
    const [vault] = fc.sample(instancesOf(responsePointer(endpoints.getVault), { future: true }), {
      numRuns: 1,
      seed: 3,
    }) as { id: string }[];
    reply = vault;
    const broken = { ...vault, id: 42 };
    const id = "00000000-0000-4000-8000-000000000000";
    const errorOf = async () => {
      reply = broken;
      const error = await client.vaults.get(id).then(
        () => assert.fail("a broken vault was accepted"),
        (e: Error) => e,
      );
      reply = vault;
      return error;
    };
    const early = { got: await client.vaults.get(id), error: await errorOf() };
    for (let i = 0; i < COMPILE_AFTER_CALLS; i++) await client.vaults.get(id);
    assert.ok(compiledParse(Vault), "compiled by now");
    const late = { got: await client.vaults.get(id), error: await errorOf() };
    assert.equal(JSON.stringify(late.got), JSON.stringify(early.got));
    assert.ok(late.error instanceof CustodyResponseValidationError);
    assert.equal(late.error.message, early.error.message);
    assert.match(late.error.message, /\bid\b/);
    await agent.close();
  });
});
