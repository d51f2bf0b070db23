/**
 * Starts an emulator in this process: `startEmulator({ port: 0 })` listens on 127.0.0.1 and resolves with
 * its base URL, credentials, a control client and `close()`.
 */
import { isIPv4 } from "node:net";
import { resolve } from "node:path";
import { Clock } from "./clock";
import type { EmulatorContext } from "./context";
import { EmulatorControlClient } from "./control/client";
import { type CredentialOptions, makeCredentials } from "./credentials";
import { ExportStore } from "./exports";
import { FaultInjector } from "./faults";
import { FixedWindowRateLimiter, MAX_RATE_LIMIT_WINDOW_SECONDS } from "./rate-limiter";
import { RequestLog } from "./request-log";
import { API_USER_ID, baseState, VIEWER_USER_ID } from "./seed/base-state";
import { applyDefaultSeed } from "./seed/default-seed";
import { buildServer, type ServerTimeouts } from "./server";
import { readStateFile, StatePersistence } from "./state/persistence";
import { Store } from "./state/store";
import type { Credentials } from "./state/types";
import { Views } from "./state/views";
import { type ProgressionMode, TransactionProgression } from "./transactions/progression";
import { WebhookSigner } from "./webhooks/deliver";
import { WebhookDispatcher } from "./webhooks/dispatcher";

/** Options of {@link startEmulator}; every field is optional. */
export interface EmulatorOptions {
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Port; default 0 (any free port). */
  port?: number;
  /**
   * Base URL of the links the emulator hands out (an export's `download_url`), when clients reach it at
   * another address than the one it listens on (a container's published port, a proxy); default: the
   * address it listens on. An `http` or `https` URL without query or fragment.
   */
  publicUrl?: string;
  /** Persist state to this JSON file; an existing file is loaded (its seed, keys and tokens win). */
  stateFile?: string;
  /** Seed data of a fresh state: `default` (a full organization) or `empty`; default `default`. */
  seed?: "default" | "empty";
  /** Latency added to every `/api/v1` response, ms; default 0. */
  latencyMs?: number;
  /** Probability in [0, 1] of a random fault on each `/api/v1` request; default 0. */
  faultRate?: number;
  /** Seed of the fault sequence; default 0. */
  faultSeed?: string | number;
  /** Requests per window (60 s unless `rateLimitWindowSeconds` says otherwise) per token; default 0 (unlimited). */
  rateLimit?: number;
  /**
   * Length of a rate-limit window, whole seconds from 1 to 86,400; default 60, the service's. The headers
   * announce it (`x-ratelimit-limit: <n>, <n>;w=<seconds>`); a short one lets a test cross many windows.
   */
  rateLimitWindowSeconds?: number;
  /** Fixed tokens and keys; anything left out is generated per start (or read from the state file). */
  credentials?: CredentialOptions;
  /** Seed of new record ids: the same seed and the same requests give the same ids. */
  dataSeed?: string;
  /** How transactions progress; default `immediate`. */
  transactionProgression?: ProgressionMode;
  /** Debounce of state-file writes, ms; default 50. */
  persistDebounceMs?: number;
  /** Entries kept in the request log; default 1000. */
  requestLogSize?: number;
  /**
   * Let `POST /webhooks/test` send to public addresses too (global unicast: in none of the IANA special-purpose
   * ranges), and to host names that resolve only to loopback or public addresses; default false. Loopback
   * (127.0.0.0/8, ::1, localhost) is always allowed; any other target is a 422 at `body.url`, before anything
   * is sent (emulator/README.md, "Webhooks").
   */
  allowPublicWebhookTargets?: boolean;
  /**
   * Let `POST /webhooks/test` send to any address: public, link-local (169.254.0.0/16, fe80::/10), private
   * (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7), unspecified, multicast, reserved, and every other
   * special-purpose range; default false. Turn it on only when every API user may probe the emulator's network:
   * the answer tells a reachable service from an unreachable one.
   */
  allowPrivateWebhookTargets?: boolean;
  /**
   * Time a client has to send a request's head (request line and headers), ms, counted from the connection
   * (or, on a kept-alive connection, from the head's first byte); a late one, or none at all, is answered 408
   * and its connection closed. Default 10,000.
   */
  headersTimeoutMs?: number;
  /**
   * Time a client has to send a whole request, body included, ms; a late one is answered 408 and its
   * connection closed. At least `headersTimeoutMs`; default 60,000 (or `headersTimeoutMs`, if larger).
   */
  requestTimeoutMs?: number;
  /**
   * Time a connection may stay open with no request in flight and no traffic, ms: mainly a kept-alive
   * connection between requests (node adds a second of grace). An answer the emulator takes long to give
   * (latency, a webhook test) is not cut off; one the client does not read is. Default 30,000.
   */
  idleTimeoutMs?: number;
  /**
   * Receives the emulator's warnings (e.g. listening on an address other machines can reach); default: each
   * is written to stderr as a line `custody-emulator: warning: …`.
   */
  onWarning?: (message: string) => void;
}

/** A running emulator. */
export interface RunningEmulator {
  /**
   * `http://127.0.0.1:<port>`, or the host it listens on; on every interface (`0.0.0.0`, `::`) the loopback
   * address, `http://127.0.0.1:<port>` or `http://[::1]:<port>`. The API is under `/api/v1`.
   */
  baseUrl: string;
  /** Bearer token of the seeded API user (role trader: reads and writes). */
  accessToken: string;
  /** Bearer token of a viewer API user: reads only, 403 on POST and PUT. */
  viewerAccessToken: string;
  /** Token of the control API (`/__emulator/...`). */
  controlToken: string;
  /** PKCS#8 PEM of the API user's P-256 key; its public key is registered for request signing. */
  apiUserPrivateKeyPem: string;
  /** SPKI PEM of the API user's public key. */
  apiUserPublicKeyPem: string;
  /** SPKI PEM of the key that signs webhook deliveries (`X-Signature`). */
  webhookPublicKeyPem: string;
  /** The state file in use, if any. */
  stateFile?: string;
  /** A client of the control API. */
  control: EmulatorControlClient;
  /** Stops listening, cancels webhook retries and writes the state file a last time. Idempotent. */
  close(): Promise<void>;
}

/** Default of `headersTimeoutMs`. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Defaults of the other connection timeouts, ms (see {@link EmulatorOptions}). */
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
/** Largest connection timeout, ms: an hour. */
export const MAX_TIMEOUT_MS = 3_600_000;

/** A timeout option's value, or `fallback` when it is not given; throws an error naming the option. */
function timeoutOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS)
    throw new Error(`${name} must be an integer between 1 and ${MAX_TIMEOUT_MS} (ms), got ${value}`);
  return value;
}

/** The connection timeouts of `options`, checked; throws an error naming the option. */
function timeoutsOf(options: EmulatorOptions): ServerTimeouts {
  const headersMs = timeoutOption("headersTimeoutMs", options.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS);
  const requestMs = timeoutOption(
    "requestTimeoutMs",
    options.requestTimeoutMs,
    Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersMs),
  );
  // Node refuses a header timeout above the request timeout.
  if (requestMs < headersMs)
    throw new Error(`requestTimeoutMs (${requestMs}) must be at least headersTimeoutMs (${headersMs})`);
  const idleMs = timeoutOption("idleTimeoutMs", options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS);
  return { headersMs, requestMs, idleMs };
}

function hostForUrl(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** 127.0.0.0/8, ::1, or either as an IPv4-mapped IPv6 address. */
function isLoopbackAddress(address: string): boolean {
  const v4 = address.toLowerCase().replace(/^::ffff:/, "");
  return (isIPv4(v4) && v4.startsWith("127.")) || address === "::1";
}

/**
 * The host of the URL the emulator advertises: where a client on this machine reaches it. "Every interface"
 * (0.0.0.0, ::) is no address to connect to (the sdk refuses `http://0.0.0.0`), so the loopback address of the
 * same family stands for it; any other host is advertised as given.
 */
export function advertisedHost(host: string, boundAddress: string | undefined): string {
  if (boundAddress === "0.0.0.0") return "127.0.0.1";
  if (boundAddress === "::") return "[::1]";
  return hostForUrl(host);
}

/** The warning about listening on `addresses` (all of them), or undefined when each is a loopback address. */
export function exposureWarning(
  host: string,
  addresses: string[],
  port: number | undefined,
): string | undefined {
  if (addresses.length > 0 && addresses.every(isLoopbackAddress)) return undefined;
  const where = addresses.length > 0 ? addresses.join(", ") : host;
  return (
    `listening on ${where}, not a loopback address: anything that can reach this machine's port ${port} ` +
    "over the network can reach every API user's data (with an access token) and the control API, which reads " +
    "and resets all state and rotates tokens (with the control token), over plain http. Listen on 127.0.0.1 " +
    "(--host 127.0.0.1) unless other machines must reach the emulator."
  );
}

/**
 * A public URL without its trailing slashes; throws an error naming the option (`name`) when the value is
 * not an http(s) URL without query, fragment or credentials.
 */
export function checkPublicUrl(value: string, name = "publicUrl"): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an absolute http or https URL, got '${value}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`${name} must be an http or https URL, got '${value}'`);
  if (url.search || url.hash || url.username || url.password)
    throw new Error(`${name} must have no query, fragment or credentials, got '${value}'`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** Starts an emulator; rejects with `StateFileError` when the state file cannot be used. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const publicUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl);
  const timeouts = timeoutsOf(options);
  const warn =
    options.onWarning ??
    ((message: string) => process.stderr.write(`custody-emulator: warning: ${message}\n`));
  const stateFile = options.stateFile ? resolve(options.stateFile) : undefined;
  const loaded = stateFile ? readStateFile(stateFile) : undefined;
  const idSeed = loaded?.id_seed ?? options.dataSeed ?? "custody-emulator";
  const credentials: Credentials = makeCredentials(
    API_USER_ID,
    VIEWER_USER_ID,
    options.credentials,
    loaded?.credentials,
  );

  const clock = new Clock();
  const store = new Store(clock, loaded ? { ...loaded, credentials } : baseState(credentials, idSeed));
  if (!loaded && (options.seed ?? "default") === "default") applyDefaultSeed(store);
  const views = new Views(store);
  const progression = new TransactionProgression(store);
  if (options.transactionProgression) progression.settings.mode = options.transactionProgression;
  const faults = new FaultInjector({
    seed: options.faultSeed ?? 0,
    rate: options.faultRate ?? 0,
    latencyMs: options.latencyMs ?? 0,
  });
  const windowSeconds = options.rateLimitWindowSeconds ?? 60;
  if (
    !Number.isInteger(windowSeconds) ||
    windowSeconds < 1 ||
    windowSeconds > MAX_RATE_LIMIT_WINDOW_SECONDS
  ) {
    throw new RangeError(
      `rateLimitWindowSeconds must be a whole number of seconds from 1 to ${MAX_RATE_LIMIT_WINDOW_SECONDS} (got ${windowSeconds})`,
    );
  }
  const rateLimiter = new FixedWindowRateLimiter(
    options.rateLimit ?? 0,
    () => clock.now(),
    windowSeconds * 1000,
  );
  const requestLog = new RequestLog(options.requestLogSize ?? 1000);
  const webhooks = new WebhookDispatcher(
    new WebhookSigner(credentials.webhookPrivateKeyPem),
    () => store.webhookEndpoints.values(),
    { transaction: (t) => views.transaction(t), auditLog: (r) => views.auditLogRecord(r) },
    () => clock.isoNow(),
  );
  const persistence = stateFile
    ? new StatePersistence(stateFile, () => store.snapshot(), options.persistDebounceMs ?? 50)
    : undefined;
  const exports = new ExportStore(() => clock.now());

  store.subscribe((event) => {
    if (event.kind === "changed") persistence?.schedule();
    else webhooks.handleStoreEvent(event);
  });
  clock.onChange(() => progression.tick());
  // In `clock` mode, wall-clock time moves transactions too.
  const ticker = setInterval(() => progression.tick(), 1_000);
  ticker.unref();

  const ctx: EmulatorContext = {
    store,
    views,
    clock,
    faults,
    rateLimiter,
    requestLog,
    progression,
    webhooks,
    exports,
    webhookTargets: options.allowPrivateWebhookTargets
      ? "any"
      : options.allowPublicWebhookTargets
        ? "public"
        : "loopback",
    reset(seed) {
      store.load(baseState(store.credentials, idSeed));
      if (seed === "default") applyDefaultSeed(store);
      webhooks.clear();
      exports.clear();
      requestLog.clear();
      rateLimiter.clear();
    },
    flush: async () => persistence?.flush(),
    persistenceStatus: () => persistence?.status() ?? { pendingWrite: false, writes: 0 },
  };

  let baseUrl = "";
  const app = buildServer(ctx, { baseUrl: () => publicUrl ?? baseUrl, timeouts });
  // The file is written before listening: a state file that cannot be written fails the start.
  if (persistence) {
    persistence.schedule();
    await persistence.flush();
  }
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (err) {
    clearInterval(ticker);
    await webhooks.close();
    throw err;
  }
  const address = app.server.address();
  const bound = typeof address === "object" && address ? address : undefined;
  const port = bound ? bound.port : options.port;
  baseUrl = `http://${advertisedHost(host, bound?.address)}:${port}`;
  // fastify listens on every address of a host name (localhost: 127.0.0.1 and ::1).
  const addresses = app.addresses().map((a) => (typeof a === "string" ? a : a.address));
  const warning = exposureWarning(host, addresses, port);
  if (warning) warn(warning);

  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    accessToken: credentials.accessToken,
    viewerAccessToken: credentials.viewerAccessToken,
    controlToken: credentials.controlToken,
    apiUserPrivateKeyPem: credentials.apiUserPrivateKeyPem,
    apiUserPublicKeyPem: credentials.apiUserPublicKeyPem,
    webhookPublicKeyPem: credentials.webhookPublicKeyPem,
    ...(stateFile ? { stateFile } : {}),
    control: new EmulatorControlClient({ baseUrl, controlToken: credentials.controlToken }),
    close() {
      closing ??= (async () => {
        clearInterval(ticker);
        await webhooks.close();
        await app.close();
        await persistence?.close();
      })();
      return closing;
    },
  };
}
