/**
 * Shapes derived from a table of field readers. A resource's outputs and a data source's results are each
 * declared once, as a table `{ field: (record) => value }` with the field's TSDoc on its entry; the types
 * below turn the table into the result type (documentation kept), and {@link project} applies it.
 */

/** A reader of one field. */
// biome-ignore lint/suspicious/noExplicitAny: a table mixes readers of different record types
export type FieldReader = (record: any) => unknown;

/** The object a table of readers produces: a reader that may give `undefined` makes an optional field. */
export type Projected<T extends Record<string, FieldReader>> = {
  [K in keyof T as undefined extends ReturnType<T[K]> ? never : K]: ReturnType<T[K]>;
} & {
  [K in keyof T as undefined extends ReturnType<T[K]> ? K : never]?: Exclude<ReturnType<T[K]>, undefined>;
};

/** Applies every reader of `table` to `record`; fields read as `undefined` are left out (state has none). */
export function project<R, T extends Record<string, (record: R) => unknown>>(
  table: T,
  record: R,
): Projected<T> {
  const out: Record<string, unknown> = {};
  for (const [field, read] of Object.entries(table)) {
    const value = read(record);
    if (value !== undefined) out[field] = value;
  }
  return out as Projected<T>;
}

/** Drops keys whose value is `undefined` (the engine's state, a protobuf struct, cannot hold them). */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
