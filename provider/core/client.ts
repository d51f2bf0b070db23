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
import { type ConfigLookup, type CustodySettings, resolveSettings, SETTINGS } from "./settings";

/** What `configure()` receives: the dynamic provider's `Config`, or a plain `{ "custody:baseUrl": … }` map. */
export type ProviderConfig = { get(key: string): unknown } | Record<string, unknown>;

let lookup: ConfigLookup = () => undefined;
const clients = new Map<string, CustodyClient>();

/**
 * Records the stack config (the provider's `configure`). Settings are resolved lazily, on the first API
 * call, so that a missing setting fails the resource operation with a clear message rather than the provider.
 */
export function configure(config: ProviderConfig | undefined): void {
  exitWhenEngineIsGone();
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

/** Whether a setting comes from the configured stack config (rather than the environment). */
export function settingFromConfig(name: keyof CustodySettings): boolean {
  const value = lookup(SETTINGS[name].configKey);
  return value !== undefined && value !== null && String(value).trim() !== "";
}

/** The settings in force: configured stack config first, then the environment. */
export function currentSettings(): CustodySettings {
  return resolveSettings(lookup);
}

/** A client for explicit settings, cached per process. */
export function clientFor(settings: CustodySettings): CustodyClient {
  const key = JSON.stringify([
    settings.baseUrl,
    settings.accessToken,
    settings.maxRetries,
    settings.requestsPerMinute,
  ]);
  let client = clients.get(key);
  if (!client) {
    const diagnostics = requestDiagnostics(settings.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE);
    let made: CustodyClient | undefined;
    client = new CustodyClient({
      baseUrl: settings.baseUrl,
      accessToken: settings.accessToken,
      // A provider process lives for one operation and sends a few hundred requests: Node's own http spares it
      // undici and the optimizing compile of its WebAssembly parser, a third of its peak memory over
      // `@pulumi/pulumi`'s own (BENCHMARKS.md, figure 5), for a few ms of CPU in all.
      transport: "node:http",
      ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
      ...(settings.requestsPerMinute !== undefined ? { requestsPerMinute: settings.requestsPerMinute } : {}),
      onRequest: (event) => {
        diagnostics(event);
        // The batched reads see this client's writes, so that nothing read before a write answers after it.
        if (made) {
          observeVaultWrites(made, event);
          observeAddressWrites(made, event);
        }
      },
    });
    made = client;
    clients.set(key, client);
  }
  return client;
}
