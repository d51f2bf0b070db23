/**
 * What `diff` of any resource sees changed, from its field declarations (./declare.ts): each input whose change
 * replaces the object, and each that updates it. The desired inputs are compared with the state (the outputs as
 * last seen, which a refresh updates with live values), so out-of-band changes show as drift.
 */
import { containsUnknown } from "../host/unknown-values";
import { carrierOf, type FieldDeclarations, inputNames, inputOf } from "./declare";

type Props = Record<string, unknown>;

function isUnset(value: unknown): boolean {
  return value === undefined || value === null;
}

function isPlainObject(value: unknown): value is Props {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Whether two values are the same: strings, numbers and booleans by value, lists item by item, objects key by
 * key (a key set to `undefined` or `null` is a key left out); unset equals unset.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (isUnset(a) || isUnset(b)) return isUnset(a) && isUnset(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameValue(item, b[index]));
  }
  if (isPlainObject(a) || isPlainObject(b)) {
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameValue(a[key], b[key]));
  }
  return a === b;
}

/**
 * Whether an input differs from the state by the default rule: a value (or a part of it) not known yet during a
 * preview differs; an input that leaves the live value alone when unset does not differ when unset; otherwise it
 * is compared with the output that keeps it (the output of the same name, or its carrier).
 */
export function inputDiffers(fields: FieldDeclarations, name: string, olds: Props, news: Props): boolean {
  const spec = inputOf(fields, name);
  if (!spec) return false;
  if (spec.differs) return spec.differs(olds, news);
  const desired = news[name];
  if (spec.unsetLeavesAlone && isUnset(desired)) return false;
  if (containsUnknown(desired)) return true;
  return !sameValue(olds[carrierOf(fields, name) ?? name], desired);
}

/** The inputs whose change replaces the object, and those whose change updates it, in declaration order. */
export function changedInputs(
  fields: FieldDeclarations,
  olds: Props,
  news: Props,
): { replaces: string[]; updates: string[] } {
  const replaces: string[] = [];
  const updates: string[] = [];
  for (const name of inputNames(fields)) {
    const change = inputOf(fields, name)!.change;
    if (change === "none" || !inputDiffers(fields, name, olds, news)) continue;
    (change === "replace" ? replaces : updates).push(name);
  }
  return { replaces, updates };
}
