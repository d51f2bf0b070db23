/**
 * Building blocks shared by every schema: identifiers, timestamps, paging and list envelopes.
 *
 * Query schemas are written once and used on both sides of the wire: the client validates typed values
 * before sending, and the emulator validates the raw query string. So every query field accepts its typed
 * form *and* the string form it takes in a URL (`"true"`, `"50"`, a lone value for an array).
 */
import { z } from "zod";

/**
 * The one rule of an id (docs/api-notes.md, "Formats"): a UUID in any RFC 4122 variant, in either case; the
 * service uses v4 but accepts any well-formed id. The client, the emulator and the provider test ids with it.
 */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A UUID ({@link UUID_PATTERN}). */
export const Uuid = z.string().regex(UUID_PATTERN, { message: "must be a UUID" });
/** ISO-8601 timestamp as the service sends it (`2025-02-13T15:27:16.186000Z`); lenient on parse. */
export const DateTime = z.string().min(1);
/** Minor-unit amounts are decimal strings (`^\d+$`). */
export const DecimalString = z.string().regex(/^\d+$/, { message: "must be a string of decimal digits" });
/** A chain unique id: one of the default ids, or `evm_<chain id>` for custom chains. */
export const ChainUniqueId = z.string().min(1, { message: "must not be empty" });

// ---- query-string coercion -------------------------------------------------------------------------------

function wrapArray(v: unknown): unknown {
  return v === undefined || Array.isArray(v) ? v : [v];
}
function parseBool(v: unknown): unknown {
  if (v === "true") return true;
  if (v === "false") return false;
  return v;
}
function parseInt10(v: unknown): unknown {
  return typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v;
}

/** An array query parameter; sent as repeated keys (`a=1&a=2`). A single value is one element. */
export function queryArray<T extends z.ZodType>(item: T) {
  // The input type says what a caller may pass (typed values, or one value alone); preprocessing makes zod
  // infer `unknown`, which would let any value compile.
  return z.preprocess(wrapArray, z.array(item)).optional() as unknown as z.ZodOptional<
    z.ZodType<z.output<T>[], z.input<T>[] | z.input<T>>
  >;
}
/** A boolean query parameter (`true`/`false` in the URL). */
export function queryBool() {
  return z.preprocess(parseBool, z.boolean()).optional() as unknown as z.ZodOptional<
    z.ZodType<boolean, boolean | "true" | "false">
  >;
}
/** An integer query parameter within bounds. */
export function queryInt(min?: number, max?: number) {
  let n = z.number().int({ message: "must be an integer" });
  if (min !== undefined) n = n.min(min, { message: `must be >= ${min}` });
  if (max !== undefined) n = n.max(max, { message: `must be <= ${max}` });
  return z.preprocess(parseInt10, n).optional() as unknown as z.ZodOptional<
    z.ZodType<number, number | `${number}`>
  >;
}

/** Largest `size` of every paginated list but `/users` (docs/api-notes.md, "Paging"). */
export const MAX_PAGE_SIZE = 100;
/** Largest `size` of `GET /users`. */
export const MAX_USERS_PAGE_SIZE = 400;
/** `size` of a paginated list when none is given. */
export const DEFAULT_PAGE_SIZE = 50;

/**
 * `page`, `size`, `skip_count`. `pageMin` is the published schema's lower bound of
 * `page`: 1 everywhere but `/users`, which documents none (`null`).
 */
export function pagingQuery(maxSize: number = MAX_PAGE_SIZE, pageMin: number | null = 1) {
  return {
    /** 1-based page number; default 1. */
    page: queryInt(pageMin ?? undefined),
    /** Items per page, 0..maxSize; default 50. */
    size: queryInt(0, maxSize),
    /** Skip counting `total` (it is then reported as the count seen so far). */
    skip_count: queryBool(),
  };
}

/** The list envelope `{ total, page, size, <itemsKey>: [...] }`, all four required. */
export function listEnvelope<K extends string, T extends z.ZodType>(itemsKey: K, item: T) {
  return z.looseObject({
    total: z.number().int(),
    page: z.number().int(),
    size: z.number().int(),
    ...({ [itemsKey]: z.array(item) } as { [P in K]: z.ZodArray<T> }),
  });
}

/**
 * A lenient response object: unknown fields are kept so that a newer service never breaks an older client.
 */
export const loose = z.looseObject;
