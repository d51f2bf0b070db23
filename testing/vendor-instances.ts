/**
 * Instances generated from the published OpenAPI document (testing/fixtures/vendor-openapi), as fast-check
 * arbitraries: what the real service may send or accept, according to its own schema rather than ours.
 *
 * Random generation alone rarely reaches a deep union's rarer variants, so the generator can be steered:
 * `instancesOf(pointer, { through })` makes an instance that passes through one chosen variant of one union
 * (every union on the way picks a variant that leads there; an optional property on the way is present).
 * `unionVariants(pointer)` lists every variant reachable from a schema, so a test can cover each of them.
 */
import fc from "fast-check";
import { VENDOR_DOCUMENT } from "./vendor-openapi";

type Schema = Record<string, unknown>;

/** One variant of one union: the union's JSON pointer (after `$ref`s are followed) and the variant's index. */
export interface UnionVariant {
  /** JSON pointer of the schema that holds `oneOf`/`anyOf`, e.g. `#/components/schemas/CreateTransactionRequest`. */
  union: string;
  /** Index into its `oneOf`/`anyOf`. */
  index: number;
  /** A readable name: the variant's `$ref` name or its discriminator value. */
  label: string;
}

const docRoot = VENDOR_DOCUMENT as unknown as Schema;

function at(pointer: string): Schema {
  const parts = pointer
    .replace(/^#\/?/, "")
    .split("/")
    .filter((p) => p !== "")
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  let node: unknown = docRoot;
  for (const part of parts) {
    node = (node as Record<string, unknown>)?.[part];
    if (node === undefined) throw new Error(`no schema at ${pointer}`);
  }
  return node as Schema;
}

function child(pointer: string, ...segments: (string | number)[]): string {
  return [pointer, ...segments.map((s) => String(s).replace(/~/g, "~0").replace(/\//g, "~1"))].join("/");
}

/** Follows `$ref`s to the pointer of the schema that says something. */
function canonical(pointer: string): string {
  let p = pointer;
  for (let i = 0; i < 50; i++) {
    const ref = at(p).$ref;
    if (typeof ref !== "string") return p;
    p = ref;
  }
  throw new Error(`$ref cycle at ${pointer}`);
}

function unionKey(schema: Schema): "oneOf" | "anyOf" | undefined {
  if (Array.isArray(schema.oneOf)) return "oneOf";
  if (Array.isArray(schema.anyOf)) return "anyOf";
  return undefined;
}

/** The schema pointers directly below `pointer` (canonical), with what leads there. */
function children(
  pointer: string,
): { to: string; via: "property" | "item" | "variant" | "extra"; key: string }[] {
  const schema = at(pointer);
  const out: { to: string; via: "property" | "item" | "variant" | "extra"; key: string }[] = [];
  const union = unionKey(schema);
  if (union) {
    (schema[union] as unknown[]).forEach((_, i) => {
      out.push({ to: canonical(child(pointer, union, i)), via: "variant", key: String(i) });
    });
  }
  for (const name of Object.keys((schema.properties ?? {}) as Schema)) {
    out.push({ to: canonical(child(pointer, "properties", name)), via: "property", key: name });
  }
  if (schema.items && typeof schema.items === "object")
    out.push({ to: canonical(child(pointer, "items")), via: "item", key: "" });
  if (schema.additionalProperties && typeof schema.additionalProperties === "object")
    out.push({ to: canonical(child(pointer, "additionalProperties")), via: "extra", key: "" });
  return out;
}

const reachCache = new Map<string, Set<string>>();

/** Every variant id (`union|index`) reachable from `pointer`, its own included. */
function reachableVariants(pointer: string): Set<string> {
  const start = canonical(pointer);
  const cached = reachCache.get(start);
  if (cached) return cached;
  const found = new Set<string>();
  const visited = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const p = queue.shift() as string;
    for (const c of children(p)) {
      if (c.via === "variant") found.add(`${p}|${c.key}`);
      if (!visited.has(c.to)) {
        visited.add(c.to);
        queue.push(c.to);
      }
    }
  }
  reachCache.set(start, found);
  return found;
}

function labelOf(unionPointer: string, index: number): string {
  const schema = at(unionPointer);
  const key = unionKey(schema) as string;
  const raw = (schema[key] as Schema[])[index];
  if (typeof raw.$ref === "string") return raw.$ref.split("/").pop() as string;
  const resolved = at(canonical(child(unionPointer, key, index)));
  const props = (resolved.properties ?? {}) as Record<string, Schema>;
  for (const [name, prop] of Object.entries(props)) {
    const c = at(canonical(child(canonical(child(unionPointer, key, index)), "properties", name))).const;
    if (c !== undefined && prop) return `${name}=${String(c)}`;
  }
  return String(resolved.type ?? resolved.title ?? `variant ${index}`);
}

/** Every union variant reachable from the schema at `pointer`, each once. */
export function unionVariants(pointer: string): UnionVariant[] {
  return [...reachableVariants(pointer)].sort().map((id) => {
    const [union, index] = id.split("|");
    return { union, index: Number(index), label: labelOf(union, Number(index)) };
  });
}

/** Built once per pattern, format and length: fast-check's arbitraries are immutable, and a pattern's costs
 * seconds to build (its default slices are tokenized) when a large schema names it hundreds of times. */
const stringArbitraries = new Map<string, fc.Arbitrary<string>>();

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const key = JSON.stringify([schema.pattern, schema.format, schema.minLength, schema.maxLength]);
  let arbitrary = stringArbitraries.get(key);
  if (!arbitrary) {
    arbitrary = buildStringArbitrary(schema);
    stringArbitraries.set(key, arbitrary);
  }
  return arbitrary;
}

function buildStringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = schema.maxLength as number | undefined;
  if (typeof schema.pattern === "string") {
    const fits = (s: string) => s.length >= minLength && (maxLength === undefined || s.length <= maxLength);
    return fc.stringMatching(lengthBoundedPattern(schema.pattern, minLength, maxLength)).filter(fits);
  }
  switch (schema.format) {
    case "uuid":
      return fc.uuid({ version: 4 });
    case "date-time":
      return fc
        .date({
          min: new Date("2000-01-01T00:00:00Z"),
          max: new Date("2100-01-01T00:00:00Z"),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString());
    case "uri":
      return fc.webUrl();
    default:
      return fc.string({ minLength, maxLength: maxLength ?? Math.max(minLength, 24) });
  }
}

/**
 * A pattern whose last open repetition (`+`, `*`, `{n,}`) is bounded so that the whole string has the
 * schema's length: `^0[xX][a-fA-F0-9]+$` with length 66 becomes `^0[xX][a-fA-F0-9]{64,64}$`. Filtering
 * unbounded draws by length would almost never succeed. The part before the repetition is assumed to have
 * a fixed length, which holds for the document's patterns; anything else is still filtered by length.
 */
function lengthBoundedPattern(pattern: string, minLength: number, maxLength: number | undefined): RegExp {
  const open = /^(.*?)(\+|\*|\{\d+,\})(\$?)$/.exec(pattern);
  if (!open || (minLength === 0 && maxLength === undefined)) return new RegExp(pattern);
  const [, head, repeat, end] = open;
  const atLeast = repeat === "+" ? 1 : repeat === "*" ? 0 : Number(/\d+/.exec(repeat)?.[0]);
  const once = fc.sample(fc.stringMatching(new RegExp(`${head}{1}${end}`)), {
    numRuns: 1,
    seed: 1,
  })[0] as string;
  const fixed = once.length - 1;
  const low = Math.max(atLeast, minLength - fixed);
  const high = maxLength === undefined ? "" : String(Math.max(low, maxLength - fixed));
  return new RegExp(`${head}{${low},${high}}${end}`);
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = (schema.minimum as number | undefined) ?? (integer ? -1_000_000 : -1e9);
  const max = (schema.maximum as number | undefined) ?? (integer ? 1_000_000_000 : 1e9);
  // JSON has no -0: it would come back as 0.
  const finite = integer
    ? fc.integer({ min, max })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return finite.map((n) => (n === 0 ? 0 : n));
}

/**
 * An arbitrary of instances of the schema at `pointer`. With `through`, every instance passes through that
 * union variant.
 */
export function instancesOf(
  pointer: string,
  options: { through?: UnionVariant; future?: boolean } = {},
): fc.Arbitrary<unknown> {
  const target = options.through ? `${options.through.union}|${options.through.index}` : undefined;
  return build(canonical(pointer), { target, future: options.future === true });
}

/** Where generation is steered: through one union variant, and/or into values the document does not list. */
interface Steer {
  /** `union|index` that every instance passes through. */
  target?: string;
  /** Replace listed string values (enum members, discriminators) now and then with one the document lacks. */
  future: boolean;
}

/** A string enum member or discriminator value that no release of the document lists. */
export const FUTURE_VALUE = "value_of_a_later_release";

const built = new Map<string, fc.Arbitrary<unknown>>();

/**
 * One arbitrary per schema and target, built once: the document's schemas are shared widely, and one of them
 * refers to itself (its reference is resolved when an instance is drawn, so the cycle costs nothing here).
 */
function build(pointer: string, steer: Steer): fc.Arbitrary<unknown> {
  const key = `${pointer}|${steer.target ?? ""}|${steer.future}`;
  const known = built.get(key);
  if (known) return known;
  let arbitrary: fc.Arbitrary<unknown> | undefined;
  built.set(
    key,
    fc.constant(undefined).chain(() => arbitrary as fc.Arbitrary<unknown>),
  );
  arbitrary = construct(pointer, steer);
  built.set(key, arbitrary);
  return arbitrary;
}

function construct(pointer: string, steer: Steer): fc.Arbitrary<unknown> {
  const { target } = steer;
  const free: Steer = { future: steer.future };
  const schema = at(pointer);
  const listed = (values: unknown[]) =>
    steer.future && values.every((v) => typeof v === "string")
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...values) },
          { weight: 1, arbitrary: fc.constant(FUTURE_VALUE) },
        )
      : fc.constantFrom(...values);
  const leads = (p: string) => target !== undefined && reachableVariants(p).has(target);
  if (schema.const !== undefined) return listed([schema.const]);
  if (Array.isArray(schema.enum)) return listed(schema.enum as unknown[]);
  const union = unionKey(schema);
  if (union) {
    const variants = (schema[union] as unknown[]).map((_, i) => ({
      i,
      to: canonical(child(pointer, union, i)),
    }));
    let chosen = variants;
    if (target?.startsWith(`${pointer}|`)) {
      chosen = variants.filter((v) => `${pointer}|${v.i}` === target);
    } else if (target !== undefined && variants.some((v) => leads(v.to))) {
      chosen = variants.filter((v) => leads(v.to));
    }
    const arbs = chosen.map((v) => build(v.to, steer));
    // depthSize biases nested draws toward the first variants, so the self-referring schema ends.
    return arbs.length === 1 ? arbs[0] : fc.oneof({ depthSize: "small" }, ...arbs);
  }
  const type = schema.type;
  if (type === "object" || (type === undefined && (schema.properties || schema.additionalProperties))) {
    return objectArbitrary(pointer, schema, steer);
  }
  if (type === "array") {
    const items = canonical(child(pointer, "items"));
    const minItems = (schema.minItems as number | undefined) ?? 0;
    const maxItems = Math.max(minItems, Math.min((schema.maxItems as number | undefined) ?? 3, 3));
    const rest = fc.array(build(items, free), { minLength: minItems, maxLength: maxItems });
    if (leads(items)) {
      return fc
        .tuple(build(items, steer), rest)
        .map(([first, others]) => [first, ...others.slice(0, Math.max(0, maxItems - 1))]);
    }
    return rest;
  }
  switch (type) {
    case "string":
      return stringArbitrary(schema);
    case "integer":
      return numberArbitrary(schema, true);
    case "number":
      return numberArbitrary(schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      // An unconstrained schema: any JSON value.
      return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
  }
}

function objectArbitrary(pointer: string, schema: Schema, steer: Steer): fc.Arbitrary<unknown> {
  const { target } = steer;
  const properties = Object.keys((schema.properties ?? {}) as Schema);
  const required = new Set((schema.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  // Of the properties that lead to the target variant, one is made present (the first, for determinism).
  const leading = properties.find(
    (name) =>
      target !== undefined && reachableVariants(canonical(child(pointer, "properties", name))).has(target),
  );
  // A name the document requires without defining it (a vault's `are_all_chains_disabled`) may hold anything.
  for (const name of required) {
    if (properties.includes(name)) continue;
    model[name] = fc.oneof(fc.boolean(), fc.string(), fc.integer(), fc.constant(null));
    requiredKeys.push(name);
  }
  for (const name of properties) {
    const to = canonical(child(pointer, "properties", name));
    const isRequired = required.has(name) || name === leading;
    model[name] = build(to, name === leading ? steer : { future: steer.future });
    if (isRequired) requiredKeys.push(name);
  }
  const record = fc.record(model, { requiredKeys, noNullPrototype: true });
  const extra = schema.additionalProperties;
  if (properties.length === 0 && extra && typeof extra === "object") {
    const values = build(canonical(child(pointer, "additionalProperties")), steer);
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), values, {
      minKeys: target !== undefined ? 1 : 0,
      maxKeys: 3,
      noNullPrototype: true,
    });
  }
  return record;
}
