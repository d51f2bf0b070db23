/**
 * Where the provider and the data sources find the custody API: stack config `custody:*` first, then the
 * environment. Read at run time only (in `configure()`, a method body or a data-source call), never at module
 * load, so no credential is ever captured into a resource's serialized provider.
 */

/** The connection settings of the custody API. */
export interface CustodySettings {
  /** Base URL of the API, e.g. `https://api.example-custody.com` (`http://` only for loopback hosts). */
  baseUrl: string;
  /** Bearer access token of the API user. A credential: never logged, never put in state. */
  accessToken: string;
  /** Retries of safe requests (reads, renames, archive/restore); the client's default when unset. */
  maxRetries?: number;
  /** Client-side rate limit in requests per minute (0 turns it off); the client's default when unset. */
  requestsPerMinute?: number;
}

/** One setting: its stack config key, its environment variable, and how to set it. */
export interface SettingSpec {
  /** The stack config key, e.g. `custody:baseUrl`. */
  configKey: string;
  /** The environment variable read when the config key is unset, e.g. `CUSTODY_BASE_URL`. */
  envVar: string;
  /** Whether it is a credential: set with `--secret`, never printed. */
  secret: boolean;
  /** An example value, for messages and docs. */
  example: string;
}

/** Every setting, by the property it fills. */
export const SETTINGS: Record<keyof CustodySettings, SettingSpec> = {
  baseUrl: {
    configKey: "custody:baseUrl",
    envVar: "CUSTODY_BASE_URL",
    secret: false,
    example: "https://api.example-custody.com",
  },
  accessToken: {
    configKey: "custody:accessToken",
    envVar: "CUSTODY_ACCESS_TOKEN",
    secret: true,
    example: "<token>",
  },
  maxRetries: { configKey: "custody:maxRetries", envVar: "CUSTODY_MAX_RETRIES", secret: false, example: "3" },
  requestsPerMinute: {
    configKey: "custody:requestsPerMinute",
    envVar: "CUSTODY_REQUESTS_PER_MINUTE",
    secret: false,
    example: "180",
  },
};

/**
 * Settings that are missing, malformed, or do not work (a refused token, an unreachable URL). The message names
 * the setting and how to fix it, never its value. No stack trace is shown: the message says everything.
 */
export class CustodySettingsError extends Error {
  /** The stack config key at fault, e.g. `custody:accessToken`. */
  readonly setting: string;
  constructor(setting: string, message: string) {
    super(message);
    this.name = "CustodySettingsError";
    this.setting = setting;
    // The engine prints `${error}: ${error.stack}` for a failed provider call: a trace adds nothing here.
    this.stack = "";
  }
}

/**
 * Reads one stack config value by its full key (`custody:baseUrl`); `undefined` when not set. The provider
 * passes the dynamic provider's `Config.get`, data sources a `pulumi.Config("custody")` lookup.
 */
export type ConfigLookup = (fullKey: string) => unknown;

function howToSet(spec: SettingSpec): string {
  const secret = spec.secret ? "--secret " : "";
  return `set it with \`pulumi config set ${secret}${spec.configKey} ${spec.example}\` or the ${spec.envVar} environment variable`;
}

function rawSetting(
  name: keyof CustodySettings,
  lookup: ConfigLookup,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const spec = SETTINGS[name];
  const fromConfig = lookup(spec.configKey);
  if (fromConfig !== undefined && fromConfig !== null && String(fromConfig).trim() !== "") {
    return String(fromConfig).trim();
  }
  const fromEnv = env[spec.envVar];
  return fromEnv !== undefined && fromEnv.trim() !== "" ? fromEnv.trim() : undefined;
}

function required(name: "baseUrl" | "accessToken", lookup: ConfigLookup, env: NodeJS.ProcessEnv): string {
  const value = rawSetting(name, lookup, env);
  if (value === undefined) {
    const spec = SETTINGS[name];
    throw new CustodySettingsError(spec.configKey, `Missing setting ${spec.configKey}: ${howToSet(spec)}.`);
  }
  return value;
}

function optionalInteger(
  name: "maxRetries" | "requestsPerMinute",
  lookup: ConfigLookup,
  env: NodeJS.ProcessEnv,
): number | undefined {
  const value = rawSetting(name, lookup, env);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) {
    const spec = SETTINGS[name];
    throw new CustodySettingsError(
      spec.configKey,
      `Invalid setting ${spec.configKey}: must be a non-negative integer, got ${JSON.stringify(value)}; ${howToSet(spec)}.`,
    );
  }
  return Number(value);
}

function checkedBaseUrl(value: string): string {
  const spec = SETTINGS.baseUrl;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CustodySettingsError(
      spec.configKey,
      `Invalid setting ${spec.configKey}: must be an absolute URL such as ${spec.example}, got ${JSON.stringify(value)}; ${howToSet(spec)}.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new CustodySettingsError(
      spec.configKey,
      `Invalid setting ${spec.configKey}: must be an https:// URL, got ${JSON.stringify(value)}; ${howToSet(spec)}.`,
    );
  }
  // Whether plain http is acceptable (loopback only) is the client's rule; it refuses with its own message.
  return value.replace(/\/+$/, "");
}

/**
 * Resolves the settings: stack config (through `lookup`) wins over the environment.
 *
 * @throws {CustodySettingsError} when `baseUrl` or `accessToken` is missing, or a value is malformed.
 */
export function resolveSettings(lookup: ConfigLookup, env: NodeJS.ProcessEnv = process.env): CustodySettings {
  const settings: CustodySettings = {
    baseUrl: checkedBaseUrl(required("baseUrl", lookup, env)),
    accessToken: required("accessToken", lookup, env),
  };
  const maxRetries = optionalInteger("maxRetries", lookup, env);
  if (maxRetries !== undefined) settings.maxRetries = maxRetries;
  const requestsPerMinute = optionalInteger("requestsPerMinute", lookup, env);
  if (requestsPerMinute !== undefined) settings.requestsPerMinute = requestsPerMinute;
  return settings;
}
