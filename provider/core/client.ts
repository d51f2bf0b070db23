/**
 * The provider process's custody client: built on first use from the settings that `configure()` received
 * (stack config) or from the environment, and reused for every resource of that process.
 */
// From their modules rather than the sdk's entry point, which also exports request signing and webhook
// verification: the provider process loads no signing code (a client signs only when given a key).
import { CustodyClient, DEFAULT_REQUESTS_PER_MINUTE } from "@pulumi-custody/sdk";
import { observeAddressWrites } from "./batch/address-reads";
import { observeVaultWrites } from "./batch/vault-reads";
import { exitWhenEngineIsGone } from "./provider-host";
import { requestDiagnostics } from "./request-diagnostics";
import { watchHostRequests } from "./resource-urns";
import {
  type ConfigLookup,
  type CustodySettings,
  type ResolvedSettings,
  type SettingsSource,
  settingsFrom,
} from "./settings";

/** What `configure()` receives: the dynamic provider's `Config`, or a plain `{ "custody:baseUrl": … }` map. */
export type ProviderConfig = { get(key: string): unknown } | Record<string, unknown>;

let lookup: ConfigLookup = () => undefined;
/** Each client, and the token it sends: the configured one, or the one a verification switched it to. */
const clients = new Map<string, { client: CustodyClient; token: string }>();

/**
 * Records the stack config (the provider's `configure`). Settings are resolved lazily, on the first API
 * call, so that a missing setting fails the resource operation with a clear message rather than the provider.
 */
export function configure(config: ProviderConfig | undefined): void {
  exitWhenEngineIsGone();
  watchHostRequests();
  if (config === undefined) {
    lookup = () => undefined;
  } else if (typeof (config as { get?: unknown }).get === "function") {
    const withGet = config as { get(key: string): unknown };
    lookup = (key) => withGet.get(key);
  } else {
    const map = { ...(config as Record<string, unknown>) };
    lookup = (key) => map[key];
  }
}

/** Where the provider process's settings come from: the configured stack config, then the environment. */
export function processSettingsSource(): SettingsSource {
  return { config: lookup };
}

/** The settings in force in the provider process, and where they came from. */
export function processSettings(): ResolvedSettings {
  return settingsFrom(processSettingsSource());
}

/** The settings in force: configured stack config first, then the environment. */
export function currentSettings(): CustodySettings {
  return processSettings().settings;
}

/**
 * A client for explicit settings, cached per process: one per base URL, configured token and limits, so that
 * two organizations (or two stacks' settings) in one process never share a client, a rate limiter or a batch.
 * Its token is a function (the sdk asks it at each call): a verification that falls back to another token
 * ({@link useToken}) switches the client it already made, with its limiter's state, instead of making another.
 */
export function clientFor(settings: CustodySettings): CustodyClient {
  const key = clientKey(settings);
  let entry = clients.get(key);
  if (!entry) {
    const diagnostics = requestDiagnostics(settings.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE);
    const made: { client?: CustodyClient; token: string } = { token: settings.accessToken };
    made.client = new CustodyClient({
      baseUrl: settings.baseUrl,
      accessToken: () => made.token,
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
    entry = made as { client: CustodyClient; token: string };
    clients.set(key, entry);
  }
  return entry.client;
}

/** Closes every client this process made (a command line that is done); the next use makes new ones. */
export async function closeClients(): Promise<void> {
  const open = [...clients.values()];
  clients.clear();
  await Promise.all(open.map((entry) => entry.client.close()));
}

/** Makes the client of `settings` send `token` from its next call on (the environment's, after a 401). */
export function useToken(settings: CustodySettings, token: string): void {
  const entry = clients.get(clientKey(settings));
  if (entry) entry.token = token;
}

function clientKey(settings: CustodySettings): string {
  return JSON.stringify([
    settings.baseUrl,
    settings.accessToken,
    settings.maxRetries,
    settings.requestsPerMinute,
  ]);
}
