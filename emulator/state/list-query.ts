/**
 * Sorting and paging shared by every list endpoint (docs/api-notes.md, "Query parameters" and "Paging").
 *
 * Default order, when `sort_by` is absent: `created_at` ascending, records created in the same instant in
 * the order they were created (the API leaves it open). `sort_by` values are
 * `<field>_asc|<field>_desc`; several apply in order, and the default order breaks the remaining ties, so
 * every order is total and the same on every run. Missing values sort as the largest
 * (last ascending, first descending), as PostgreSQL does.
 */
import { DEFAULT_PAGE_SIZE } from "@pulumi-custody/sdk/schema";

export type SortValue = string | number | bigint | boolean | undefined;
export type SortKeys<T> = Record<string, (item: T) => SortValue>;

export interface Paging {
  page?: number;
  size?: number;
  skip_count?: boolean;
}

export interface Page<T> {
  total: number;
  page: number;
  size: number;
  items: T[];
}

function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  if (typeof a === "string" && typeof b === "string") {
    const la = a.toLowerCase();
    const lb = b.toLowerCase();
    if (la !== lb) return la < lb ? -1 : 1;
    return a < b ? -1 : 1;
  }
  if (typeof a === "boolean" || typeof b === "boolean") return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sorts `items` (a new array) by the `sort_by` values, then by `created_at`; the sort is stable, so items
 * given in creation order keep it for ties. `keys` maps a field name (`name` in `name_asc`) to its value.
 */
export function sortItems<T extends { created_at: string }>(
  items: readonly T[],
  sortBy: readonly string[] | undefined,
  keys: SortKeys<T>,
): T[] {
  const criteria = (sortBy ?? []).map((value) => {
    const desc = value.endsWith("_desc");
    const field = value.replace(/_(asc|desc)$/, "");
    const key = keys[field];
    if (!key) throw new Error(`no sort key for ${value}`);
    return { key, sign: desc ? -1 : 1 };
  });
  return [...items].sort((a, b) => {
    for (const { key, sign } of criteria) {
      const c = compareValues(key(a), key(b)) * sign;
      if (c !== 0) return c;
    }
    return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0;
  });
}

const defaultOrderCache = new WeakMap<Map<string, unknown>, { size: number; items: unknown[] }>();

/**
 * The records of a collection in the default order, cached: records are never removed from these
 * collections and `created_at` never changes, so the order only changes when the size does (a reset
 * replaces the Map itself). Callers must not mutate the returned array.
 */
export function inDefaultOrder<T extends { created_at: string }>(collection: Map<string, T>): readonly T[] {
  const cached = defaultOrderCache.get(collection) as { size: number; items: T[] } | undefined;
  if (cached && cached.size === collection.size) return cached.items;
  const all = [...collection.values()];
  // Records are only ever appended to these Maps. New ones not older than the last cached one (the usual
  // case: creations follow the clock) are appended; otherwise everything is sorted again.
  let previous = cached?.items.at(-1)?.created_at ?? "";
  const added = cached ? all.slice(cached.size) : all;
  const inOrder =
    cached !== undefined &&
    added.every((r) => {
      const ok = previous <= r.created_at;
      previous = r.created_at;
      return ok;
    });
  const items = inOrder ? [...cached.items, ...added] : sortItems(all, undefined, {});
  defaultOrderCache.set(collection, { size: collection.size, items });
  return items;
}

/** One page of `items`. With `skip_count`, `total` is the count seen so far (items up to this page). */
export function paginate<T>(items: readonly T[], paging: Paging): Page<T> {
  const page = paging.page ?? 1;
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  // `/users` documents no lower bound for `page`; there is nothing before page 1.
  const start = Math.max(0, (page - 1) * size);
  const slice = page < 1 ? [] : items.slice(start, start + size);
  const total = paging.skip_count ? Math.min(items.length, start + slice.length) : items.length;
  return { total, page, size, items: slice };
}

const PAGING_KEYS = new Set(["page", "size", "skip_count", "sort_by"]);

/** Whether a list query sets anything besides paging, sorting and the `ignored` keys. */
export function hasFilters(query: object, ignored: readonly string[] = []): boolean {
  return Object.entries(query).some(
    ([k, v]) => v !== undefined && !PAGING_KEYS.has(k) && !ignored.includes(k),
  );
}

/** True when the filter is absent or the value is one of its entries. */
export function matches<V>(filter: readonly V[] | undefined, value: V): boolean {
  return filter === undefined || filter.includes(value);
}
