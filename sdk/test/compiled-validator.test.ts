// The compiled fast path of response validation (sdk/schema/compiled-validator.ts) must answer exactly as zod
// does: it accepts a body if and only if zod accepts it, and returns the same value, key order included. Checked
// over instances generated from the service's published OpenAPI document (valid ones, ones carrying values of
// a later release, and mutated ones that break them), for every response schema of the endpoint table, with
// the validators that the build wrote (scripts/build-validators.js), which the sdk uses from its first call.

import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { instancesOf, operationPointer, unionVariants } from "@pulumi-custody/testing";
import fc from "fast-check";
import { z } from "zod";
import {
  type CompiledParse,
  compiledParse,
  prebuiltParse,
  prebuiltSchemas,
} from "../schema/compiled-validator";
import { type EndpointName, type EndpointSpec, endpoints } from "../schema/endpoints";
import { closedWorld, openEnum, openUnion } from "../schema/open";
import { Vault } from "../schema/vaults";
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

/**
 * Asserts the fast path and zod agree on `body`; returns whether zod accepted it. The fast path is the
 * validator built at build time for a schema of the endpoint table, else one compiled at run time.
 */
function assertSameAnswer(name: string, schema: z.ZodType, body: unknown): boolean {
  const parse: CompiledParse = prebuiltParse(schema) ?? compiledParse(schema)!;
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
      it("has a validator built at build time", () => {
        assert.ok(prebuiltParse(schema), `${name}'s response schema fell back to zod alone`);
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

  describe("the validators built at build time", () => {
    it("cover every schema of the endpoint table that the translation covers, and only those", () => {
      const schemas = [...prebuiltSchemas()];
      // Request parts (path, query, body) are there too, not only responses.
      assert.ok(schemas.some(([name]) => name.endsWith(".body")));
      const built = schemas.filter(([, schema]) => prebuiltParse(schema) !== undefined).map(([n]) => n);
      const covered = schemas.filter(([, schema]) => compiledParse(schema) !== undefined).map(([n]) => n);
      assert.deepEqual(built, covered);
      assert.ok(built.length >= 15, `built: ${built.join(", ")}`);
    });

    it("leave a schema outside the endpoint table to zod (or to a compile it asks for)", () => {
      const schema = z.object({ a: z.string() });
      assert.equal(prebuiltParse(schema), undefined);
      assert.ok(compiledParse(schema));
    });
  });

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
      assert.ok(prebuiltParse(Vault)!(vault), "accepted in the open world");
      assert.equal(
        closedWorld(() => prebuiltParse(Vault)!(vault)),
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

const execFileAsync = promisify(execFile);
// The package's build output (the tests are compiled to dist/test), by its real path: loaded modules are keyed by it.
const SDK = fs.realpathSync(path.resolve(__dirname, ".."));

/**
 * Gets a vault (`VAULT`) and then a broken one in a fresh process, from the very first call, with the built
 * validators there, hidden as if the build had not written them, or stale (built from another translation);
 * reports what it got, the error, which validator modules it loaded and whether ajv's compiler was loaded.
 */
const CHILD = `
const Module = require("node:module");
const fs = require("node:fs");
const path = require("node:path");
const SDK = process.env.SDK;
const validators = path.join(SDK, "schema", "validators");
if (process.env.MODE === "missing") {
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (request.startsWith("./validators/")) {
      throw Object.assign(new Error("Cannot find module " + request), { code: "MODULE_NOT_FOUND" });
    }
    return resolve.call(this, request, ...rest);
  };
}
if (process.env.MODE === "stale") {
  for (const file of fs.readdirSync(validators)) require(path.join(validators, file)).fingerprint = "stale";
}
const { MockAgent } = require("undici");
const { CustodyClient } = require(SDK);
// Loaded only to compile: ajv's classes, its compiler and its standalone writer.
const COMPILER = ["ajv.js", "core.js", path.join("compile", "index.js"), path.join("standalone", "index.js")];
const { prebuiltParse } = require(path.join(SDK, "schema", "compiled-validator"));
const { Vault } = require(path.join(SDK, "schema", "vaults"));
(async () => {
  const vault = JSON.parse(process.env.VAULT);
  let reply = vault;
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent.get("https://custody.test").intercept({ path: () => true, method: "GET" })
    .reply(() => ({ statusCode: 200, data: JSON.stringify(reply) })).persist();
  const client = new CustodyClient({
    baseUrl: "https://custody.test", accessToken: process.env.TOKEN, requestsPerMinute: 0, maxRetries: 0,
    dispatcher: agent,
  });
  const id = "00000000-0000-4000-8000-000000000000";
  const got = await client.vaults.get(id);
  reply = { ...vault, id: 42 };
  const error = await client.vaults.get(id).then(() => "accepted", (e) => e.constructor.name + ": " + e.message);
  const loaded = Object.keys(require.cache);
  console.log(JSON.stringify({
    got: JSON.stringify(got),
    error,
    fast: prebuiltParse(Vault) !== undefined,
    validators: loaded.filter((p) => p.startsWith(validators + path.sep)).map((p) => path.basename(p)),
    compiler: loaded.some((p) => COMPILER.some((part) => p.includes(path.join("node_modules", "ajv", "dist", part)))),
  }));
  await agent.close();
})();
`;

describe("sdk: responses with the validators built at build time", function () {
  this.timeout(60_000);
  const [vault] = fc.sample(instancesOf(responsePointer(endpoints.getVault), { future: true }), {
    numRuns: 1,
    seed: 3,
  }) as { id: string }[];
  const run = async (mode: "built" | "missing" | "stale") => {
    const { stdout } = await execFileAsync(process.execPath, ["-e", CHILD], {
      env: { ...process.env, MODE: mode, SDK, VAULT: JSON.stringify(vault), TOKEN },
    });
    return JSON.parse(stdout) as {
      got: string;
      error: string;
      fast: boolean;
      validators: string[];
      compiler: boolean;
    };
  };
  const expected = () => JSON.stringify(Vault.parse(vault));

  it("uses the vault's built validator from the first call, without ever loading ajv's compiler", async () => {
    const built = await run("built");
    assert.equal(built.got, expected());
    assert.ok(built.fast);
    // Those of the getVault call's path parameters and response, each under the name of its first endpoint.
    const nameOf = (schema: z.ZodType | undefined) =>
      [...prebuiltSchemas()].find(([, known]) => known === schema)?.[0];
    const wanted = [endpoints.getVault.pathParams, endpoints.getVault.response].map((s) => `${nameOf(s)}.js`);
    assert.deepEqual([...built.validators].sort(), wanted.sort());
    assert.equal(built.compiler, false);
    assert.match(built.error, /^CustodyResponseValidationError: .*\bid\b/);
  });

  for (const mode of ["missing", "stale"] as const) {
    it(`falls back to zod alone, never to a compile, when the built validators are ${mode}`, async () => {
      const [built, other] = await Promise.all([run("built"), run(mode)]);
      assert.equal(other.fast, false);
      assert.equal(other.compiler, false);
      if (mode === "missing") assert.deepEqual(other.validators, []);
      // The same answers as with the validators: the same vault, and the same error for a broken one.
      assert.equal(other.got, built.got);
      assert.equal(other.error, built.error);
    });
  }
});
