/**
 * `check` of any resource, from its field declarations (./declare.ts): the declared inputs are validated with
 * their types and rules, at preview time, and come back normalized. One way for every kind of input (a string,
 * a list, an object, a union of objects):
 * - a value the engine does not know yet during a preview (an output of another resource), or an item or key
 *   of it, is skipped, not guessed: a rule that the known part breaks still fails (a list's known item that is
 *   no UUID), a rule that only the unknown part could break does not;
 * - an input that depends on another (`chain` on `type`) is checked once that one is known and valid;
 * - identifiers the API compares without case are lower-cased, at any depth, as the API writes them;
 * - a failure names the input and the rule, and never prints a secret input's value.
 */
import { z } from "zod";
import { containsUnknown, isUnknown } from "../host/unknown-values";
import {
  type CheckFailure,
  engineSafeFailures,
  failuresFromIssues,
  isCaseInsensitive,
  parseCheckedInputs,
} from "../inputs/schemas";
import { type FieldDeclarations, inputNames, inputOf, inputsSchema, secretInputs } from "./declare";

type Props = Record<string, unknown>;

/** The result of `check`: normalized inputs, or the failures that stop the preview. */
export interface CheckResult {
  /** The inputs to use from now on (normalized; unknown values kept as they are). */
  inputs: Props;
  /** Failures, each naming the input property. */
  failures?: CheckFailure[];
}

/** What a resource adds to the checks its fields declare. */
export interface CheckOptions {
  /** What the object is called in a failure (`vault`: `is required for "utxo" vaults`). */
  readonly noun: string;
  /** Rules between inputs beyond those a field declares; given the declared inputs (unknown values included). */
  readonly rules?: (declared: Props) => CheckFailure[];
  /** Adds to a failure's reason what the program cannot see (where a value it did not write came from). */
  readonly explain?: (failure: CheckFailure, declared: Props) => CheckFailure;
}

/** Validates and normalizes the new inputs of a resource. `__provider` (the engine's) passes through. */
export function checkInputs(fields: FieldDeclarations, news: Props, options: CheckOptions): CheckResult {
  const { __provider: provider, ...rest } = news;
  // An input set to null is unset, as the engine and the program mean it.
  const declared = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined && value !== null),
  );
  const failures: CheckFailure[] = [];
  const parsed = inputsSchema(fields).safeParse(declared);
  if (!parsed.success) {
    const issues = parsed.error.issues.filter((issue) => !onUnknownValue(declared, issue));
    failures.push(...failuresFromIssues(issues, inputNames(fields)));
  }
  failures.push(...dependencyFailures(fields, declared, options.noun));
  failures.push(...(options.rules?.(declared) ?? []));

  if (failures.length > 0) {
    const explained = options.explain ? failures.map((f) => options.explain!(f, declared)) : failures;
    return { inputs: news, failures: engineSafeFailures(news, dedupe(explained), secretInputs(fields)) };
  }
  const inputs: Props = {};
  for (const [name, value] of Object.entries(declared))
    inputs[name] = normalized(value, inputOf(fields, name)?.type);
  if (provider !== undefined) inputs.__provider = provider;
  return { inputs };
}

/**
 * The inputs that `check` accepted, typed. The engine hands `create` and `update` what `check` returned, so this
 * only fails on a bug; it then names every property and rule, as `check` would.
 */
export function checkedInputs<T>(fields: FieldDeclarations, inputs: Props): T {
  return parseCheckedInputs(inputsSchema(fields) as unknown as z.ZodType<T>, inputs, inputNames(fields));
}

/**
 * Whether an issue is about a value not known yet: the value at its path, or at a part of its path, is the
 * preview's placeholder; or the issue is about a whole list or object that holds one (a union that cannot tell
 * its member, a list that would be long enough). A key that no input has is never about an unknown value.
 */
function onUnknownValue(declared: Props, issue: z.core.$ZodIssue): boolean {
  let node: unknown = declared;
  for (const key of issue.path) {
    if (isUnknown(node)) return true;
    node =
      node !== null && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key] : undefined;
  }
  if (isUnknown(node)) return true;
  return issue.path.length > 0 && issue.code !== "unrecognized_keys" && containsUnknown(node);
}

function quoted(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(", ");
}

/**
 * The failures of inputs that apply only for some values of another (`chain` for `type: "utxo"`): missing where
 * required, set where they do not apply. Skipped while that input is unknown or not a value it accepts (its own
 * failure says so).
 */
function dependencyFailures(fields: FieldDeclarations, declared: Props, noun: string): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const name of inputNames(fields)) {
    const rule = inputOf(fields, name)!.onlyWhen;
    if (!rule) continue;
    const control = declared[rule.input];
    if (typeof control !== "string" || isUnknown(control)) continue;
    if (!inputOf(fields, rule.input)?.type.safeParse(control).success) continue;
    const applies = rule.is.includes(control);
    const value = declared[name];
    if (applies && rule.required && value === undefined) {
      const example = rule.example !== undefined ? ` (e.g. ${rule.example})` : "";
      failures.push({ property: name, reason: `is required for ${quoted(rule.is)} ${noun}s${example}` });
    }
    if (!applies && value !== undefined) {
      failures.push({
        property: name,
        reason: `is only for ${quoted(rule.is)} ${noun}s; a "${control}" ${noun} must not set it`,
      });
    }
  }
  return failures;
}

function dedupe(failures: CheckFailure[]): CheckFailure[] {
  const seen = new Set<string>();
  return failures.filter((f) => {
    const key = `${f.property}\u0000${f.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isPlainObject(value: unknown): value is Props {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * `value` with every identifier that its type marks as compared without case lower-cased (the API's spelling,
 * so that it compares equal to what the API returns), in lists and objects too; unknown values stay as they are.
 */
export function normalized(value: unknown, type: z.ZodType | undefined): unknown {
  if (type === undefined || value === undefined || value === null || isUnknown(value)) return value;
  if (type instanceof z.ZodOptional || type instanceof z.ZodNullable)
    return normalized(value, type.unwrap() as z.ZodType);
  if (typeof value === "string") return isCaseInsensitive(type) ? value.toLowerCase() : value;
  if (type instanceof z.ZodArray && Array.isArray(value))
    return value.map((item) => normalized(item, type.element as z.ZodType));
  if (type instanceof z.ZodObject && isPlainObject(value)) {
    const shape = type.shape as Record<string, z.ZodType>;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, normalized(item, shape[key])]),
    );
  }
  if (type instanceof z.ZodUnion && isPlainObject(value)) {
    const member = memberOf(type.options as z.ZodType[], value);
    return member ? normalized(value, member) : value;
  }
  return value;
}

/**
 * The member of a union of objects that a value is: the one it parses as; with parts not known yet (its
 * discriminator, say), the one member that takes its known keys, those unknown ones made optional. `undefined`
 * when no member, or more than one, could be it.
 */
function memberOf(options: readonly z.ZodType[], value: Props): z.ZodType | undefined {
  const exact = options.find((option) => option.safeParse(value).success);
  if (exact) return exact;
  const unknownKeys = Object.keys(value).filter((key) => containsUnknown(value[key]));
  if (unknownKeys.length === 0) return undefined;
  const known = Object.fromEntries(Object.entries(value).filter(([key]) => !unknownKeys.includes(key)));
  const mask = Object.fromEntries(unknownKeys.map((key) => [key, true] as const));
  const candidates = options.filter(
    (option) =>
      option instanceof z.ZodObject &&
      unknownKeys.every((key) => key in option.shape) &&
      option.partial(mask as Record<string, true> & Record<number, never>).safeParse(known).success,
  );
  return candidates.length === 1 ? candidates[0] : undefined;
}
