/**
 * The floor of figure 2: a hand-written minimal paging loop with raw undici, one page after the other, with the
 * largest page size, no validation and no mapping: the least work that fetches every item.
 */
import { type Dispatcher, request } from "undici";

/** Options of {@link fetchAllPages}. */
export interface HandPagerOptions {
  /** Origin plus path, e.g. `http://127.0.0.1:8787/api/v1/users`. */
  url: string;
  /** Bearer token. */
  accessToken: string;
  /** Extra query parameters, e.g. `include_deleted=true`; may be empty. */
  query?: string;
  /** Items key of the envelope, e.g. `users`. */
  itemsKey: string;
  /** Page size (the endpoint's largest). */
  size: number;
  /** The keep-alive pool to use. */
  dispatcher: Dispatcher;
}

/** Fetches every page sequentially; resolves to the number of items and of requests. */
export async function fetchAllPages(options: HandPagerOptions): Promise<{ items: number; requests: number }> {
  let items = 0;
  let requests = 0;
  for (let page = 1; ; page++) {
    const extra = options.query ? `&${options.query}` : "";
    const { statusCode, body } = await request(`${options.url}?page=${page}&size=${options.size}${extra}`, {
      dispatcher: options.dispatcher,
      headers: { authorization: `Bearer ${options.accessToken}` },
    });
    requests++;
    const json = (await body.json()) as Record<string, unknown> & { total: number };
    if (statusCode !== 200) throw new Error(`hand pager: ${options.url} page ${page} answered ${statusCode}`);
    const pageItems = json[options.itemsKey] as unknown[];
    items += pageItems.length;
    if (pageItems.length < options.size || items >= json.total) return { items, requests };
  }
}
