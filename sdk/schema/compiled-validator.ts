/**
 * A fast accept path for the schemas of the endpoint table (responses, and request path, query and body): each
 * zod schema is translated into JSON Schema and compiled by ajv, and a body that the compiled validator accepts
 * is returned as zod would have returned it, without running zod. A body it rejects goes through zod as before,
 * so error messages and paths never change. The compile happens at build time (`scripts/build-validators.js`
 * writes ajv's standalone code into `dist/sdk/schema/validators/`); at run time the sdk only loads it.
 *
 * The translation is our own walk over the zod schema rather than `z.toJSONSchema`, which drops refinements
 * silently and would turn an open enum's `meta({ enum })` into a closed enum. Here every construct is either
 * translated to something exactly as strict as zod or stricter (a stricter answer only sends the body to zod),
 * or the whole schema is refused and keeps using zod alone. BENCHMARKS.md, figure 3, has the cost it saves.
 */
import { createHash } from "node:crypto";
import type { Options } from "ajv";
import type { z } from "zod";
import { isClosedWorld, openEnumRule, openUnionRule } from "./open";

/** A JSON Schema (draft-07 subset) as ajv takes it. */
type JsonSchema = boolean | { [keyword: string]: unknown };
/** Builds the value zod would return for an input it accepts. */
type Copy = (value: unknown) => unknown;
/** A validator, compiled by ajv at build time or at run time. */
type Test = (value: unknown) => boolean;
/** The compiled fast path of one schema: the output zod would give, or `undefined` to ask zod. */
export type CompiledParse = (value: unknown) => { data: unknown } | undefined;

/** A construct that the translation does not cover; the schema then keeps using zod alone. */
class Unsupported extends Error {}

const identity: Copy = (value) => value;

/**
 * The translation of one zod schema: the JSON Schema of the whole (`id` names it), one JSON Schema per option
 * of each union whose options zod outputs differently (`copy` picks the first option its test accepts), and
 * `fingerprint`, the digest of both, which ties validators built from them to this exact translation.
 */
interface Translation {
  json: { [keyword: string]: unknown };
  options: { [keyword: string]: unknown }[];
  copy: Copy;
  /** Filled with the options' validators, in the order of `options`, before `copy` is called. */
  tests: Test[];
  fingerprint: string;
}

/** `$id` of a translated schema; the options refer to its definitions through it. */
const ROOT_ID = "root";
/** The name under which a module built by {@link standaloneModule} exports the validator of option `i`. */
const optionExport = (i: number) => `option${i}`;

/**
 * The ajv options of every validator, at build time and at run time alike; `source` keeps the generated code,
 * which ajv's standalone mode writes out.
 */
function ajvOptions(source: boolean): Options {
  return {
    // zod tests patterns as plain JavaScript regular expressions, without the `u` flag.
    unicodeRegExp: false,
    allErrors: false,
    validateFormats: false,
    strict: true,
    // The translation nests constraints in `allOf` next to their `type`, which ajv's strict typing flags.
    strictTypes: false,
    code: { optimize: true, source },
    // zod words the errors: ajv's would be dropped, so the generated code leaves out their messages.
    messages: false,
    // Shared parts stay functions of their own (see `translateWhole`).
    inlineRefs: false,
  };
}

/** Translates `schema`, or `undefined` when it has a construct the translation does not cover. */
function translateWhole(schema: z.ZodType): Translation | undefined {
  shared = { definitions: {}, byZod: new Map(), options: [], tests: [] };
  const { definitions, options, tests } = shared;
  let translated: { json: JsonSchema; copy: Copy };
  try {
    translated = translate(schema);
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
  // Each shared part becomes one function that the others call, rather than being inlined everywhere:
  // the vault union alone repeats the same refs in sixteen variants.
  // Wrapped rather than merged: the whole is often a bare `$ref`, whose siblings draft-07 ignores.
  const json = { $id: ROOT_ID, definitions, allOf: [translated.json] };
  const fingerprint = createHash("sha256")
    .update(JSON.stringify([json, options]))
    .digest("base64url");
  return { json, options, copy: translated.copy, tests, fingerprint };
}

/** The fast path made of a translation and the validators of its whole and of its options. */
function fastPath(translation: Translation, validate: Test, optionTests: Test[]): CompiledParse {
  translation.tests.push(...optionTests);
  const copy = translation.copy;
  return (value) => {
    // The emulator parses with enums and unions closed; this path only knows the open world.
    if (isClosedWorld() || !validate(value)) return undefined;
    return { data: copy(value) };
  };
}

// ---- Validators built at build time --------------------------------------------------------------------

/**
 * The schemas of the endpoint table that get a validator built at build time, by the file name of its module
 * (`<operation>.<part>`, e.g. `getVault.response`); a schema shared by several endpoints is built once, under
 * its first name.
 */
export function prebuiltSchemas(): Map<string, z.ZodType> {
  // Required here rather than imported: the table is only needed once a validator is.
  const { endpoints } = require("./endpoints") as typeof import("./endpoints");
  const byName = new Map<string, z.ZodType>();
  const seen = new Set<z.ZodType>();
  for (const [operation, spec] of Object.entries(endpoints)) {
    for (const part of ["pathParams", "query", "body", "response"] as const) {
      const schema = (spec as import("./endpoints").EndpointSpec)[part] as z.ZodType | undefined;
      if (schema === undefined || seen.has(schema)) continue;
      seen.add(schema);
      byName.set(`${operation}.${part}`, schema);
    }
  }
  return byName;
}

/**
 * The source of the CommonJS module of `schema`'s validators, written by `scripts/build-validators.js`:
 * ajv's standalone code, which needs ajv's small run-time helpers but never its compiler; `undefined` when the
 * translation does not cover the schema.
 */
export function standaloneModule(schema: z.ZodType): string | undefined {
  const translation = translateWhole(schema);
  if (translation === undefined) return undefined;
  const Ajv = (require("ajv") as typeof import("ajv")).default;
  const standaloneCode = (require("ajv/dist/standalone") as typeof import("ajv/dist/standalone")).default;
  const ajv = new Ajv(ajvOptions(true));
  ajv.addSchema(translation.json);
  const exports: Record<string, string> = { validate: ROOT_ID };
  translation.options.forEach((option, i) => {
    const id = `${ROOT_ID}.${optionExport(i)}`;
    ajv.addSchema({ ...option, $id: id });
    exports[optionExport(i)] = id;
  });
  const code = standaloneCode(ajv, exports);
  return `${code}\nexports.fingerprint = ${JSON.stringify(translation.fingerprint)};\n`;
}

/** The exports of a module written by {@link standaloneModule}. */
interface PrebuiltModule {
  validate: Test;
  fingerprint: string;
  [option: string]: unknown;
}

const prebuilt = new WeakMap<z.ZodType, CompiledParse | null>();
let prebuiltNames: WeakMap<z.ZodType, string> | undefined;

/**
 * The fast path of `schema` from its validator built at build time, loaded on first use of the schema (so
 * loading the sdk stays cheap) and never compiled at run time; `undefined`, and zod alone, for a schema outside
 * the endpoint table, one the translation does not cover, or when the built validator is missing (a build
 * without `scripts/build-validators.js`) or was built from another version of the schema.
 */
export function prebuiltParse(schema: z.ZodType): CompiledParse | undefined {
  let parse = prebuilt.get(schema);
  if (parse === undefined) {
    parse = loadPrebuilt(schema);
    prebuilt.set(schema, parse);
  }
  return parse ?? undefined;
}

function loadPrebuilt(schema: z.ZodType): CompiledParse | null {
  if (prebuiltNames === undefined) {
    prebuiltNames = new WeakMap();
    for (const [name, known] of prebuiltSchemas()) prebuiltNames.set(known, name);
  }
  const name = prebuiltNames.get(schema);
  if (name === undefined) return null;
  // A schema the translation does not cover has no validator file: zod alone, without trying to load one.
  const translation = translateWhole(schema);
  if (translation === undefined) return null;
  let module: PrebuiltModule;
  try {
    module = require(`./validators/${name}.js`) as PrebuiltModule;
  } catch {
    // Not built, or not shipped: Node.js says MODULE_NOT_FOUND, a bundler's own loader says it differently
    // ("Module not found in bundle"). Zod alone is always correct, only slower.
    return null;
  }
  // A validator built from another translation could accept what zod now refuses.
  if (translation.fingerprint !== module.fingerprint) return null;
  const optionTests = translation.options.map((_, i) => module[optionExport(i)] as Test);
  if (optionTests.some((test) => typeof test !== "function")) return null;
  return fastPath(translation, module.validate, optionTests);
}

// ---- Validators compiled at run time ----------------------------------------------------------------------

const compiled = new WeakMap<z.ZodType, CompiledParse | null>();

/**
 * The fast path of `schema`, compiled by ajv at run time on first use; `undefined` when the schema has a
 * construct the translation does not cover (a transform, a default, an unknown refinement...). The sdk never
 * calls it (its schemas have validators built at build time, {@link prebuiltParse}); it serves schemas outside
 * the endpoint table, and the tests of the translation itself.
 */
export function compiledParse(schema: z.ZodType): CompiledParse | undefined {
  let parse = compiled.get(schema);
  if (parse === undefined) {
    parse = compile(schema);
    compiled.set(schema, parse);
  }
  return parse ?? undefined;
}

function compile(schema: z.ZodType): CompiledParse | null {
  const translation = translateWhole(schema);
  if (translation === undefined) return null;
  // An instance of its own: the `$id`s of the translation are the same for every schema.
  const Ajv = (require("ajv") as typeof import("ajv")).default;
  const ajv = new Ajv(ajvOptions(false));
  const validate = ajv.compile(translation.json);
  const optionTests = translation.options.map(
    (option, i) => ajv.compile({ ...option, $id: `${ROOT_ID}.${optionExport(i)}` }) as Test,
  );
  return fastPath(translation, validate, optionTests);
}

// ---- The translation --------------------------------------------------------------------------------------

/**
 * Shared parts (objects) of the schema being translated, as `definitions`, and the options of its unions
 * (see {@link Translation}).
 */
let shared: {
  definitions: Record<string, JsonSchema>;
  byZod: Map<z.ZodType, { json: JsonSchema; copy: Copy }>;
  options: { [keyword: string]: unknown }[];
  tests: Test[];
};

/** zod's own check of a safe integer (`.int()`). */
const SAFE_INTEGER = { type: "integer", minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

/** The JSON Schema of `schema`, and how to build zod's output from an input it accepts. */
function translate(schema: z.ZodType): { json: JsonSchema; copy: Copy } {
  const known = shared.byZod.get(schema);
  if (known) return known;
  const translated = translateNew(schema);
  if (typeof translated.json !== "object" || translated.json.type !== "object") return translated;
  const name = `d${shared.byZod.size}`;
  shared.definitions[name] = translated.json;
  const ref = { json: { $ref: `#/definitions/${name}` }, copy: translated.copy };
  shared.byZod.set(schema, ref);
  return ref;
}

function translateNew(schema: z.ZodType): { json: JsonSchema; copy: Copy } {
  const openEnum = openEnumRule(schema);
  if (openEnum) {
    // In the open world an open enum takes any string but the refused ones (schema/open.ts).
    const json: JsonSchema = { type: "string" };
    if (openEnum.refused.length > 0) json.not = { enum: [...openEnum.refused] };
    return { json, copy: identity };
  }
  const openUnion = openUnionRule(schema);
  if (openUnion) return translateOpenUnion(openUnion);

  const zod = (schema as unknown as { _zod: ZodInternals })._zod;
  const def = zod.def;
  const checks = def.checks ?? [];
  // `z.coerce.*` converts its input, and string formats (`z.uuid()`...) have checks of their own.
  if (def.coerce || (def.type === "string" && def.format !== undefined)) throw new Unsupported(def.type);
  switch (def.type) {
    case "string":
      return { json: { allOf: [{ type: "string" }, ...checks.map(stringCheck)] }, copy: identity };
    case "number": {
      const parts: JsonSchema[] = [{ type: "number" }];
      if (def.format !== undefined) parts.push(numberFormat(def.format));
      parts.push(...checks.map(numberCheck));
      return { json: { allOf: parts }, copy: identity };
    }
    case "boolean":
      noChecks(checks);
      return { json: { type: "boolean" }, copy: identity };
    case "null":
      noChecks(checks);
      return { json: { type: "null" }, copy: identity };
    case "unknown":
    case "any":
      noChecks(checks);
      return { json: true, copy: identity };
    case "literal":
    case "enum": {
      noChecks(checks);
      const values = [...(zod.values ?? [])];
      if (values.length === 0 || !values.every(isJsonPrimitive)) throw new Unsupported(def.type);
      return { json: { enum: values }, copy: identity };
    }
    case "optional": {
      // Only reachable at the top or as an array item; a JSON body holds no `undefined`, so the inner schema
      // alone is as strict or stricter. Object properties handle optionality themselves.
      noChecks(checks);
      return translate(def.innerType as z.ZodType);
    }
    case "nullable": {
      noChecks(checks);
      const inner = translate(def.innerType as z.ZodType);
      const copyInner = inner.copy;
      return {
        json: { anyOf: [{ type: "null" }, inner.json] },
        copy: copyInner === identity ? identity : (value) => (value === null ? null : copyInner(value)),
      };
    }
    case "array": {
      const item = translate(def.element as z.ZodType);
      const copyItem = item.copy;
      return {
        json: { allOf: [{ type: "array", items: item.json }, ...checks.map(arrayCheck)] },
        // zod returns a new array.
        copy: (value) => (value as unknown[]).map(copyItem),
      };
    }
    case "object":
      noChecks(checks);
      return translateObject(def);
    case "record": {
      noChecks(checks);
      const key = (def.keyType as unknown as { _zod: ZodInternals })._zod.def;
      if (key.type !== "string" || (key.checks ?? []).length > 0) throw new Unsupported("record key");
      const value = translate(def.valueType as z.ZodType);
      const copyValue = value.copy;
      return {
        json: { type: "object", additionalProperties: value.json },
        copy: (input) => {
          const out: Record<string, unknown> = {};
          for (const k of Object.keys(input as object))
            out[k] = copyValue((input as Record<string, unknown>)[k]);
          return out;
        },
      };
    }
    case "union": {
      noChecks(checks);
      if (def.discriminator !== undefined) throw new Unsupported("discriminated union");
      const options = (def.options as z.ZodType[]).map(translate);
      const json = { anyOf: options.map((o) => o.json) };
      if (options.every((o) => o.copy === identity)) return { json, copy: identity };
      // zod returns the output of the first option that accepts the value. Each option is a schema of its own,
      // referring to the definitions of the whole (`ROOT_ID`); its validator lands in `tests` at the same index.
      const first = shared.options.length;
      for (const o of options) shared.options.push({ allOf: [rootRefs(o.json)] });
      const { tests } = shared;
      const copies = options.map((o) => o.copy);
      return {
        json,
        copy: (value) => {
          let i = 0;
          while (!tests[first + i]!(value)) i++;
          return copies[i]!(value);
        },
      };
    }
    default:
      throw new Unsupported(def.type);
  }
}

/** An object: its shape, and unknown keys kept (`looseObject`), dropped (`object`) or refused (`strictObject`). */
function translateObject(def: ZodDef): { json: JsonSchema; copy: Copy } {
  const shape = def.shape as Record<string, z.ZodType>;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const copies: [string, Copy][] = [];
  for (const [key, field] of Object.entries(shape)) {
    const internals = (field as unknown as { _zod: ZodInternals })._zod;
    const optional = internals.optin === "optional";
    // An optional key's schema is `optional(inner)`; a present key in a JSON body is never undefined.
    const inner =
      optional && internals.def.type === "optional" ? (internals.def.innerType as z.ZodType) : field;
    const translated = translate(inner);
    properties[key] = translated.json;
    if (!optional) required.push(key);
    copies.push([key, translated.copy]);
  }
  const json: Record<string, unknown> = { type: "object", properties };
  if (required.length > 0) json.required = required;
  let extra: "keep" | "drop" | Copy;
  const catchall = def.catchall as z.ZodType | undefined;
  const catchallType = catchall && (catchall as unknown as { _zod: ZodInternals })._zod.def.type;
  if (catchall === undefined) extra = "drop";
  else if (catchallType === "unknown") extra = "keep";
  else if (catchallType === "never") {
    json.additionalProperties = false;
    extra = "drop";
  } else {
    const translated = translate(catchall);
    json.additionalProperties = translated.json;
    extra = translated.copy;
  }
  const known = new Set(Object.keys(shape));
  // As zod builds it: the shape's keys first, in shape order, then the unknown ones it keeps, in input order.
  const copy: Copy = (value) => {
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, copyField] of copies) {
      const v = input[key];
      if (v !== undefined) out[key] = copyField(v);
    }
    if (extra !== "drop") {
      for (const key of Object.keys(input)) {
        if (!known.has(key)) out[key] = extra === "keep" ? input[key] : extra(input[key]);
      }
    }
    return out;
  };
  return { json, copy };
}

/**
 * An open union: a known discriminator value selects its variant, any other the fields every variant shares;
 * zod returns the object as it came, the discriminator first (its refinement's own result is not kept).
 */
function translateOpenUnion(rule: NonNullable<ReturnType<typeof openUnionRule>>): {
  json: JsonSchema;
  copy: Copy;
} {
  const d = rule.discriminator;
  const known = [...rule.byValue.keys()];
  if (!known.every(isJsonPrimitive)) throw new Unsupported("open union discriminator");
  const branches: JsonSchema[] = [...rule.byValue].map(([value, variant]) => ({
    if: { properties: { [d]: { const: value } } },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
    then: translate(variant).json,
  }));
  branches.push({
    if: { properties: { [d]: { enum: known } } },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
    then: true,
    else: translate(rule.unknownVariant).json,
  });
  const json: Record<string, unknown> = {
    type: "object",
    properties: { [d]: { type: "string" } },
    required: [d],
    allOf: branches,
  };
  if (rule.refused.length > 0) json.not = { properties: { [d]: { enum: [...rule.refused] } } };
  return {
    json,
    copy: (value) => {
      const input = value as Record<string, unknown>;
      const out: Record<string, unknown> = { [d]: input[d] };
      for (const key of Object.keys(input)) if (key !== d) out[key] = input[key];
      return out;
    },
  };
}

function stringCheck(check: ZodCheck): JsonSchema {
  const def = check._zod.def;
  // zod counts code points (a surrogate pair once, a lone surrogate as one), as ajv's minLength and maxLength do.
  if (def.check === "min_length") return { minLength: def.minimum };
  if (def.check === "max_length") return { maxLength: def.maximum };
  if (def.check === "length_equals") return { minLength: def.length, maxLength: def.length };
  if (def.check === "string_format" && def.format === "regex" && def.pattern instanceof RegExp) {
    if (def.pattern.flags !== "") throw new Unsupported("regex flags");
    return { pattern: def.pattern.source };
  }
  throw new Unsupported(`string check ${def.check}`);
}

function numberCheck(check: ZodCheck): JsonSchema {
  const def = check._zod.def;
  if (def.check === "number_format") return numberFormat(def.format);
  if (def.check === "greater_than") {
    return def.inclusive ? { minimum: def.value } : { exclusiveMinimum: def.value };
  }
  if (def.check === "less_than") {
    return def.inclusive ? { maximum: def.value } : { exclusiveMaximum: def.value };
  }
  throw new Unsupported(`number check ${def.check}`);
}

function numberFormat(format: unknown): JsonSchema {
  if (format === "safeint") return SAFE_INTEGER;
  throw new Unsupported(`number format ${String(format)}`);
}

function arrayCheck(check: ZodCheck): JsonSchema {
  const def = check._zod.def;
  if (def.check === "min_length") return { minItems: def.minimum };
  if (def.check === "max_length") return { maxItems: def.maximum };
  throw new Unsupported(`array check ${def.check}`);
}

/** `json` with its local references (`#/definitions/...`) made references into the whole (`ROOT_ID`). */
function rootRefs(json: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] =
        key === "$ref" && typeof value === "string" && value.startsWith("#") ? ROOT_ID + value : walk(value);
    }
    return out;
  };
  return walk(json) as JsonSchema;
}

function noChecks(checks: readonly ZodCheck[]): void {
  if (checks.length > 0) throw new Unsupported(`check ${checks[0]!._zod.def.check}`);
}

function isJsonPrimitive(value: unknown): boolean {
  return value === null || ["string", "boolean"].includes(typeof value) || Number.isFinite(value);
}

/** The parts of zod v4's internals the translation reads. */
interface ZodDef {
  type: string;
  checks?: ZodCheck[];
  [key: string]: unknown;
}
interface ZodCheck {
  _zod: { def: { check: string; [key: string]: unknown } };
}
interface ZodInternals {
  def: ZodDef;
  optin?: "optional";
  values?: Set<unknown>;
}
