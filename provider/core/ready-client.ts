/**
 * The client the lifecycle methods use, once one cheap authenticated call (`GET /vaults?size=1`) has shown
 * that the settings work. It runs once per provider process and settings, during `preview` too (from
 * `check`), so a wrong token, a wrong base URL or plain http to a remote host fails the preview early with
 * one message that says what to do, instead of one raw 401 and stack trace per resource at `up`.
 *
 * A token refused after a rotation gets its own advice: `pulumi refresh` and `pulumi preview --refresh` run
 * the provider with the configuration recorded in the state by the last `up`, unless `--run-program` is given.
 * When that recorded token is refused and `CUSTODY_ACCESS_TOKEN` holds another one, that one is used.
 */
import type { CustodyClient } from "@pulumi-custody/sdk";
import {
  CustodyAuthenticationError,
  CustodyConfigurationError,
  CustodyConnectionError,
  CustodyNotFoundError,
  CustodyPermissionError,
} from "@pulumi-custody/sdk";
import { clientFor, closeClients, processSettings, useToken } from "./client";
import { notifyUser } from "./notify";
import { engineAddressOfHost } from "./provider-host";
import {
  type CustodySettings,
  CustodySettingsError,
  type ResolvedSettings,
  SETTINGS,
  type SettingOrigins,
  type SettingsSource,
  settingsFrom,
} from "./settings";

const verified = new Map<string, Promise<CustodyClient>>();
/** Messages already given in full in this process; later failures refer to them in one line. */
const told = new Set<string>();

/**
 * The one door to the API: settings in (a {@link SettingsSource}: explicit values, stack config, the
 * environment), a client out, once one cheap authenticated call has shown that they work. The command line
 * connects with it; the provider process through {@link readyClient}, from its configuration.
 *
 * @throws {CustodySettingsError} naming the setting, where it came from and what to do.
 */
export async function connect(source: SettingsSource): Promise<CustodyClient> {
  return verifiedClient(settingsFrom(source), source.env ?? process.env, false);
}

/** The client for the settings in force, after they were shown to work (once per process and settings). */
export async function readyClient(): Promise<CustodyClient> {
  let resolved: ResolvedSettings;
  try {
    resolved = processSettings();
  } catch (err) {
    // A missing or malformed setting: a short message, given in full to every resource.
    throw withoutHostEcho(err);
  }
  try {
    return await verifiedClient(resolved, process.env, true);
  } catch (err) {
    throw withoutHostEcho(once(err));
  }
}

/**
 * The client for the settings in force when they work, else `undefined`; a failure is left for the operation
 * that needs the client to report (a lookup that only words a notice must not use up the full message).
 */
export async function workingClient(): Promise<CustodyClient | undefined> {
  try {
    return await verifiedClient(processSettings(), process.env, true);
  } catch {
    return undefined;
  }
}

/**
 * `provider`: the settings are the provider process's configuration, whose stack config a refresh or a destroy
 * takes from the state (see `recordedTokenRefused`).
 */
function verifiedClient(
  resolved: ResolvedSettings,
  env: NodeJS.ProcessEnv,
  provider: boolean,
): Promise<CustodyClient> {
  const { settings } = resolved;
  const key = JSON.stringify([settings.baseUrl, settings.accessToken, provider]);
  let ready = verified.get(key);
  if (!ready) {
    ready = verify(resolved, env, provider);
    verified.set(key, ready);
  }
  return ready;
}

/**
 * Closes every client {@link connect} and the provider made, and forgets their verification: what a command line
 * does when it is done, so that no kept-alive connection holds the process open.
 */
export async function disconnect(): Promise<void> {
  verified.clear();
  await closeClients();
}

/** Forgets every verification (tests, and a process that changes settings). */
export function forgetVerifiedSettings(): void {
  verified.clear();
  told.clear();
}

async function verify(
  { settings, origins }: ResolvedSettings,
  env: NodeJS.ProcessEnv,
  provider: boolean,
): Promise<CustodyClient> {
  let client: CustodyClient;
  try {
    client = clientFor(settings);
  } catch (err) {
    // Plain http to a remote host, a malformed URL: the client refuses before anything is sent.
    throw settingsError(err, settings, origins, false);
  }
  const problem = await probe(client);
  if (!problem) return client;
  const fromConfig = origins.accessToken.source.startsWith("stack config");
  const fromEnv = env[SETTINGS.accessToken.envVar]?.trim();
  if (
    problem instanceof CustodyAuthenticationError &&
    fromConfig &&
    fromEnv &&
    fromEnv !== settings.accessToken
  ) {
    // The same client, with the environment's token from its next call on.
    useToken(settings, fromEnv);
    if (!(await probe(client))) {
      await notifyUser(
        `${SETTINGS.accessToken.configKey} was refused (401), so ${SETTINGS.accessToken.envVar} is used instead. ` +
          `If you rotated the token, run \`pulumi up\` (or refresh with --run-program) so that the state records the new one.`,
      );
      return client;
    }
    useToken(settings, settings.accessToken);
  }
  throw settingsError(problem, settings, origins, provider && fromConfig);
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
    );
  }
  const reason = err instanceof Error ? err.message : String(err);
  if (err instanceof CustodyConfigurationError) {
    return new CustodySettingsError(
      base.configKey,
      `Invalid base URL from ${origins.baseUrl.source}: ${reason}`,
    );
  }
  if (err instanceof CustodyConnectionError && err.code === "ERR_CUSTODY_CONNECTION") {
    return new CustodySettingsError(
      base.configKey,
      `The custody API at ${settings.baseUrl} (from ${origins.baseUrl.source}) cannot be reached: ${reason}. ` +
        `${sentence(origins.baseUrl.howToChange)}.`,
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
    return new CustodySettingsError(token.configKey, recordedTokenRefused(settings));
  }
  if (err instanceof CustodyPermissionError) {
    return new CustodySettingsError(
      token.configKey,
      `The custody API at ${settings.baseUrl} accepted the access token from ${origins.accessToken.source} but refused to list ` +
        "vaults with it (403 Forbidden): use the token of an API user that may read vaults.",
    );
  }
  if (err instanceof CustodyNotFoundError) {
    return new CustodySettingsError(
      base.configKey,
      `${settings.baseUrl} (from ${origins.baseUrl.source}) does not serve the custody API: GET /api/v1/vaults answered 404. ` +
        `Set the API's root URL, e.g. ${base.example}, without /api/v1.`,
    );
  }
  return (
    settingsErrorOf(err, settings, origins) ??
    new CustodySettingsError(
      base.configKey,
      `The custody API at ${settings.baseUrl} (from ${origins.baseUrl.source}) cannot be reached: ` +
        `${err instanceof Error ? err.message : String(err)}. ${sentence(origins.baseUrl.howToChange)}.`,
    )
  );
}

/**
 * The full message the first time; after that one line that points to it, so N resources print it once. The
 * CLI lists diagnostics by resource, not in the order they came, so the pointer does not say "first".
 */
/**
 * What a settings error says after its first time, so that a reader of the run's errors (`custody drift`) can
 * pass over the pointers to the one that says why.
 */
export const SEE_ANOTHER_RESOURCE = "the error of another resource of this run says why and what to do";

function once(err: unknown): unknown {
  if (!(err instanceof CustodySettingsError)) return err;
  if (!told.has(err.message)) {
    told.add(err.message);
    return err;
  }
  return new CustodySettingsError(err.setting, `${err.setting} does not work: ${SEE_ANOTHER_RESOURCE}.`);
}

/** What the dynamic-provider host writes to stderr for each settings error: the echoes to drop. */
const echoes = new Set<string>();
let echoFilterInstalled = false;

/**
 * Pulumi's dynamic-provider host writes `${error}: ${error.stack}` of a failed check, diff, read or delete to its
 * stderr, and the CLI prints that on the stack's row (with a stray `.:`, as a settings error has no stack)
 * besides the error it shows on the resource's row. A settings error says everything on the resource's row, so
 * inside the host its echo is dropped; any other line goes through.
 */
function withoutHostEcho(err: unknown): unknown {
  if (!(err instanceof CustodySettingsError) || engineAddressOfHost() === undefined) return err;
  echoes.add(`${err}: ${err.stack}`);
  if (!echoFilterInstalled) {
    echoFilterInstalled = true;
    const write = console.error;
    console.error = (...args: unknown[]) => {
      if (args.length === 1 && typeof args[0] === "string" && echoes.has(args[0])) return;
      write.apply(console, args);
    };
  }
  return err;
}
