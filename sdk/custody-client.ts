/**
 * `CustodyClient`: a typed client for every endpoint of the custody API v0.2.0.
 *
 * ```ts
 * const client = new CustodyClient({ baseUrl: "https://api.example.com", accessToken: process.env.TOKEN! });
 * const vault = await client.vaults.create({ type: "evm", name: "treasury" });
 * for await (const user of client.users.listAll({ roles: ["admin"] })) console.log(user.id);
 * ```
 */
import { inspect } from "node:util";
import type { Dispatcher } from "undici";
import { CustodyConfigurationError, CustodyErrorCode } from "./errors";
import { SecretRedactor } from "./redact";
import {
  type CustodyLogger,
  type EndpointResponse,
  type RequestArgs,
  type RequestEvent,
  RequestPipeline,
  type RequestSigner,
} from "./request-pipeline";
import { Blockchains, Transactions, UserGroups, Users, Vaults, Webhooks } from "./resources/namespaces";
import type { EndpointName } from "./schema/endpoints";
import type { PemKey, PrivateKeyForms } from "./signing/pem-keys";
import { parseBaseUrl } from "./transport/base-url";
import { NodeHttpTransport } from "./transport/node-http-transport";
import { DEFAULT_REQUESTS_PER_MINUTE, RateLimiter } from "./transport/rate-limiter";
import { RetryPolicy } from "./transport/retry-policy";
import { realSleep, type Sleep } from "./transport/sleep";
import type { Transport } from "./transport/transport";
import { SDK_VERSION } from "./version";

/** Options of {@link CustodyClient}. */
export interface CustodyClientOptions {
  /**
   * The service's base URL, e.g. `https://api.example.com` (endpoint paths add `/api/v1/…`). Must be
   * `https://`; plain `http://` is accepted only for loopback hosts (localhost, 127.0.0.0/8, ::1).
   */
  baseUrl: string;
  /**
   * The API user's access token (a JWT), sent as `Authorization: Bearer …`: the token itself, or a function that
   * gives the token in force, asked once per call (for a token that is rotated, or read where it is kept when it
   * is used). Every token the client sends is scrubbed, in any encoding, from what the service echoes back.
   */
  accessToken: string | (() => string | Promise<string>);
  /**
   * The API user's P-256 private key (PEM: PKCS#8 `PRIVATE KEY` or SEC1 `EC PRIVATE KEY`, or a KeyObject).
   * Needed only for signed calls (`transactions.create`). It is parsed once and never logged, and every form of
   * it (PEM, its base64 body, DER, in their encodings) is scrubbed from what the service echoes back.
   */
  apiUserPrivateKey?: PemKey;
  /** Retries of a failed call (408, 429, 5xx, connection errors) for endpoints safe to repeat; default 3. */
  maxRetries?: number;
  /** Time limit of one attempt in ms (connect, send, full response); default 30,000. */
  timeoutMs?: number;
  /**
   * Client-side rate limit. By default the client follows the quota the service announces in its
   * `x-ratelimit-*` headers (180 per minute until the first answer; the service documents 200); a number set
   * here is a ceiling the client keeps below that quota. `0` disables the limiter.
   */
  requestsPerMinute?: number;
  /**
   * What carries the requests: `"undici"` (the default; the least CPU per request) or `"node:http"`, Node's own
   * `http`/`https`, which never loads undici and its WebAssembly parser (the least memory, for a short-lived
   * process such as the Pulumi provider). Either keeps up to 16 connections alive.
   */
  transport?: "undici" | "node:http";
  /**
   * An undici dispatcher (Agent, Pool, ProxyAgent, MockAgent…) to send every request through, left open on
   * `close()`; by default the client makes its own keep-alive pool. Only with the `"undici"` transport.
   */
  dispatcher?: Dispatcher;
  /** Appended to the `user-agent` header, e.g. `my-app/1.2`. */
  userAgent?: string;
  /**
   * What a read (GET) does when its 2xx body does not match its schema. `"throw"` (default): reject with
   * `CustodyResponseValidationError`, which names each field and rule and carries the body. `"warn"`: resolve
   * to the body as it came, with the issues on it (`responseValidationIssues(result)`), and log through
   * `logger.warn`. A write that took effect always does the latter (sdk/README.md, "Lenient responses").
   */
  responseValidation?: "throw" | "warn";
  /** Receives retry notices (`debug`) and response-schema warnings (`warn`). Never receives credentials. */
  logger?: CustodyLogger;
  /** Pages fetched in parallel by `listAll` after the first; default 4. */
  listConcurrency?: number;
  /**
   * Called after every attempt with its method, path (no query string), status or failure, duration and the
   * time the rate limiter held it; for tracing and for noticing waits. Never receives credentials.
   */
  onRequest?: (event: RequestEvent) => void;
  /** Fine-tuning of retries and rate limiting, and injection points for tests. */
  advanced?: CustodyClientAdvancedOptions;
}

/** Rarely needed knobs; tests use them to control time. */
export interface CustodyClientAdvancedOptions {
  /** First backoff ceiling in ms; default 500. */
  retryBaseDelayMs?: number;
  /** Largest backoff ceiling in ms; default 20,000. */
  retryMaxDelayMs?: number;
  /** Longest `Retry-After` that is waited out (longer ones are surfaced as errors); default 60,000 ms. */
  maxRetryAfterMs?: number;
  /** Rate limiter bucket size; default 20. */
  rateLimitBurst?: number;
  /** Current time in ms since the epoch (also the `x-timestamp` of signed calls); default `Date.now`. */
  now?: () => number;
  /** Waiting between retries and for the rate limiter; default real timers. */
  sleep?: Sleep;
  /** Random numbers in [0, 1) for backoff jitter; default `Math.random`. */
  random?: () => number;
}

/** A client for the custody API v0.2.0. */
export class CustodyClient {
  /** The normalised base URL. */
  readonly baseUrl: string;
  /** Blockchains and suggested fees. */
  readonly blockchains: Blockchains;
  /** Users. */
  readonly users: Users;
  /** User groups. */
  readonly userGroups: UserGroups;
  /** Vaults, with `vaults.assets` and `vaults.addresses`. */
  readonly vaults: Vaults;
  /** Signed transaction creation. */
  readonly transactions: Transactions;
  /** Webhook triggers. */
  readonly webhooks: Webhooks;
  readonly #pipeline: RequestPipeline;
  readonly #transport: Transport;
  readonly #signs: boolean;

  /**
   * @throws {CustodyConfigurationError} for a missing or malformed option: `ERR_CUSTODY_INSECURE_URL` for a
   *   plain-http non-loopback `baseUrl`, `ERR_CUSTODY_INVALID_PRIVATE_KEY` for a key that is not P-256 PEM,
   *   `ERR_CUSTODY_INVALID_CONFIG` otherwise. Messages never include the token or the key.
   */
  constructor(options: CustodyClientOptions) {
    if (options === null || typeof options !== "object") {
      throw configError("CustodyClient needs an options object: { baseUrl, accessToken, … }");
    }
    this.baseUrl = parseBaseUrl(options.baseUrl);
    const accessToken =
      typeof options.accessToken === "function" ? options.accessToken : checkToken(options.accessToken);
    const maxRetries = checkInteger("maxRetries", options.maxRetries, 3, 0, 10);
    const timeoutMs = checkInteger("timeoutMs", options.timeoutMs, 30_000, 1, 600_000);
    const requestsPerMinute = checkNumber(
      "requestsPerMinute",
      options.requestsPerMinute,
      DEFAULT_REQUESTS_PER_MINUTE,
    );
    const listConcurrency = checkInteger("listConcurrency", options.listConcurrency, 4, 1, 16);
    const responseValidation = options.responseValidation ?? "throw";
    if (responseValidation !== "throw" && responseValidation !== "warn") {
      throw configError(
        `responseValidation must be "throw" or "warn" (got ${JSON.stringify(responseValidation)})`,
      );
    }
    if (options.userAgent !== undefined && !/^[\x20-\x7e]*$/.test(String(options.userAgent))) {
      throw configError("userAgent must be printable ASCII");
    }
    const signing =
      options.apiUserPrivateKey === undefined ? undefined : signingOf(options.apiUserPrivateKey);
    const signer = signing?.signer;
    const advanced = options.advanced ?? {};
    const now = advanced.now ?? Date.now;
    const sleep = advanced.sleep ?? realSleep;

    this.#transport = makeTransport(options.transport ?? "undici", timeoutMs, options.dispatcher);
    this.#signs = signer !== undefined;
    // Every form of each secret is worked out once, here (and for a token function's token, when it gives it).
    const redactor = new SecretRedactor(typeof accessToken === "string" ? [accessToken] : []);
    for (const form of signing?.keyForms.encoded ?? []) redactor.add(form, { joiners: false });
    for (const form of signing?.keyForms.plain ?? [])
      redactor.add(form, { encodings: false, joiners: false });
    this.#pipeline = new RequestPipeline({
      baseUrl: this.baseUrl,
      accessToken,
      checkToken,
      signer,
      transport: this.#transport,
      retryPolicy: new RetryPolicy({
        maxRetries,
        baseDelayMs: advanced.retryBaseDelayMs,
        maxDelayMs: advanced.retryMaxDelayMs,
        maxRetryAfterMs: advanced.maxRetryAfterMs,
        random: advanced.random,
        now,
      }),
      limiter:
        requestsPerMinute === 0
          ? undefined
          : new RateLimiter({
              requestsPerMinute,
              burst: advanced.rateLimitBurst,
              followServiceQuota: options.requestsPerMinute === undefined,
              now,
              sleep,
            }),
      userAgent: `pulumi-custody-sdk/${SDK_VERSION} node/${process.versions.node}${
        options.userAgent ? ` ${options.userAgent}` : ""
      }`,
      responseValidation,
      logger: options.logger,
      onRequest: options.onRequest,
      now,
      sleep,
      redactor,
      listConcurrency,
    });
    this.blockchains = new Blockchains(this.#pipeline);
    this.users = new Users(this.#pipeline);
    this.userGroups = new UserGroups(this.#pipeline);
    this.vaults = new Vaults(this.#pipeline);
    this.transactions = new Transactions(this.#pipeline);
    this.webhooks = new Webhooks(this.#pipeline);
  }

  /**
   * Calls any endpoint of the table by name (see `schema/endpoints.ts`), with the same validation, retries and
   * parsing as the namespace methods, which are thin wrappers around it.
   */
  request<N extends EndpointName>(name: N, args: RequestArgs = {}): Promise<EndpointResponse<N>> {
    return this.#pipeline.request(name, args);
  }

  /** Closes the keep-alive connections the client opened (an injected `dispatcher` is left open). */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /** Never prints the token or the key. */
  [inspect.custom](): string {
    return `CustodyClient { baseUrl: ${JSON.stringify(this.baseUrl)}, signing: ${this.#signs} }`;
  }

  /** Never serialises the token or the key. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, signing: this.#signs };
  }
}

/** The transport of the client; undici is loaded only when it is the one. */
function makeTransport(kind: unknown, timeoutMs: number, dispatcher: Dispatcher | undefined): Transport {
  if (kind === "undici") {
    const { UndiciTransport } =
      require("./transport/undici-transport") as typeof import("./transport/undici-transport");
    return new UndiciTransport({ timeoutMs, dispatcher });
  }
  if (kind !== "node:http") {
    throw configError(`transport must be "undici" or "node:http" (got ${JSON.stringify(kind)})`);
  }
  if (dispatcher !== undefined) {
    throw configError(
      'dispatcher is an undici dispatcher: it needs transport "undici" (the default), not "node:http"',
    );
  }
  return new NodeHttpTransport({ timeoutMs });
}

function configError(message: string): CustodyConfigurationError {
  return new CustodyConfigurationError(CustodyErrorCode.INVALID_CONFIG, message);
}

function checkToken(token: unknown): string {
  if (typeof token !== "string" || token.trim() === "") {
    throw configError(
      "accessToken is required: the API user's access token (a JWT), without the 'Bearer ' prefix, or a " +
        "function that returns it",
    );
  }
  if (/^bearer\s/i.test(token)) {
    throw configError("accessToken must be the bare token; the client adds the 'Bearer ' prefix itself");
  }
  // Header-safe characters only; the message never echoes the token.
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw configError("accessToken contains whitespace or non-printable characters");
  }
  return token;
}

function checkInteger(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw configError(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return value;
}

function checkNumber(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw configError(`${name} must be a number >= 0; 0 disables the limit (got ${JSON.stringify(value)})`);
  }
  return value;
}

/**
 * Parses the key once and returns the signer of the client's requests, and every form of the key that the client
 * scrubs from what the service echoes. The signing modules are loaded here, by a client that has a key, so a
 * process that never signs (the Pulumi provider process among them) never loads them.
 */
function signingOf(key: PemKey): { signer: RequestSigner; keyForms: PrivateKeyForms } {
  const {
    p256PrivateScalar,
    privateKeyForms,
  }: typeof import("./signing/pem-keys") = require("./signing/pem-keys");
  const { signWithScalar }: typeof import("./signing/sign-request") = require("./signing/sign-request");
  let scalar: Uint8Array;
  try {
    scalar = p256PrivateScalar(key);
  } catch (err) {
    throw new CustodyConfigurationError(
      CustodyErrorCode.INVALID_PRIVATE_KEY,
      `apiUserPrivateKey is unusable: ${(err as Error).message}`,
    );
  }
  return {
    signer: (path, timestamp, body) => signWithScalar(path, timestamp, body, scalar),
    keyForms: privateKeyForms(key),
  };
}
