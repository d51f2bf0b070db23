/**
 * The engine's placeholder for values not known yet during a preview (`rpc.unknownValue` in @pulumi/pulumi).
 * `check` and `diff` see it in place of any input that depends on another resource's output.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True for the preview placeholder of an unknown value. */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when the value is, or contains at any depth, the unknown placeholder. */
export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}
