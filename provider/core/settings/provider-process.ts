/**
 * The settings of a provider process: the dynamic provider's host and the provider plugin each configure their
 * process once (`configure`, with the stack config or the plugin's `Configure` arguments), and every lifecycle
 * method of that process then connects with that configuration through the one door (./connect.ts). The
 * dynamic provider's protocol configures a process, not an object (state written by every release calls the
 * runtime's `configure`, then its methods), so this module records which connection the process was
 * configured with: settings resolved once, at `configure`, and kept in the one cache (./connect.ts), or the
 * reason they cannot be resolved, which the first API call reports.
 *
 * The connection is verified once per process and settings, during `preview` too (from `check`), so a wrong
 * token, a wrong base URL or plain http to a remote host fails the preview early with one message that says what
 * to do, given in full once and pointed to by every other resource.
 *
 * A token refused after a rotation gets its own advice: `pulumi refresh` and `pulumi preview --refresh` run
 * the provider with the configuration recorded in the state by the last `up`, unless `--run-program` is given.
 * When that recorded token is refused and `CUSTODY_ACCESS_TOKEN` holds another one, that one is used.
 */
import type { CustodyClient } from "@pulumi-custody/sdk";
import { engineAddressOfHost, exitWhenEngineIsGone } from "../host/dynamic-provider-host";
import { watchHostRequests } from "../host/resource-urns";
import { closeConnections, connectAs, type PreparedConnection, prepare } from "./connect";
import { type ConfigLookup, CustodySettingsError, type ResolvedSettings, settingsFrom } from "./sources";

/** What `configure()` receives: the dynamic provider's `Config`, or a plain `{ "custody:baseUrl": … }` map. */
export type ProviderConfig = { get(key: string): unknown } | Record<string, unknown>;

/**
 * The process's connection, from its configuration (the environment fills what the stack config leaves out),
 * or why its settings cannot be resolved; before `configure`, the environment's, resolved at each call.
 */
let configured:
  | { readonly connection: PreparedConnection }
  | {
      readonly error: unknown /** Whether it is told once (./connect.ts), not given in full to every resource. */;
      readonly once: boolean;
    }
  | undefined;
/** Messages already given in full in this process; later failures refer to them in one line. */
const told = new Set<string>();

/**
 * Records the provider process's configuration (the dynamic provider's `configure`, the plugin's `Configure`).
 * A missing or malformed setting is kept and reported by the first API call, so that it fails the resource
 * operation with a clear message rather than the provider.
 */
export function configure(config: ProviderConfig | undefined): void {
  exitWhenEngineIsGone();
  watchHostRequests();
  let lookup: ConfigLookup = () => undefined;
  if (config !== undefined && typeof (config as { get?: unknown }).get === "function") {
    const withGet = config as { get(key: string): unknown };
    lookup = (key) => withGet.get(key);
  } else if (config !== undefined) {
    const map = config as Record<string, unknown>;
    lookup = (key) => map[key];
  }
  let resolved: ResolvedSettings;
  try {
    resolved = settingsFrom({ config: lookup });
  } catch (error) {
    // A missing or malformed setting: a short message, given in full to every resource.
    configured = { error, once: false };
    return;
  }
  try {
    configured = { connection: prepare(resolved) };
  } catch (error) {
    // Settings the client refuses (plain http to a remote host): said once, like a failed verification.
    configured = { error, once: true };
  }
}

/** The process's connection, not yet verified. @throws {CustodySettingsError} when its settings are unusable. */
function preparedConnection(): PreparedConnection {
  if (configured === undefined) return prepare(settingsFrom({}));
  if ("error" in configured) throw configured.once ? once(configured.error) : configured.error;
  return configured.connection;
}

/** The process's settings, resolved from its configuration and the environment. */
export function processSettings(): ResolvedSettings {
  const { cached, origins } = preparedConnection();
  return { settings: cached.settings, origins };
}

/**
 * The client of the process's configuration, through the one door, once its settings were shown to work.
 *
 * @throws {CustodySettingsError} the first time in full, then as one line that points to it.
 */
export async function providerClient(): Promise<CustodyClient> {
  let connection: PreparedConnection;
  try {
    connection = preparedConnection();
  } catch (err) {
    throw withoutHostEcho(err);
  }
  try {
    return (await connectAs(connection, process.env, "provider")).client;
  } catch (err) {
    throw withoutHostEcho(once(err));
  }
}

/**
 * The client of the process's configuration when it works, else `undefined`; a failure is left for the
 * operation that needs the client to report (a lookup that only words a notice must not use up the full
 * message).
 */
export async function workingClient(): Promise<CustodyClient | undefined> {
  try {
    return (await connectAs(preparedConnection(), process.env, "provider")).client;
  } catch {
    return undefined;
  }
}

/**
 * Closes every connection of this process (the provider's and those `connect` made) and forgets what it
 * was configured with and told: what a command line does when it is done, so that no kept-alive connection
 * holds the process open.
 */
export async function disconnect(): Promise<void> {
  configured = undefined;
  told.clear();
  await closeConnections();
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
