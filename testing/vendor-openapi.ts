/**
 * The custody service's published OpenAPI 0.2.0 document (testing/fixtures/vendor-openapi) as a response
 * validator: JSON Schema 2020-12 through ajv, every `$ref` resolved inside the document itself, nothing
 * copied. Besides validity it reports properties that the document does not define for an object, which
 * plain validation lets through (the document leaves `additionalProperties` open).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

type Schema = Record<string, unknown>;

/** The vendored document, parsed. */
export const VENDOR_DOCUMENT: {
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
        parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
        requestBody?: { content: Record<string, { schema?: Schema }> };
      }
    >
  >;
  components: { schemas: Record<string, Schema> };
} = JSON.parse(
  fs.readFileSync(path.join(__dirname, "..", "fixtures", "vendor-openapi", "openapi-0.2.0.json"), "utf8"),
);

const DOC_ID = "https://vendor.example/openapi-0.2.0.json";
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addSchema({ ...VENDOR_DOCUMENT, $id: DOC_ID });
const compiled = new Map<string, ValidateFunction>();

function pointer(...segments: string[]): string {
  return segments.map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
}

function validatorFor(ref: string): ValidateFunction {
  let v = compiled.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: ref });
    compiled.set(ref, v);
  }
  return v;
}

/** The JSON response schema of `path` (with `{placeholders}`), `method` and `status`; undefined when none. */
export function responseSchemaRef(path: string, method: string, status: number): string | undefined {
  const response = VENDOR_DOCUMENT.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)];
  if (!response?.content?.["application/json"]?.schema) return undefined;
  return `${DOC_ID}#/${pointer("paths", path, method.toLowerCase(), "responses", String(status), "content", "application/json", "schema")}`;
}

/** A schema of the document by JSON pointer (`#/components/schemas/Vault`), as a `checkBody` reference. */
export function documentRef(pointer: string): string {
  return `${DOC_ID}${pointer.startsWith("#") ? pointer : `#${pointer}`}`;
}

/** JSON pointer of a path's operation in the document: `#/paths/~1api~1v1~1vaults/post`. */
export function operationPointer(path: string, method: string): string {
  return `#/${pointer("paths", path, method.toLowerCase())}`;
}

/** Statuses the document lists for an operation. */
export function documentedStatuses(path: string, method: string): number[] {
  return Object.keys(VENDOR_DOCUMENT.paths[path]?.[method.toLowerCase()]?.responses ?? {}).map(Number);
}

/** One problem with a response body. */
export interface ConformanceProblem {
  /** JSON pointer into the body. */
  at: string;
  message: string;
}

/** Validates `body` against the schema at `ref` and looks for undefined properties. */
export function checkBody(ref: string, body: unknown): ConformanceProblem[] {
  const validate = validatorFor(ref);
  const problems: ConformanceProblem[] = [];
  if (!validate(body)) {
    preciseErrors({ $ref: ref }, body, "", problems);
    if (problems.length === 0) problems.push({ at: "/", message: "does not match the schema" });
    return problems;
  }
  undefinedProperties({ $ref: ref }, body, "", problems);
  return problems;
}

function resolve(schema: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 20 && typeof s.$ref === "string"; i++) {
    const [, fragment] = (s.$ref as string).split("#");
    s = {
      ...((fragment ?? "")
        .split("/")
        .slice(1)
        .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], VENDOR_DOCUMENT) as Schema),
      ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== "$ref")),
    };
  }
  return s;
}

const branchValidators = new Map<string, ValidateFunction>();

function matches(schema: Schema, value: unknown): boolean {
  const key = JSON.stringify(schema);
  let validate = branchValidators.get(key);
  if (!validate) {
    validate = ajv.compile(stripIds(schema));
    branchValidators.set(key, validate);
  }
  return validate(value) as boolean;
}

function stripIds(schema: Schema): Schema {
  // Branches are validated through the document, so their `$ref`s stay resolvable.
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOC_ID}#/`));
}

/** Walks `value` along `schema`, reporting object properties that the schema (or its `allOf`) does not define. */
function undefinedProperties(schemaIn: Schema, value: unknown, at: string, out: ConformanceProblem[]): void {
  const schema = resolve(schemaIn);
  const branches = [...((schema.oneOf ?? schema.anyOf ?? []) as Schema[])];
  if (branches.length > 0) {
    const branch = branches.find((b) => matches(b, value));
    if (branch) undefinedProperties(branch, value, at, out);
    return;
  }
  if (Array.isArray(value)) {
    const items = (schema.items ?? schema.prefixItems) as Schema | undefined;
    if (items && !Array.isArray(items)) {
      for (const [i, v] of value.entries()) undefinedProperties(items, v, `${at}/${i}`, out);
    }
    return;
  }
  if (value === null || typeof value !== "object") return;
  const parts = [schema, ...((schema.allOf ?? []) as Schema[]).map(resolve)];
  const properties: Record<string, Schema> = {};
  let open = false;
  for (const part of parts) {
    Object.assign(properties, (part.properties ?? {}) as Record<string, Schema>);
    // A required name is defined even where the document forgot it among the properties.
    for (const name of (part.required ?? []) as string[]) properties[name] ??= {};
    if (part.additionalProperties !== undefined && part.additionalProperties !== false) open = true;
    // An object schema that defines no property at all (RateLimitError) says nothing about its fields.
    if (!part.properties || Object.keys(part.properties as object).length === 0)
      open = open || parts.length === 1;
  }
  const extra = parts.map((p) => p.additionalProperties).find((a) => a !== null && typeof a === "object") as
    | Schema
    | undefined;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const childSchema = properties[key] ?? extra;
    if (childSchema) undefinedProperties(childSchema, child, `${at}/${key}`, out);
    else if (!open) out.push({ at: `${at}/${key}`, message: "property not defined by the published schema" });
  }
}

/** The discriminating property of a union and its value in each branch (`type`, `chain_type`, …). */
function pickBranch(branches: Schema[], value: unknown): Schema | undefined {
  if (value === null || typeof value !== "object") return branches.find((b) => matches(b, value));
  const record = value as Record<string, unknown>;
  let best: { branch: Schema; score: number } | undefined;
  for (const raw of branches) {
    const branch = resolve(raw);
    const props = (branch.properties ?? {}) as Record<string, Schema>;
    let score = 0;
    let contradicted = false;
    for (const [key, prop] of Object.entries(props)) {
      const constant = resolve(prop).const;
      if (constant === undefined) continue;
      if (record[key] === constant) score += 1;
      else contradicted = true;
    }
    if (!contradicted && (!best || score > best.score)) best = { branch: raw, score };
  }
  return best?.branch ?? branches.find((b) => matches(b, value));
}

/** Errors at the deepest place they apply: unions are narrowed to the branch the value claims to be. */
function preciseErrors(schemaIn: Schema, value: unknown, at: string, out: ConformanceProblem[]): void {
  if (matches(schemaIn, value)) return;
  const schema = resolve(schemaIn);
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (branches) {
    const branch = pickBranch(branches, value);
    if (branch) preciseErrors(branch, value, at, out);
    else out.push({ at: at || "/", message: "matches no variant of the union" });
    return;
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === "object") {
    for (const [i, v] of value.entries()) preciseErrors(schema.items as Schema, v, `${at}/${i}`, out);
    return;
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const parts = [schema, ...((schema.allOf ?? []) as Schema[]).map(resolve)];
    const properties: Record<string, Schema> = {};
    const required = new Set<string>();
    for (const part of parts) {
      Object.assign(properties, (part.properties ?? {}) as Record<string, Schema>);
      for (const r of (part.required ?? []) as string[]) required.add(r);
    }
    const before = out.length;
    for (const r of required)
      if (!(r in (value as object))) out.push({ at: `${at}/${r}`, message: "required property missing" });
    const extra = parts.map((p) => p.additionalProperties).find((a) => a !== null && typeof a === "object") as
      | Schema
      | undefined;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const childSchema = properties[key] ?? extra;
      if (childSchema) preciseErrors(childSchema, child, `${at}/${key}`, out);
    }
    if (out.length > before) return;
  }
  const validate = ajv.compile(stripIds(schema));
  validate(value);
  const first = validate.errors?.[0];
  out.push({
    at: at || "/",
    message: `${first?.message ?? "invalid"}${first?.params ? ` ${JSON.stringify(first.params)}` : ""}; got ${JSON.stringify(value)?.slice(0, 80)}`,
  });
}
