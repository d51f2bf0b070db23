/**
 * What the provider really sent, read from the emulator's request log: each request is matched to its endpoint
 * in the shared endpoint table (`sdk/schema/endpoints.ts`), and the counts become a per-operation template that
 * the sdk replay (floor (a) of figure 1) repeats at the engine's concurrency.
 */
import { type EndpointName, endpoints } from "@pulumi-custody/sdk/schema";

/** A request as the emulator logged it. */
export interface LoggedRequest {
  /** HTTP method. */
  method: string;
  /** Path, with or without the query string. */
  path: string;
}

/** The kind of resource operation a request belongs to. */
export type OperationKind = "vault" | "address";

/** What the provider sent for one engine operation (`up` or `preview --refresh`). */
export interface RequestMix {
  /** Requests per endpoint, over the whole operation. */
  counts: Partial<Record<EndpointName, number>>;
  /**
   * Endpoints each resource operation calls, in the order they first appeared in the log, with how many calls
   * of each the whole operation made (split evenly over the resources by the replay).
   */
  perKind: Record<OperationKind, Array<{ endpoint: EndpointName; total: number }>>;
  /** Endpoints outside vaults and addresses (lookups made once per run, e.g. at configure). */
  other: Array<{ endpoint: EndpointName; total: number }>;
  /** Requests that matched no endpoint (control API excluded): they would go unreplayed, so they are reported. */
  unmatched: string[];
  /** All API requests. */
  total: number;
}

const ADDRESS_ENDPOINTS = new Set<EndpointName>([
  "listVaultAddresses",
  "createVaultAddress",
  "renameVaultAddress",
]);
const VAULT_ENDPOINTS = new Set<EndpointName>([
  "listVaults",
  "createVault",
  "getVault",
  "renameVault",
  "archiveVault",
  "restoreVault",
  "submitVaultChangeProposal",
  "listVaultAssets",
]);

const compiled = (Object.entries(endpoints) as Array<[EndpointName, { method: string; path: string }]>).map(
  ([name, spec]) => ({
    name,
    method: spec.method,
    // `{id}` matches one path segment; literal segments (`export_async`, `addresses`) are tried first below.
    pattern: new RegExp(`^${spec.path.replace(/\{\w+\}/g, "[^/]+")}$`),
    literalSegments: spec.path.split("/").filter((s) => s.length > 0 && !s.startsWith("{")).length,
  }),
);
// More literal segments first, so `/vaults/export_async` wins over `/vaults/{id}` and
// `/vaults/addresses/{id}/name` over `/vaults/{id}/name`.
compiled.sort((a, b) => b.literalSegments - a.literalSegments);

/** The endpoint a request path belongs to, or undefined. */
export function endpointOf(method: string, path: string): EndpointName | undefined {
  const pathname = path.split("?")[0]!;
  const upper = method.toUpperCase();
  return compiled.find((e) => e.method === upper && e.pattern.test(pathname))?.name;
}

/** Groups logged API requests (anything under `/api/v1`) into a {@link RequestMix}. */
export function deriveRequestMix(log: readonly LoggedRequest[]): RequestMix {
  const counts: Partial<Record<EndpointName, number>> = {};
  const order: EndpointName[] = [];
  const unmatched: string[] = [];
  let total = 0;
  for (const entry of log) {
    if (!entry.path.startsWith("/api/v1")) continue;
    total++;
    const endpoint = endpointOf(entry.method, entry.path);
    if (!endpoint) {
      unmatched.push(`${entry.method} ${entry.path}`);
      continue;
    }
    if (counts[endpoint] === undefined) order.push(endpoint);
    counts[endpoint] = (counts[endpoint] ?? 0) + 1;
  }
  const perKind: RequestMix["perKind"] = { vault: [], address: [] };
  const other: RequestMix["other"] = [];
  for (const endpoint of order) {
    const item = { endpoint, total: counts[endpoint]! };
    if (ADDRESS_ENDPOINTS.has(endpoint)) perKind.address.push(item);
    else if (VAULT_ENDPOINTS.has(endpoint)) perKind.vault.push(item);
    else other.push(item);
  }
  return { counts, perKind, other, unmatched, total };
}

/**
 * How many calls of an endpoint operation `index` of `count` makes, so that the calls over all operations add up
 * to exactly `total` (e.g. 150 calls over 100 operations: every other one makes two).
 */
export function callsForOperation(total: number, index: number, count: number): number {
  return Math.floor((total * (index + 1)) / count) - Math.floor((total * index) / count);
}

/** `GET /vaults ×100, POST /vaults ×100` for a report. */
export function describeMix(mix: RequestMix): string {
  const parts = (Object.entries(mix.counts) as Array<[EndpointName, number]>).map(
    ([name, n]) => `${endpoints[name].method} ${endpoints[name].path.replace("/api/v1", "")} ×${n}`,
  );
  return parts.length > 0 ? parts.join(", ") : "no requests";
}
