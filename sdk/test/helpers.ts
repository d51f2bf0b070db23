/**
 * Shared pieces of the sdk unit tests: a client wired to a loopback server with controllable time, the key
 * fixtures, and response bodies shaped like the real service's (docs/api-notes.md).
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { LoopbackServer } from "@pulumi-custody/testing";
import { CustodyClient, type CustodyClientOptions } from "../index";

/** The access token every test client uses; tests assert it never leaks. */
export const TOKEN = "eyJhbGciOiJFZERTQSJ9.test-access-token.c2lnbmF0dXJl";

/** The sdk's test fixtures (`sdk/test/fixtures`), from the compiled tests in `sdk/dist/test`. */
export const FIXTURES = resolve(__dirname, "..", "..", "test", "fixtures");

/** A file of `sdk/test/fixtures/keys`. */
export function fixturePath(...parts: string[]): string {
  const candidate = resolve(FIXTURES, "keys", ...parts);
  if (!existsSync(candidate)) throw new Error(`fixture not found: sdk/test/fixtures/keys/${parts.join("/")}`);
  return candidate;
}

/** A fixture file's text. */
export function fixture(name: string): string {
  return readFileSync(fixturePath(name), "utf8");
}

/** A fake clock: `sleep` advances it instantly and records each wait. */
export class FakeTime {
  nowMs = 1_739_459_236_186;
  readonly sleeps: number[] = [];
  readonly now = (): number => this.nowMs;
  readonly sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.nowMs += ms;
  };
}

/**
 * A client for `server` whose waits are instant and recorded in `time.sleeps`, with the rate limiter off
 * unless the test asks for it.
 */
export function testClient(
  server: LoopbackServer,
  overrides: Partial<CustodyClientOptions> = {},
  time: FakeTime = new FakeTime(),
): { client: CustodyClient; time: FakeTime } {
  const client = new CustodyClient({
    baseUrl: server.url,
    accessToken: TOKEN,
    requestsPerMinute: 0,
    ...overrides,
    advanced: { now: time.now, sleep: time.sleep, random: () => 0.5, ...overrides.advanced },
  });
  return { client, time };
}

/** The service's side of its quota: fixed windows that restart at each reset, as docs/api-notes.md records them. */
export class FixedWindowService {
  windowStart: number | undefined;
  /** Requests counted in the current window. */
  count = 0;
  /** Requests in all, and of those refused with 429. */
  requests = 0;
  refused = 0;
  /** Requests let through in each window so far. */
  readonly perWindow: number[] = [];
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts one request at `now`; its answer's headers, and whether it was refused. */
  hit(now: number): { headers: Record<string, string>; refused: boolean } {
    if (this.windowStart === undefined || now >= this.windowStart + this.windowMs) {
      this.windowStart = now;
      this.count = 0;
      this.perWindow.push(0);
    }
    this.count += 1;
    this.requests += 1;
    const refused = this.count > this.limit;
    if (refused) this.refused += 1;
    else this.perWindow[this.perWindow.length - 1]! += 1;
    const resetS = (this.windowStart + this.windowMs - now) / 1000;
    return {
      refused,
      headers: {
        "x-ratelimit-limit": `${this.limit}, ${this.limit};w=${this.windowMs / 1000}`,
        "x-ratelimit-remaining": String(Math.max(0, this.limit - this.count)),
        "x-ratelimit-reset": String(Math.ceil(resetS)),
      },
    };
  }
}

// Records shaped as the service sends them, shared with the other packages' tests.
export {
  apiUser,
  apiUserRef,
  cosmosChain,
  evmChain,
  evmTransferRequest,
  evmVault,
  exportRecord,
  IDS,
  ownedAsset,
  personUser,
  suggestedFees,
  transactionRecord,
  userGroup,
  utxoVault,
  utxoVaultAddress,
} from "@pulumi-custody/testing";
