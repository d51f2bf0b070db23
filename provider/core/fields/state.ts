/**
 * What a resource keeps and sends, from its field declarations (./declare.ts): the API's create request for the
 * declared inputs, the outputs of an object (read from the API's record, or kept from the declared inputs where
 * the API does not report them), the declared inputs read back from the state, the inputs that declare the live
 * object (what a refresh reports), and why an existing object is not the declared one.
 */
import { z } from "zod";
import { withoutUndefined } from "../field-tables";
import { carrierOf, type FieldDeclarations, inputNames, inputOf, outputNames, outputOf } from "./declare";
import { sameValue } from "./diff";

type Props = Record<string, unknown>;

/** The API's create request for the declared inputs: each set input's part, in declaration order. */
export function createRequest(fields: FieldDeclarations, inputs: Props): Props {
  const body: Props = {};
  for (const name of inputNames(fields)) {
    const value = inputs[name];
    const create = inputOf(fields, name)!.create as ((value: unknown) => Props) | undefined;
    if (value !== undefined && value !== null && create) Object.assign(body, create(value));
  }
  return body;
}

/**
 * Why an existing object (the API's record) is not the one the inputs declare, by the first input that says so;
 * `undefined` when it matches.
 */
export function mismatchOf(fields: FieldDeclarations, record: unknown, declared: Props): string | undefined {
  for (const name of inputNames(fields)) {
    const why = inputOf(fields, name)!.mismatch?.(record, declared);
    if (why !== undefined) return why;
  }
  return undefined;
}

/**
 * A value read back from the state, as far as it has the output's type: a list keeps its items that do, any
 * other value is dropped when it does not. State written by any earlier release is read this way.
 */
function tolerated(value: unknown, type: z.ZodType): unknown {
  if (value === undefined || value === null) return undefined;
  const inner = type instanceof z.ZodOptional ? (type.unwrap() as z.ZodType) : type;
  if (inner instanceof z.ZodArray) {
    if (!Array.isArray(value)) return undefined;
    return value.filter((item) => (inner.element as z.ZodType).safeParse(item).success);
  }
  return inner.safeParse(value).success ? value : undefined;
}

/**
 * The declared inputs that the state keeps (the outputs that carry them: `declaredArchived` for `archived`),
 * read tolerantly; an input the state does not hold is left out.
 */
export function carriedInputs(fields: FieldDeclarations, outputs: Props): Props {
  const carried: Props = {};
  for (const name of outputNames(fields)) {
    const spec = outputOf(fields, name)!;
    if (spec.carries === undefined) continue;
    const value = tolerated(outputs[name], spec.type);
    if (value !== undefined) carried[spec.carries] = value;
  }
  return carried;
}

/**
 * The outputs of an object that come from the API's record or from the declared inputs: a carried input's value
 * (its default when unset) wins over the record's. Without a record (a create whose answer could not be read),
 * an output read from it that is also an input takes the declared value. The outputs the resource computes (its
 * state) are its own to add. Unset outputs are left out (the engine's state has no `undefined`).
 */
export function declaredOutputs(fields: FieldDeclarations, record: unknown, declared: Props): Props {
  const out: Props = {};
  for (const name of outputNames(fields)) {
    const spec = outputOf(fields, name)!;
    let value: unknown;
    if (spec.carries !== undefined) value = declared[spec.carries] ?? inputOf(fields, spec.carries)?.default;
    if (value === undefined && spec.read)
      value = record !== undefined ? spec.read(record) : inputOf(fields, name) ? declared[name] : undefined;
    out[name] = value;
  }
  return withoutUndefined(out);
}

/**
 * The inputs that would declare the object as it is now, from its outputs: what `read` reports, so that the
 * engine's diff shows live values against the program's (an out-of-band rename appears as `~ name`). An input
 * whose value is its default is left out, as a program that leaves it unset declares it.
 */
export function liveInputs(fields: FieldDeclarations, outputs: Props): Props {
  const inputs: Props = {};
  for (const name of inputNames(fields)) {
    const spec = inputOf(fields, name)!;
    const value = spec.live ? spec.live(outputs) : outputs[carrierOf(fields, name) ?? name];
    if (value === undefined || value === null) continue;
    if (spec.default !== undefined && sameValue(value, spec.default)) continue;
    inputs[name] = value;
  }
  return inputs;
}

/**
 * The declared inputs the state keeps after an update: the new ones, except that an input whose change replaces
 * the object keeps the value it had when the update leaves it unset (an update never changes such an input).
 */
export function declaredAfterUpdate(fields: FieldDeclarations, before: Props, news: Props): Props {
  const declared: Props = { ...news };
  for (const name of inputNames(fields)) {
    if (inputOf(fields, name)!.change !== "replace") continue;
    if (declared[name] === undefined && before[name] !== undefined) declared[name] = before[name];
  }
  return declared;
}
