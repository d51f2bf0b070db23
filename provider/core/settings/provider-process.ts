/**
 * The settings of a provider process: the dynamic provider's host and the provider plugin each configure their
 * process once (`configure`, with the stack config or the plugin's `Configure` arguments), and every lifecycle
 * method of that process then connects with that configuration through the one door (./connect.ts). The
 * dynamic provider's protocol configures a process, not an object (state written by every release calls the
 * runtime's `configure`, then its methods), so the configuration is this module's one record.
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
import { closeConnections, connectAs } from "./connect";
import { type ConfigLookup, CustodySettingsError, type ResolvedSettings, settingsFrom } from "./sources";

/** What `configure()` receives: the dynamic provider's `Config`, or a plain `{ "custody:baseUrl": … }` map. */
export type ProviderConfig = { get(key: string): unknown } | Record<string, unknown>;

/** The process's configuration: its stack config (the environment fills what it leaves out). */
let configured: ConfigLookup = () => undefined;
/** Messages already given in full in this process; later failures refer to them in one line. */
const told = new Set<string>();

/**
 * Records the provider process's configuration (the dynamic provider's `configure`, the plugin's `Configure`).
 * Settings are resolved lazily, on the first API call, so that a missing setting fails the resource operation
 * with a clear message rather than the provider.
 */
export function configure(config: ProviderConfig | undefined): void {
  exitWhenEngineIsGone();
  watchHostRequests();
  if (config === undefined) {
    configured = () => undefined;
  } else if (typeof (config as { get?: unknown }).get === "function") {
    const withGet = config as { get(key: string): unknown };
    configured = (key) => withGet.get(key);
  } else {
    const map = { ...(config as Record<string, unknown>) };
    configured = (key) => map[key];
  }
}

/** The process's settings, resolved from its configuration and the environment. */
export function processSettings(): ResolvedSettings {
  return settingsFrom({ config: configured });
}

/**
 * The client of the process's configuration, through the one door, once its settings were shown to work.
 *
 * @throws {CustodySettingsError} the first time in full, then as one line that points to it.
 */
export async function providerClient(): Promise<CustodyClient> {
  let resolved: ResolvedSettings;
  try {
    resolved = processSettings();
  } catch (err) {
    // A missing or malformed setting: a short message, given in full to every resource.
    throw withoutHostEcho(err);
  }
  try {
    return (await connectAs(resolved, process.env, "provider")).client;
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
    return (await connectAs(processSettings(), process.env, "provider")).client;
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
  configured = () => undefined;
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
