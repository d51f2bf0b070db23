/**
 * Turns zod issues into the service's 422 `detail` list (FastAPI/pydantic style):
 * `loc` starts with where the value came from (`body`, `query`, `path`, `header`), then the zod path;
 * `type` is the pydantic error type a FastAPI service would report.
 */

import type { ValidationIssue } from "@pulumi-custody/sdk/schema";
import { closedWorld } from "@pulumi-custody/sdk/schema";
import type { z } from "zod";

export type InputLocation = "body" | "query" | "path" | "header";

/** Validates `input` against `schema`; on failure returns the issues, located under `location`. */
export function validate<T extends z.ZodType>(
  schema: T,
  input: unknown,
  location: InputLocation,
): { ok: true; value: z.output<T> } | { ok: false; issues: ValidationIssue[] } {
  // The emulator plays the service, which knows every value it accepts: enums and unions are closed here.
  const result = closedWorld(() => schema.safeParse(input));
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: toPydanticIssues(result.error.issues, location, input) };
}

/**
 * Maps zod issues to pydantic's `{loc, msg, type}` (the service's 422 wording and types), dropping exact
 * duplicates (refinements may repeat an issue).
 */
export function toPydanticIssues(
  issues: readonly z.core.$ZodIssue[],
  location: InputLocation,
  input: unknown,
): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const loc = [location, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))];
    const missing = valueAt(input, issue.path) === undefined;
    const mapped = { loc, msg: messageOf(issue, missing), type: typeOf(issue, missing) };
    const key = JSON.stringify([mapped.loc, mapped.msg]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(mapped);
  }
  return out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function messageOf(issue: z.core.$ZodIssue, missing: boolean): string {
  if (missing && (issue.code === "invalid_type" || /received undefined/.test(issue.message))) {
    return "Field required";
  }
  if (issue.code === "invalid_value" && issue.values.length > 0) {
    // pydantic's wording, as in the real 422 body: "Input should be 'legacy', 'segwit' or 'taproot'".
    const quoted = issue.values.map((v) => `'${String(v)}'`);
    const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
    return `Input should be ${list}`;
  }
  return issue.message;
}

function typeOf(issue: z.core.$ZodIssue, missing: boolean): string {
  switch (issue.code) {
    case "invalid_type":
      if (missing) return "missing";
      if (issue.expected === "object") return "model_attributes_type";
      if (issue.expected === "array") return "list_type";
      return `${issue.expected}_type`;
    case "invalid_value":
      return issue.values.length === 1 ? "literal_error" : "enum";
    case "too_small":
      return issue.origin === "string"
        ? "string_too_short"
        : issue.origin === "array"
          ? "too_short"
          : "greater_than_equal";
    case "too_big":
      return issue.origin === "string"
        ? "string_too_long"
        : issue.origin === "array"
          ? "too_long"
          : "less_than_equal";
    case "invalid_format":
      return /UUID/i.test(issue.message) ? "uuid_parsing" : "string_pattern_mismatch";
    case "invalid_union":
      return "union_tag_invalid";
    case "unrecognized_keys":
      return "extra_forbidden";
    case "not_multiple_of":
      return "multiple_of";
    default:
      return missing ? "missing" : "value_error";
  }
}
