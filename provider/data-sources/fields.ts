/** Tolerant readers for API records (responses are lenient: fields may be missing or newer than we know). */

/** An API record, read loosely. */
export type ApiRecord = Record<string, unknown>;

/** The value if it is a string. */
export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The value if it is a finite number. */
export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The value if it is a boolean. */
export function bool(value: unknown): boolean | undefined {
  return typeof value === "boolean" ? value : undefined;
}

/** The value if it is a plain object. */
export function obj(value: unknown): ApiRecord | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as ApiRecord)
    : undefined;
}

/** The value if it is an array, else empty. */
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The `id`s of a list of reference objects. */
export function ids(value: unknown): string[] {
  return arr(value)
    .map((item) => str(obj(item)?.id))
    .filter((id): id is string => id !== undefined);
}

/** Drops keys whose value is `undefined`, so results print and compare cleanly. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The items of a `listAll` iteration (which pages with the largest size and fetches the pages after the first
 * in parallel), or its first `maxItems`; stopping early cancels the pages still in flight.
 */
export async function collect<T>(items: AsyncIterable<T>, maxItems?: number): Promise<ApiRecord[]> {
  const out: ApiRecord[] = [];
  if (maxItems !== undefined && maxItems <= 0) return out;
  for await (const item of items) {
    out.push(item as unknown as ApiRecord);
    if (maxItems !== undefined && out.length >= maxItems) break;
  }
  return out;
}
