/** Encoding of query parameters the way the service reads them (docs/api-notes.md, "Query parameters"). */

/**
 * `?a=1&b=x&b=y`: arrays become repeated keys, booleans `true`/`false`, numbers their decimal form; `undefined`
 * entries are left out. Keys keep the caller's order. Returns `""` when nothing is left.
 */
export function encodeQuery(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item === undefined) continue;
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(item))}`);
    }
  }
  return parts.length === 0 ? "" : `?${parts.join("&")}`;
}
