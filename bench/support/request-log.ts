/**
 * The API requests an operation caused, counted in the emulator's request log. The log keeps the last 1,000
 * entries, so it is read every two seconds while the operation runs (at 200 requests a minute, well within it).
 */
import type { RequestLogEntry } from "@pulumi-custody/emulator";
import type { EmulatorProcess } from "./emulator-process";

/** How often the log is read. */
export const LOG_POLL_MS = 2000;

/** What the emulator answered to the API (its control API left out). */
export interface ApiRequests {
  /** API requests answered. */
  requests: number;
  /** Of those, how many were refused with 429. */
  refused: number;
  /** Requests by `METHOD route`, with ` (429)` for the refused, e.g. `POST /api/v1/vaults`. */
  byRoute: Record<string, number>;
}

/**
 * Starts a fresh rate-limit window of `limit` requests, empties the log, and reads it until `stop`, which
 * returns the API requests seen since.
 */
export async function watchRequests(
  emulator: EmulatorProcess,
  limit: number,
): Promise<{ stop: () => Promise<ApiRequests> }> {
  await emulator.control.setRateLimit(limit); // new windows
  await emulator.control.clearRequests();
  const seen = new Map<string, RequestLogEntry>();
  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      for (const entry of await emulator.control.listRequests()) seen.set(entry.request_id, entry);
    } finally {
      polling = false;
    }
  };
  const timer = setInterval(() => void poll().catch(() => undefined), LOG_POLL_MS);
  return {
    stop: async () => {
      clearInterval(timer);
      await poll();
      const api = [...seen.values()].filter((e) => e.path.startsWith("/api/v1/"));
      const byRoute: Record<string, number> = {};
      for (const e of api) {
        const key = `${e.method} ${e.route ?? e.path}${e.status === 429 ? " (429)" : ""}`;
        byRoute[key] = (byRoute[key] ?? 0) + 1;
      }
      return { requests: api.length, refused: api.filter((e) => e.status === 429).length, byRoute };
    },
  };
}
