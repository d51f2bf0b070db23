/**
 * `listAll`: every item of a paginated list as one async iterable (`page`, `size`, and the envelope
 * `{ total, page, size, <items> }`; docs/api-notes.md, "Paging").
 *
 * Pages are requested with the endpoint's largest `size`. Once the first page reports `total`, the
 * remaining pages are fetched a few at a time in parallel, and items are still yielded strictly in order. When
 * the consumer stops early, pages still in flight are cancelled.
 */
import type { CallOptions, RequestPipeline } from "./request-pipeline";
import { type EndpointName, endpoints } from "./schema/endpoints";

/** Pages fetched at once after the first one; small, to stay well inside the rate limit. */
export const DEFAULT_LIST_CONCURRENCY = 4;

/** Options of a `listAll` call. */
export interface ListAllOptions extends CallOptions {
  /** Pages in flight at once after the first; default 4. 1 fetches strictly one after another. */
  concurrency?: number;
}

/** One page as `listAll` needs it. */
export interface Page<T> {
  /** `total` of the envelope (items in the whole list). */
  total: number;
  /** The items of this page. */
  items: T[];
}

/** Loads one page; `signal` is cancelled when the consumer stops iterating. */
export type PageLoader<T> = (page: number, size: number, signal: AbortSignal) => Promise<Page<T>>;

/**
 * Yields every item, in order, from pages of `pageSize` loaded by `loadPage`.
 *
 * Stops at the first short page, and otherwise at the last page `total` promises (following `total` if it grows
 * while iterating).
 */
export async function* paginate<T>(
  loadPage: PageLoader<T>,
  pageSize: number,
  options: ListAllOptions = {},
): AsyncGenerator<T, void, undefined> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_LIST_CONCURRENCY));
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const inFlight = new Map<number, Promise<Page<T>>>();
  try {
    const first = await loadPage(1, pageSize, signal);
    yield* first.items;
    if (first.items.length < pageSize) return;
    let lastPage = Math.ceil(first.total / pageSize);
    let next = 2;
    const fill = () => {
      while (next <= lastPage && inFlight.size < concurrency) {
        const pending = loadPage(next, pageSize, signal);
        // Observed here so that a page abandoned by an early stop never becomes an unhandled rejection.
        pending.catch(() => undefined);
        inFlight.set(next, pending);
        next++;
      }
    };
    for (let page = 2; page <= lastPage; page++) {
      fill();
      const result = await inFlight.get(page)!;
      inFlight.delete(page);
      lastPage = Math.max(lastPage, Math.ceil(result.total / pageSize));
      // Keep the window full while the consumer works through this page.
      fill();
      yield* result.items;
      if (result.items.length < pageSize) return;
    }
  } finally {
    stop.abort();
  }
}

/** Endpoints of the table that are paginated lists. */
export type ListEndpointName = {
  [N in EndpointName]: (typeof endpoints)[N] extends { list: object } ? N : never;
}[EndpointName];

/**
 * `paginate` over a list endpoint of the table: its items key and largest page size come from the table.
 * `page`, `size` and `skip_count` of `query` are replaced (the total must be counted to page in parallel).
 */
export function listAllOf<T>(
  pipeline: RequestPipeline,
  name: ListEndpointName,
  args: { pathParams?: Record<string, string>; query?: object },
  options: ListAllOptions = {},
): AsyncGenerator<T, void, undefined> {
  const { itemsKey, maxPageSize } = endpoints[name].list;
  const { page: _p, size: _s, skip_count: _c, ...query } = (args.query ?? {}) as Record<string, unknown>;
  return paginate<T>(
    async (page, size, signal) => {
      const envelope = (await pipeline.request(name, {
        pathParams: args.pathParams,
        query: { ...query, page, size },
        signal,
      })) as unknown as Record<string, unknown> & { total: number };
      return { total: envelope.total, items: envelope[itemsKey] as T[] };
    },
    maxPageSize,
    { concurrency: pipeline.listConcurrency, ...options },
  );
}
