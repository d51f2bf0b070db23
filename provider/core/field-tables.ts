/**
 * Shapes derived from a table of field readers. A resource's outputs and a data source's results are each
 * declared once, as a table `{ field: field(type, (record) => value) }` with the field's TSDoc on its entry: the
 * type (a zod schema) is what the plugin's schema declares and what the compiler checks the reader against; the
 * types below turn the table into the result type (documentation kept), and {@link project} applies it.
 */
import { z } from "zod";

/** A reader of one field, with the field's type: `field(z.string(), (vault) => vault.name)`. */
// biome-ignore lint/suspicious/noExplicitAny: a table mixes readers of different record types
export interface FieldReader<R = any, T = unknown> {
  /** Reads the field from a record; `undefined` when the record has none. */
  (record: R): T;
  /** The type of the field's value (its values, `undefined` aside): the plugin's schema declares it. */
  readonly type: z.ZodType<T>;
}

/**
 * A field read from a record: its value's type (a zod schema, `.optional()` when a record may have none) and
 * its reader, which the compiler checks against that type.
 */
export function field<S extends z.ZodType, R>(type: S, read: (record: R) => NoInfer<z.output<S>>) {
  const reader = (record: R) => read(record);
  return Object.assign(reader, { type: type as z.ZodType<z.output<S>> }) as FieldReader<R, z.output<S>>;
}

/** Any function that reads a field of a record. */
// biome-ignore lint/suspicious/noExplicitAny: a table mixes readers of different record types
type AnyReader = (record: any) => unknown;

/** The object a table of readers produces: a reader that may give `undefined` makes an optional field. */
export type Projected<T extends Record<string, AnyReader>> = {
  [K in keyof T as undefined extends ReturnType<T[K]> ? never : K]: ReturnType<T[K]>;
} & {
  [K in keyof T as undefined extends ReturnType<T[K]> ? K : never]?: Exclude<ReturnType<T[K]>, undefined>;
};

/** The object types made by {@link tableType}: each is the result of one table of readers. */
const TABLE_TYPES = new WeakSet<z.ZodType>();

/**
 * The type of the objects a table produces (a zod object of its fields' types), for a field whose value is such
 * an object (a `Vault`'s `details`, a vault's `nativeAssets`).
 */
export function tableType<T extends Readonly<Record<string, FieldReader>>>(
  table: T,
): z.ZodType<Projected<T>> {
  const shape = Object.fromEntries(Object.entries(table).map(([name, reader]) => [name, reader.type]));
  const type = z.object(shape) as unknown as z.ZodType<Projected<T>>;
  TABLE_TYPES.add(type);
  return type;
}

/**
 * Whether `type` is the type of a table's results: the plugin's schema declares it without a list of required
 * fields where it stands at the top of a result (a reader may leave any field out).
 */
export function isTableType(type: z.ZodType): boolean {
  return TABLE_TYPES.has(type);
}

/** Applies every reader of `table` to `record`; fields read as `undefined` are left out (state has none). */
export function project<R, T extends Record<string, (record: R) => unknown>>(
  table: T,
  record: R,
): Projected<T> {
  const out: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(table)) {
    const value = read(record);
    if (value !== undefined) out[name] = value;
  }
  return out as Projected<T>;
}

/** Drops keys whose value is `undefined` (the engine's state, a protobuf struct, cannot hold them). */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
