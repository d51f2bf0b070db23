/**
 * Input values as a preview shows them, and how a report prints them. The engine never prints two kinds of
 * values:
 *
 * - a secret is masked: `"[secret]"` in the digest of `pulumi preview --json`, and
 *   `{ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "[secret]" }` (a secret's
 *   signature, without its value) in the event stream; `--show-secrets` changes neither;
 * - a value not known until the update (an output of a resource that is created or replaced) is the placeholder
 *   `UNKNOWN` of `pulumi-custody/core`, in both forms and on both provider paths.
 *
 * So two masked values cannot be compared, and a placeholder is not a value: {@link compareField} says which
 * of these a field's change is, and {@link showValue} never prints a placeholder or a mask.
 */
import { UNKNOWN } from "pulumi-custody/core";
import { codeText, VALUE_MAX } from "./markdown-text";

/** The key of the engine's signature of a secret in the event stream (the engine's `sig.Key`). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The signature value that marks a secret (the engine's `sig.Secret`). */
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** What the digest prints in place of a secret. */
const DIGEST_SECRET = "[secret]";

/** Whether a value is the engine's mask of a secret, in either form. */
export function isMasked(value: unknown): boolean {
  if (value === DIGEST_SECRET) return true;
  return (
    value !== null && typeof value === "object" && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

/** Whether a value is, or holds at any depth, a mask. */
export function containsMasked(value: unknown): boolean {
  if (isMasked(value)) return true;
  if (Array.isArray(value)) return value.some(containsMasked);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsMasked);
  return false;
}

/** Whether a value is, or holds at any depth, the placeholder of a value not known until the update. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** What a report prints for a value not known until the update. */
export const KNOWN_AFTER_APPLY = "known after apply";

const PLACEHOLDER_TEXT = `<${KNOWN_AFTER_APPLY}>`;
const SECRET_TEXT = "<secret>";

/**
 * A value for Markdown: `unset`, `known after apply`, or the JSON in a code span (masks and placeholders named),
 * shown by the one rule (what JSON leaves raw, C1, bidi and zero-width characters among them, escaped) and cut
 * at {@link VALUE_MAX} characters.
 */
export function showValue(value: unknown): string {
  if (value === undefined) return "unset";
  if (value === UNKNOWN) return KNOWN_AFTER_APPLY;
  if (isMasked(value)) return "a secret value";
  const json = JSON.stringify(value, (_key, v: unknown) =>
    v === UNKNOWN ? PLACEHOLDER_TEXT : isMasked(v) ? SECRET_TEXT : v,
  );
  return codeText(json, VALUE_MAX);
}

/** A value for JSON output: masks become `null`, with `secret: true` beside them (see {@link compareField}). */
export function plainValue(value: unknown): unknown {
  if (value === undefined || isMasked(value)) return null;
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (v === UNKNOWN ? KNOWN_AFTER_APPLY : isMasked(v) ? null : v)),
  );
}

/**
 * How one input compares between two states:
 * - `same`: equal (a masked value on both sides counts as `secret`, never as `same`);
 * - `changed`: both visible and different;
 * - `unknown`: the new value is not known until the update;
 * - `secret`: a mask on one side at least, so the values cannot be compared.
 */
export type FieldComparison = "same" | "changed" | "unknown" | "secret";

/** Compares one input's old and new values; `undefined` is unset. */
export function compareField(old: unknown, now: unknown): FieldComparison {
  if (containsUnknown(now)) return "unknown";
  if (containsMasked(old) || containsMasked(now)) {
    // A secret set where there was none, or removed, changed for sure; two masks cannot be compared.
    if (old === undefined || now === undefined) return "changed";
    return "secret";
  }
  return sameValue(old, now) ? "same" : "changed";
}

/** Deep equality of JSON values (key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameValue(item, b[i]));
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  const keysA = Object.keys(a as object);
  const keysB = Object.keys(b as object);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) =>
    sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}
