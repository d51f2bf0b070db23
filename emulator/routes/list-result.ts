import { type Paging, paginate } from "../state/list-query";
import type { HandlerResult } from "./types";

/**
 * The 200 answer of a paginated list: the envelope `{ total, page, size, <itemsKey>: [...] }` of one page of
 * `items`, each shown through `view`.
 */
export function listResult<T>(
  itemsKey: string,
  items: readonly T[],
  paging: Paging,
  view: (item: T) => unknown,
): HandlerResult {
  const page = paginate(items, paging);
  return {
    status: 200,
    body: { total: page.total, page: page.page, size: page.size, [itemsKey]: page.items.map(view) },
  };
}
