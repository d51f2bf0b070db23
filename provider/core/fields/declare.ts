/**
 * A resource's fields, each declared once, beside its descriptor (../vault/declaration.ts,
 * ../vault-address/declaration.ts). A field is an input, an output, or both; its declaration holds what every
 * layer needs of it, and every layer derives from it:
 * - the input's type and rules (a zod schema), whether it is required, what a change of it does (replace,
 *   update, nothing), whether it is secret, its default, which other input it depends on, its mapping to the
 *   API's create request, how the live object reports it (a refresh), and how `custody review` shows a change;
 * - the output's type (a zod schema) and where its value comes from: the API's record, the declared input the
 *   state keeps (the API does not report it), or the resource's own state;
 * - the field's documentation: the TSDoc comment on its entry, which the argument and output types derived
 *   below carry to the program's editor and to the API reference.
 *
 * From the declaration come `check` (./check.ts), the changes `diff` sees (./diff.ts), the outputs carried
 * through create and read and the create request (./state.ts), the public types (below, and
 * provider/resources/declare.ts for the program's arguments), the plugin's schema (`@pulumi-custody/plugin`), the
 * program `custody import` writes, the policy pack's view of a vault and the rows of `custody review`.
 */
import { z } from "zod";
import type { FieldReader } from "../field-tables";

type Props = Record<string, unknown>;

/** What a change of an input does: replaces the object, updates it in place, or nothing (a setting of ours). */
export type InputChange = "replace" | "update" | "none";

/**
 * The input applies only when another input has one of some values, and may be required then: `chain` is for
 * `type: "utxo"` vaults, and required there.
 */
export interface OnlyWhen {
  /** The input it depends on (`type`). */
  readonly input: string;
  /** Its values for which this input applies. */
  readonly is: readonly string[];
  /** Required for those values (not only allowed). */
  readonly required?: boolean;
  /** An example value, for the failure that says it is missing (`"bitcoin_mainnet"`). */
  readonly example?: string;
}

/**
 * Where `custody review` lists a change of an input: `renamed`, `groups` (a proposal an approver accepts),
 * `archive` (`true` archives, anything else restores), `safety` (protection and adoption: listed first, even
 * when nothing else changes), or `updated` (the default).
 */
export type ReviewSection = "renamed" | "groups" | "archive" | "safety" | "updated";

/** How `custody review` shows a change of an input. */
export interface ReviewSpec {
  /** How a row names the input; default: its name, as the program spells it. */
  readonly label?: string;
  /** Where a change is listed; default `updated`. */
  readonly section?: ReviewSection;
  /** What a change to `true` means, after the change (`adoptExisting`: it changes nothing now, but …). */
  readonly whenTrue?: string;
}

/** The input part of a field. */
export interface InputSpec<T = unknown> {
  /** Its type and rules: what `check` validates with, what the plugin's schema declares. */
  readonly type: z.ZodType<T>;
  /** A program must declare it. */
  readonly required?: boolean;
  /** What a change of it does. */
  readonly change: InputChange;
  /** Its value is a secret: kept out of every message, and a secret in the state. */
  readonly secret?: boolean;
  /**
   * The value an unset input stands for. The state keeps the default of a carried input, and a refresh reports
   * a value equal to it as unset.
   */
  readonly default?: T;
  /** Notes on some of its values (an enum's), which the plugin's schema gives those values. */
  readonly valueNotes?: Readonly<Record<string, string>>;
  /** It applies only when another input has some values. */
  readonly onlyWhen?: OnlyWhen;
  /** Unset, it leaves the live value alone (`addressType`: the API's choice): an unset input is no change. */
  readonly unsetLeavesAlone?: boolean;
  /**
   * Whether the new input differs from the state (the outputs, as last seen). Default: a value (or one of its
   * items) unknown during a preview differs; otherwise the input and the output of the same name are compared
   * as values (lists item by item, objects key by key), unset equal to unset.
   */
  readonly differs?: (olds: Props, news: Props) => boolean;
  /** Its part of the API's create request: `(chain) => ({ chain })`; an input without one is not sent. */
  readonly create?: (value: T) => Props;
  /**
   * The input as the live object has it (a refresh reports it, so that drift shows), from the outputs. Default:
   * the output of the same name, or the output that carries the input (see {@link OutputSpec.carries}).
   */
  readonly live?: (outputs: Props) => unknown;
  /**
   * Why an existing object (the API's record) is not the one declared, for adopting or restoring one of the same
   * name; `undefined` when it matches on this input.
   */
  // biome-ignore lint/suspicious/noExplicitAny: a declaration's record type is its own
  readonly mismatch?: (record: any, declared: Props) => string | undefined;
  /** Set by the resource class, not declared by the program (not an argument of the program's resource). */
  readonly setByResource?: boolean;
  /** How `custody review` shows a change. */
  readonly review?: ReviewSpec;
}

/** The output part of a field. */
export interface OutputSpec<T = unknown> {
  /** Its type (values a refresh may report: an input's enum is a string here). */
  readonly type: z.ZodType<T>;
  /** Its value from the API's record; without it and {@link carries}, the resource computes it (its state). */
  // biome-ignore lint/suspicious/noExplicitAny: a declaration's record type is its own
  readonly read?: (record: any) => T | undefined;
  /**
   * The declared input whose value it keeps, because the API does not report it (`declaredArchived` keeps
   * `archived`); it wins over {@link read}. A refresh keeps it as it was.
   */
  readonly carries?: string;
  /** The plugin's schema declares its type under this name (`PendingVaultGroupProposal`), with this description. */
  readonly named?: { readonly name: string; readonly description: string };
}

/** One field of a resource: an input, an output, or both. */
export interface FieldSpec {
  /** Its input part. */
  // biome-ignore lint/suspicious/noExplicitAny: each field's value has its own type
  readonly input?: InputSpec<any>;
  /** Its output part. */
  // biome-ignore lint/suspicious/noExplicitAny: each field's value has its own type
  readonly output?: OutputSpec<any>;
}

/** A resource's fields, by name, in the order the program declares them. */
export type FieldDeclarations = Readonly<Record<string, FieldSpec>>;

/** The input part of a field: its type, and the rest of {@link InputSpec}. */
export function input<S extends z.ZodType, const O extends Omit<InputSpec<z.output<S>>, "type">>(
  type: S,
  spec: O,
): O & { readonly type: S } {
  return { ...spec, type };
}

/** The output part of a field that the API's record gives: a reader of a field table (../field-tables.ts). */
// biome-ignore lint/suspicious/noExplicitAny: a declaration's record type is its own
export function fromRecord<T>(reader: FieldReader<any, T>, rest: Omit<OutputSpec<T>, "type" | "read"> = {}) {
  return { ...rest, type: reader.type, read: reader } satisfies OutputSpec<T>;
}

/** The output part of a field that keeps a declared input (`carries`), or that the resource computes. */
export function output<S extends z.ZodType>(
  type: S,
  rest: Omit<OutputSpec<z.output<S>>, "type"> = {},
): Omit<OutputSpec<z.output<S>>, "type"> & { readonly type: S } {
  return { ...rest, type };
}

/** The fields that are inputs, in declaration order. */
export function inputNames(fields: FieldDeclarations): string[] {
  return Object.keys(fields).filter((name) => fields[name]!.input !== undefined);
}

/** The fields that are outputs, in declaration order. */
export function outputNames(fields: FieldDeclarations): string[] {
  return Object.keys(fields).filter((name) => fields[name]!.output !== undefined);
}

/** The input part of a field (`undefined` for an output only). */
export function inputOf(fields: FieldDeclarations, name: string): InputSpec | undefined {
  return fields[name]?.input as InputSpec | undefined;
}

/** The output part of a field (`undefined` for an input only). */
export function outputOf(fields: FieldDeclarations, name: string): OutputSpec | undefined {
  return fields[name]?.output as OutputSpec | undefined;
}

/** The inputs whose change replaces the object. */
export function replaceOnChanges(fields: FieldDeclarations): string[] {
  return inputNames(fields).filter((name) => inputOf(fields, name)!.change === "replace");
}

/** The inputs a program must declare. */
export function requiredInputs(fields: FieldDeclarations): string[] {
  return inputNames(fields).filter((name) => inputOf(fields, name)!.required === true);
}

/** The secret inputs. */
export function secretInputs(fields: FieldDeclarations): string[] {
  return inputNames(fields).filter((name) => inputOf(fields, name)!.secret === true);
}

/** The outputs that are secret: those that are, or carry, a secret input. */
export function secretOutputs(fields: FieldDeclarations): string[] {
  const secret = new Set(secretInputs(fields));
  return outputNames(fields).filter(
    (name) => secret.has(name) || secret.has(outputOf(fields, name)!.carries ?? ""),
  );
}

/**
 * The zod schema of the inputs, as `check` accepts them once they are known: every input, optional unless
 * required, and no other key.
 */
export function inputsSchema(fields: FieldDeclarations): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const name of inputNames(fields)) {
    const spec = inputOf(fields, name)!;
    shape[name] = spec.required ? spec.type : spec.type.optional();
  }
  return z.strictObject(shape);
}

/** The kind of a value, as a reader of raw inputs (the policy pack's view) checks it. */
export type ValueKind = "string" | "number" | "boolean" | "list" | "object";

/** The kind of the values of a type, and of its items for a list. */
export function valueKindOf(type: z.ZodType): { kind: ValueKind; items?: ValueKind } {
  if (type instanceof z.ZodOptional || type instanceof z.ZodNullable)
    return valueKindOf(type.unwrap() as z.ZodType);
  if (type instanceof z.ZodArray) return { kind: "list", items: valueKindOf(type.element as z.ZodType).kind };
  if (type instanceof z.ZodString || type instanceof z.ZodEnum) return { kind: "string" };
  if (type instanceof z.ZodBoolean) return { kind: "boolean" };
  if (type instanceof z.ZodNumber) return { kind: "number" };
  if (type instanceof z.ZodLiteral) {
    const kinds = new Set([...type.values].map((value) => typeof value));
    if (kinds.size === 1) {
      const [only] = kinds;
      if (only === "string" || only === "number" || only === "boolean") return { kind: only };
    }
  }
  return { kind: "object" };
}

/** The output that keeps a declared input, if any (`archived` → `declaredArchived`). */
export function carrierOf(fields: FieldDeclarations, name: string): string | undefined {
  return outputNames(fields).find((output) => outputOf(fields, output)!.carries === name);
}

// ---- the types a declaration gives -------------------------------------------------------------------------

/** The value of an input of a field (after `check`). */
type InputValue<F> = F extends { input: { type: infer S extends z.ZodType } } ? z.output<S> : never;

/** The value of an output of a field. */
type OutputValue<F> = F extends { output: { type: infer S extends z.ZodType } } ? z.output<S> : never;

/** The fields that are inputs. */
type InputKeys<D> = { [K in keyof D]: D[K] extends { input: object } ? K : never }[keyof D];

/** The inputs of a declaration after `check`: each input's value, optional unless required. */
export type DeclaredInputsOf<D> = {
  -readonly [K in keyof D as D[K] extends { input: { required: true } } ? K : never]: InputValue<D[K]>;
} & {
  -readonly [K in keyof D as K extends InputKeys<D>
    ? D[K] extends { input: { required: true } }
      ? never
      : K
    : never]?: InputValue<D[K]>;
};

/** The outputs of a declaration: each output's value, optional when its type allows `undefined`. */
export type DeclaredOutputsOf<D> = {
  -readonly [K in keyof D as D[K] extends { output: object }
    ? undefined extends OutputValue<D[K]>
      ? never
      : K
    : never]: OutputValue<D[K]>;
} & {
  -readonly [K in keyof D as D[K] extends { output: object }
    ? undefined extends OutputValue<D[K]>
      ? K
      : never
    : never]?: Exclude<OutputValue<D[K]>, undefined>;
};

/** The inputs a program declares (those the resource class does not set itself), as {@link DeclaredInputsOf}. */
export type ProgramInputsOf<D> = {
  [K in keyof DeclaredInputsOf<D> as K extends keyof D
    ? D[K] extends { input: { setByResource: true } }
      ? never
      : K
    : never]: DeclaredInputsOf<D>[K];
};
