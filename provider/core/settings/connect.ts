/**
 * The one door to the custody API: settings in (a {@link SettingsSource}: explicit values, stack config, the
 * environment), a verified connection out. Every part of the package goes through it: the dynamic provider and
 * the plugin (through ./provider-process.ts, from their configuration), the data sources, each `custody`
 * command, and programs that want a client of their own.
 *
 * A connection is verified once, by one cheap authenticated call (`GET /vaults?size=1`), so a wrong token, a
 * wrong base URL or plain http to a remote host fails early with one message that says what to do, instead of
 * one raw 401 and stack trace per call. Connections are kept in one cache, keyed by the settings: two
 * organizations (or two stacks' settings) in one process never share a client, a rate limiter or a batch.
 */
import { createHash } from "node:crypto";
import {
  CustodyAuthenticationError,
  CustodyClient,
  CustodyConfigurationError,
  CustodyConnectionError,
  CustodyNotFoundError,
  CustodyPermissionError,
  DEFAULT_REQUESTS_PER_MINUTE,
} from "@pulumi-custody/sdk";
import { observeAddressWrites } from "../batch/address-reads";
import { observeVaultWrites } from "../batch/vault-reads";
import { notifyUser } from "../host/notices";
import { requestDiagnostics } from "../host/request-notices";
import {
  type CustodySettings,
  CustodySettingsError,
  environmentTokenBesides,
  type ResolvedSettings,
  SETTINGS,
  type SettingOrigins,
  type SettingsSource,
  settingsFrom,
} from "./sources";

/** A client whose settings were shown to work, with those settings and where they came from. */
export interface CustodyConnection {
  /** The client: shared by every caller with the same settings in this process; do not close it yourself. */
  readonly client: CustodyClient;
  /** The settings in force (a credential among them: never print them). */
  readonly settings: CustodySettings;
  /** Where the base URL and the access token came from, as messages name them. */
  readonly origins: SettingOrigins;
}

/**
 * Who connects, for the message of a refused token: a provider's configuration comes from the stack config that
 * a refresh or a destroy takes from the state (see `recordedTokenRefused`); anyone else's is what it says.
 */
export type ConnectingAs = "provider" | "caller";

/**
 * One cached connection: the client and the settings it was made with (the one place a configured access token
 * is kept; the cache's key is only a digest of them), the environment's token once the configured one was
 * refused (see `verify`), and its verifications, by who connects and where the settings came from (which its
 * messages name).
 */
interface CachedConnection {
  readonly client: CustodyClient;
  readonly settings: CustodySettings;
  /** The environment's token, sent instead of the configured one after that one was refused. */
  replacementToken?: string;
  readonly verified: Map<string, Promise<CustodyConnection>>;
}

/**
 * Settings resolved and given their client, not yet verified: what a provider process records at `configure`
 * (./provider-process.ts), so that its settings are resolved once and kept in one place, the cache.
 */
export interface PreparedConnection {
  /** The cached connection of the settings. */
  readonly cached: CachedConnection;
  /** Where the base URL and the token came from. */
  readonly origins: SettingOrigins;
}

/** The one cache, by a digest of the settings ({@link cacheKey}). */
const connections = new Map<string, CachedConnection>();

/**
 * The one way to get a client from settings: resolves them from `source` (explicit values, then the stack
 * config, then the environment), and verifies them once per process with one cheap authenticated call.
 *
 * @example
 * ```ts
 * const { client } = await connect({ config: (key) => pulumi.runtime.getConfig(key) });
 * ```
 * @throws {CustodySettingsError} naming the setting, where it came from and what to do.
 */
export async function connect(source: SettingsSource): Promise<CustodyConnection> {
  return connectAs(prepare(settingsFrom(source)), source.env ?? process.env, "caller");
}

/**
 * The cached connection of resolved settings, made on first use and not verified.
 *
 * @throws {CustodySettingsError} for settings the sdk refuses before sending anything (plain http to a remote
 * host, a malformed URL); nothing is cached then, so the same settings fail the same way each time.
 */
export function prepare(resolved: ResolvedSettings): PreparedConnection {
  try {
    return { cached: cachedConnection(resolved.settings), origins: resolved.origins };
  } catch (err) {
    throw settingsError(err, resolved.settings, resolved.origins, false);
  }
}

/** Verifies a {@link prepare}d connection once per process, for `as` (./provider-process.ts connects as the provider). */
export function connectAs(
  { cached, origins }: PreparedConnection,
  env: NodeJS.ProcessEnv,
  as: ConnectingAs,
): Promise<CustodyConnection> {
  const key = JSON.stringify([as, origins.baseUrl.source, origins.accessToken.source]);
  let verified = cached.verified.get(key);
  if (!verified) {
    verified = verify(cached, origins, env, as);
    cached.verified.set(key, verified);
  }
  return verified;
}

/**
 * Closes every connection this process made and forgets their verification: what a command line does when it
 * is done, so that no kept-alive connection holds the process open. The next {@link connect} starts anew.
 */
export async function closeConnections(): Promise<void> {
  const open = [...connections.values()];
  connections.clear();
  await Promise.all(open.map((entry) => entry.client.close()));
}

/**
 * The cached client of `settings`, not verified: for the tests of what hangs on a client (the batched reads, the
 * request notices), which script every answer themselves. Everything else connects.
 */
export function cachedClient(settings: CustodySettings): CustodyClient {
  return cachedConnection(settings).client;
}

/** A digest of the settings, so that the cache's keys hold no token. */
function cacheKey(settings: CustodySettings): string {
  return createHash("sha256")
    .update(
      JSON.stringify([
        settings.baseUrl,
        settings.accessToken,
        settings.maxRetries,
        settings.requestsPerMinute,
      ]),
    )
    .digest("base64url");
}

/**
 * The cached connection of `settings`, made on first use. Its token is a function (the sdk asks it at each
 * call), so that a verification that falls back to the environment's token switches the client it already
 * made, with its limiter's state, instead of making another.
 *
 * @throws what the sdk throws for settings it refuses before sending anything (plain http to a remote host);
 * nothing is cached then.
 */
function cachedConnection(settings: CustodySettings): CachedConnection {
  const key = cacheKey(settings);
  let entry = connections.get(key);
  if (!entry) {
    const diagnostics = requestDiagnostics(settings.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE);
    const made: { client?: CustodyClient; settings: CustodySettings; replacementToken?: string } = {
      settings,
    };
    const client = new CustodyClient({
      baseUrl: settings.baseUrl,
      accessToken: () => made.replacementToken ?? made.settings.accessToken,
      // A provider process lives for one operation and sends a few hundred requests: Node's own http spares it
      // undici and the optimizing compile of its WebAssembly parser, a third of its peak memory over
      // `@pulumi/pulumi`'s own (BENCHMARKS.md, figure 5), for a few ms of CPU in all.
      transport: "node:http",
      ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
      ...(settings.requestsPerMinute !== undefined ? { requestsPerMinute: settings.requestsPerMinute } : {}),
      onRequest: (event) => {
        diagnostics(event);
        // The batched reads see this client's writes, so that nothing read before a write answers after it.
        if (made.client) {
          observeVaultWrites(made.client, event);
          observeAddressWrites(made.client, event);
        }
      },
    });
    made.client = client;
    entry = Object.assign(made, { client, verified: new Map() }) as CachedConnection;
    connections.set(key, entry);
  }
  return entry;
}

async function verify(
  cached: CachedConnection,
  origins: SettingOrigins,
  env: NodeJS.ProcessEnv,
  as: ConnectingAs,
): Promise<CustodyConnection> {
  const { client, settings } = cached;
  const connection: CustodyConnection = { client, settings, origins };
  const problem = await probe(client);
  if (!problem) return connection;
  const fromConfig = origins.accessToken.source.startsWith("stack config");
  const replacement = fromConfig ? environmentTokenBesides(settings, env) : undefined;
  if (problem instanceof CustodyAuthenticationError && replacement !== undefined) {
    // The same client, with the environment's token from its next call on.
    cached.replacementToken = replacement;
    if (!(await probe(client))) {
      await notifyUser(
        `${SETTINGS.accessToken.configKey} was refused (401), so ${SETTINGS.accessToken.envVar} is used instead. ` +
          `If you rotated the token, run \`pulumi up\` (or refresh with --run-program) so that the state records the new one.`,
      );
      return connection;
    }
    cached.replacementToken = undefined;
  }
  throw settingsError(problem, settings, origins, as === "provider" && fromConfig);
}

/** One cheap authenticated read; the error when it shows the settings cannot work, else `undefined`. */
async function probe(client: CustodyClient): Promise<unknown> {
  try {
    await client.vaults.list({ size: 1 });
    return undefined;
  } catch (err) {
    const definite =
      err instanceof CustodyAuthenticationError ||
      err instanceof CustodyPermissionError ||
      err instanceof CustodyNotFoundError ||
      err instanceof CustodyConfigurationError ||
      (err instanceof CustodyConnectionError && err.code === "ERR_CUSTODY_CONNECTION");
    // Anything else (5xx, 429, a timeout) may pass: the operations retry and report it themselves.
    return definite ? err : undefined;
  }
}

/** A sentence: its first letter upper case. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What a failed call with `settings` says about them: the settings error to report, or `undefined` when the
 * failure is not about the settings (a 404 of a lookup, a 5xx). A refused token, plain http to a remote host,
 * a malformed base URL and a host that cannot be reached are.
 */
export function settingsErrorOf(
  err: unknown,
  settings: CustodySettings,
  origins: SettingOrigins,
): CustodySettingsError | undefined {
  const token = SETTINGS.accessToken;
  const base = SETTINGS.baseUrl;
  if (err instanceof CustodyAuthenticationError) {
    return new CustodySettingsError(
      token.configKey,
      `The custody API at ${settings.baseUrl} refused the access token from ${origins.accessToken.source} ` +
        `(401 Unauthorized): it is wrong, expired or revoked. ${sentence(origins.accessToken.howToChange)}.`,
      err,
    );
  }
  const reason = err instanceof Error ? err.message : String(err);
  if (err instanceof CustodyConfigurationError) {
    return new CustodySettingsError(
      base.configKey,
      `Invalid base URL from ${origins.baseUrl.source}: ${reason}`,
      err,
    );
  }
  if (err instanceof CustodyConnectionError && err.code === "ERR_CUSTODY_CONNECTION") {
    return new CustodySettingsError(
      base.configKey,
      `The custody API at ${settings.baseUrl} (from ${origins.baseUrl.source}) cannot be reached: ${reason}. ` +
        `${sentence(origins.baseUrl.howToChange)}.`,
      err,
    );
  }
  return undefined;
}

/**
 * A refused token from the provider's configuration. Which value that is depends on the command, which the
 * provider is not told: `pulumi up` and `pulumi preview` configure it from the current stack config, while
 * `pulumi refresh`, `pulumi destroy` and the refresh step of `--refresh` configure it from the state, with the
 * value the last `pulumi up` recorded; right after a rotation that is the old token. So the message says both,
 * and the commands that work in each case.
 */
function recordedTokenRefused(settings: CustodySettings): string {
  const token = SETTINGS.accessToken;
  return (
    `The custody API at ${settings.baseUrl} refused the access token ${token.configKey} that the provider was ` +
    "configured with (401 Unauthorized). `pulumi refresh`, `pulumi destroy` and the refresh step of " +
    "`pulumi preview --refresh` and `pulumi up --refresh` configure the provider from the state, with the " +
    `${token.configKey} the last \`pulumi up\` recorded, not from the current stack config. If the token was ` +
    "rotated since that `up`, run `pulumi up` once to record the new one, or add --run-program to use the " +
    "current stack config: `pulumi refresh --run-program`, and for the drift check " +
    "`pulumi preview --refresh --run-program --expect-no-changes`. Otherwise the token is wrong, expired or " +
    `revoked: set a valid one with \`pulumi config set --secret ${token.configKey} <token>\` or the ` +
    `${token.envVar} environment variable.`
  );
}

/** The settings error of the probe (`GET /vaults?size=1`), which failed with `err`. */
function settingsError(
  err: unknown,
  settings: CustodySettings,
  origins: SettingOrigins,
  /** The token is the provider's configuration from stack config (which a refresh takes from the state). */
  tokenFromConfig: boolean,
): CustodySettingsError {
  const token = SETTINGS.accessToken;
  const base = SETTINGS.baseUrl;
  if (err instanceof CustodyAuthenticationError && tokenFromConfig) {
    return new CustodySettingsError(token.configKey, recordedTokenRefused(settings), err);
  }
  if (err instanceof CustodyPermissionError) {
    return new CustodySettingsError(
      token.configKey,
      `The custody API at ${settings.baseUrl} accepted the access token from ${origins.accessToken.source} but refused to list ` +
        "vaults with it (403 Forbidden): use the token of an API user that may read vaults.",
      err,
    );
  }
  if (err instanceof CustodyNotFoundError) {
    return new CustodySettingsError(
      base.configKey,
      `${settings.baseUrl} (from ${origins.baseUrl.source}) does not serve the custody API: GET /api/v1/vaults answered 404. ` +
        `Set the API's root URL, e.g. ${base.example}, without /api/v1.`,
      err,
    );
  }
  return (
    settingsErrorOf(err, settings, origins) ??
    new CustodySettingsError(
      base.configKey,
      `The custody API at ${settings.baseUrl} (from ${origins.baseUrl.source}) cannot be reached: ` +
        `${err instanceof Error ? err.message : String(err)}. ${sentence(origins.baseUrl.howToChange)}.`,
      err,
    )
  );
}
