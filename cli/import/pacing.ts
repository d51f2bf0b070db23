/**
 * How fast an import may go: the service says its quota in the `x-ratelimit-*` headers of every answer
 * (docs/api-notes.md, "Rate limits": `x-ratelimit-limit: 300, 300;w=60`, `x-ratelimit-remaining`,
 * `x-ratelimit-reset`). One request reads them; the sdk client's limiter then holds the import to 90% of that
 * quota (the rest is left to the organization's other clients), and so does the provider that `pulumi import`
 * runs. A rate set in the settings (`custody:requestsPerMinute`) always wins; without headers, the client's
 * default (180 a minute, under the documented 200) applies.
 */
import { DEFAULT_REQUESTS_PER_MINUTE } from "@pulumi-custody/sdk";

/** The quota as the service announces it. */
export interface AnnouncedQuota {
  /** Requests allowed per window. */
  readonly limit: number;
  /** The window, in seconds. */
  readonly windowSeconds: number;
  /** Requests left in the current window. */
  readonly remaining?: number;
  /** Seconds until the window resets. */
  readonly resetSeconds?: number;
}

/** The share of the announced quota an import takes. */
export const QUOTA_SHARE = 0.9;

/**
 * The quota of `x-ratelimit-limit` (`300, 300;w=60`: a limit, then each policy as `<limit>;w=<seconds>`),
 * with `x-ratelimit-remaining` and `x-ratelimit-reset`; `undefined` without a usable limit.
 */
export function parseQuota(headers: { get(name: string): string | null }): AnnouncedQuota | undefined {
  const raw = headers.get("x-ratelimit-limit");
  if (!raw) return undefined;
  const policy = raw
    .split(",")
    .map((part) => /^\s*(\d+)\s*;\s*w\s*=\s*(\d+)\s*$/.exec(part))
    .find((match) => match !== null);
  const bare = /^\s*(\d+)\s*(,|$)/.exec(raw);
  const limit = Number(policy?.[1] ?? bare?.[1]);
  const windowSeconds = Number(policy?.[2] ?? 60);
  if (!(limit > 0) || !(windowSeconds > 0)) return undefined;
  const number = (name: string) => {
    const value = headers.get(name);
    return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
  };
  return {
    limit,
    windowSeconds,
    remaining: number("x-ratelimit-remaining"),
    resetSeconds: number("x-ratelimit-reset"),
  };
}

/** Requests per minute for an import under `quota`: its share of it, at least 1; the sdk default without one. */
export function pacedRequestsPerMinute(quota: AnnouncedQuota | undefined): number {
  if (!quota) return DEFAULT_REQUESTS_PER_MINUTE;
  return Math.max(1, Math.floor((quota.limit * 60 * QUOTA_SHARE) / quota.windowSeconds));
}

/**
 * Asks the service for its quota with one small read (`GET /api/v1/vaults?limit=1`). Best effort: any failure
 * (an old service without the headers, a refused token, which the import's first call reports properly)
 * gives `undefined`.
 */
export async function announcedQuota(
  baseUrl: string,
  accessToken: string,
): Promise<AnnouncedQuota | undefined> {
  try {
    const res = await fetch(`${baseUrl.replace(/\/+$/, "")}/api/v1/vaults?limit=1`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
      signal: AbortSignal.timeout(30_000),
    });
    await res.body?.cancel();
    return parseQuota(res.headers);
  } catch {
    return undefined;
  }
}
