/**
 * Where the settings come from: explicit values first, then the stack config `custody:*`, then the
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
  /**
   * @param setting - the stack config key at fault
   * @param message - what is wrong and how to fix it, never the value
   * @param cause - the sdk's error that showed it (a refused token's `CustodyAuthenticationError`), if any
   */
  constructor(setting: string, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
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
 * The rule that one setting's value breaks, judged alone (a missing value is no fault here: the environment may
 * supply it); `undefined` when the value is fine. What a plugin's `CheckConfig` reports, by the same rules as
 * `connect` resolves settings with.
 */
export function checkSetting(name: keyof CustodySettings, value: unknown): string | undefined {
  if (value === undefined || value === null || String(value).trim() === "") return undefined;
  const raw = String(value).trim();
  try {
    if (name === "baseUrl") checkedBaseUrl(raw);
    else if (name === "maxRetries" || name === "requestsPerMinute")
      optionalInteger(name, (key) => (key === SETTINGS[name].configKey ? raw : undefined), {});
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Where settings come from, highest first: explicit values (a data source's options), the stack config (the
 * dynamic provider's `Config`, a plugin's `Configure`, a program's config, `pulumi config --json`), then the
 * environment.
 */
export interface SettingsSource {
  /** Explicit values, by setting; they win over everything else. */
  readonly overrides?: Partial<Record<keyof CustodySettings, string>>;
  /** The stack config, by full key (`custody:baseUrl`). */
  readonly config?: ConfigLookup;
  /** The environment; `process.env` when not given. */
  readonly env?: NodeJS.ProcessEnv;
}

/** Where a setting in force came from, as messages name it, and how its owner changes it. */
export interface SettingOrigin {
  /** `stack config custody:accessToken`, `the CUSTODY_ACCESS_TOKEN environment variable`, `the accessToken option`. */
  readonly source: string;
  /** What to do to change it, as a sentence without its final period. */
  readonly howToChange: string;
}

/** Where the base URL and the access token in force came from. */
export interface SettingOrigins {
  /** Of the base URL. */
  readonly baseUrl: SettingOrigin;
  /** Of the access token. */
  readonly accessToken: SettingOrigin;
}

/** The origin of a setting read from stack config (`fromConfig`) or else from the environment. */
export function configOrEnvironment(name: "baseUrl" | "accessToken", fromConfig: boolean): SettingOrigin {
  const spec = SETTINGS[name];
  return {
    source: fromConfig ? `stack config ${spec.configKey}` : `the ${spec.envVar} environment variable`,
    howToChange:
      name === "accessToken"
        ? `set a valid one with \`pulumi config set --secret ${spec.configKey} <token>\` or the ${spec.envVar} environment variable`
        : `check ${spec.configKey} (or ${spec.envVar})`,
  };
}

/** Settings resolved from a {@link SettingsSource}, with where the two required ones came from. */
export interface ResolvedSettings {
  /** The settings in force. */
  readonly settings: CustodySettings;
  /** Where the base URL and the token came from. */
  readonly origins: SettingOrigins;
}

/**
 * Resolves a {@link SettingsSource}: what the one door (./connect.ts) connects with. Nothing else reads settings.
 *
 * @throws {CustodySettingsError} when `baseUrl` or `accessToken` is missing, or a value is malformed.
 */
export function settingsFrom(source: SettingsSource): ResolvedSettings {
  const overrides = source.overrides ?? {};
  const config = source.config ?? (() => undefined);
  const present = (value: unknown) => value !== undefined && value !== null && String(value).trim() !== "";
  const byKey = new Map(
    (Object.keys(SETTINGS) as (keyof CustodySettings)[]).map((name) => [SETTINGS[name].configKey, name]),
  );
  const lookup: ConfigLookup = (key) => {
    const name = byKey.get(key);
    return name !== undefined && present(overrides[name]) ? overrides[name] : config(key);
  };
  const originOf = (name: "baseUrl" | "accessToken"): SettingOrigin =>
    present(overrides[name])
      ? { source: `the ${name} option`, howToChange: `pass a valid ${name} option` }
      : configOrEnvironment(name, present(config(SETTINGS[name].configKey)));
  return {
    settings: resolveSettings(lookup, source.env ?? process.env),
    origins: { baseUrl: originOf("baseUrl"), accessToken: originOf("accessToken") },
  };
}

/**
 * The environment's access token when it differs from `settings`' own: what a provider falls back to when the
 * token recorded in the state was refused after a rotation (./connect.ts). Tokens are read here and nowhere else.
 */
export function environmentTokenBesides(
  settings: CustodySettings,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const fromEnv = env[SETTINGS.accessToken.envVar]?.trim();
  return fromEnv && fromEnv !== settings.accessToken ? fromEnv : undefined;
}

/**
 * Resolves the settings: stack config (through `lookup`) wins over the environment.
 *
 * @throws {CustodySettingsError} when `baseUrl` or `accessToken` is missing, or a value is malformed.
 */
function resolveSettings(lookup: ConfigLookup, env: NodeJS.ProcessEnv = process.env): CustodySettings {
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
