/**
 * Where the settings come from: explicit values first, then the stack config `custody:*`, then the
 * environment. Read at run time only (in `configure()`, a method body or a data-source call), never at module
 * load, so no credential is ever captured into a resource's serialized provider.
 */

import { LONE_SURROGATE, shownValue } from "../inputs/shown";

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

/** A setting's value as found, and how messages name where it was found. */
interface RawSetting {
  /** The value, trimmed. */
  value: string;
  /** `custody:maxRetries`, `CUSTODY_MAX_RETRIES (environment variable)`, `the maxRetries option`. */
  where: string;
}

/** How a message names a setting read from `origin`. */
function whereOf(name: keyof CustodySettings, origin: "config" | "env" | "option"): string {
  const spec = SETTINGS[name];
  if (origin === "env") return `${spec.envVar} (environment variable)`;
  if (origin === "option") return `the ${name} option`;
  return spec.configKey;
}

function rawSetting(
  name: keyof CustodySettings,
  lookup: ConfigLookup,
  env: NodeJS.ProcessEnv,
  isOption: (name: keyof CustodySettings) => boolean = () => false,
): RawSetting | undefined {
  const spec = SETTINGS[name];
  const fromConfig = lookup(spec.configKey);
  if (fromConfig !== undefined && fromConfig !== null && String(fromConfig).trim() !== "") {
    return { value: String(fromConfig).trim(), where: whereOf(name, isOption(name) ? "option" : "config") };
  }
  const fromEnv = env[spec.envVar];
  return fromEnv !== undefined && fromEnv.trim() !== ""
    ? { value: fromEnv.trim(), where: whereOf(name, "env") }
    : undefined;
}

function required(
  name: "baseUrl" | "accessToken",
  lookup: ConfigLookup,
  env: NodeJS.ProcessEnv,
  isOption?: (name: keyof CustodySettings) => boolean,
): RawSetting {
  const raw = rawSetting(name, lookup, env, isOption);
  if (raw === undefined) {
    const spec = SETTINGS[name];
    throw new CustodySettingsError(spec.configKey, `Missing setting ${spec.configKey}: ${howToSet(spec)}.`);
  }
  return raw;
}

/**
 * The range of each number setting: the client's own range for `maxRetries` (its constructor refuses any
 * other), and for `requestsPerMinute` any whole number up to a million a minute (0 turns the limit off), far
 * above any quota of the service, so that a typo of extra digits is caught.
 */
export const SETTING_RANGES: Readonly<
  Record<"maxRetries" | "requestsPerMinute", { min: number; max: number }>
> = {
  maxRetries: { min: 0, max: 10 },
  requestsPerMinute: { min: 0, max: 1_000_000 },
};

function invalid(name: keyof CustodySettings, where: string, rule: string): CustodySettingsError {
  const spec = SETTINGS[name];
  return new CustodySettingsError(spec.configKey, `Invalid setting ${where}: ${rule}; ${howToSet(spec)}.`);
}

function optionalInteger(
  name: "maxRetries" | "requestsPerMinute",
  raw: RawSetting | undefined,
): number | undefined {
  if (raw === undefined) return undefined;
  const { min, max } = SETTING_RANGES[name];
  const { value, where } = raw;
  if (!/^\d+$/.test(value)) {
    throw invalid(
      name,
      where,
      `must be a non-negative integer, got ${shownValue(value)} (from ${min} to ${max})`,
    );
  }
  const number = Number(value);
  if (number < min || number > max) {
    throw invalid(name, where, `must be an integer from ${min} to ${max}, got ${shownValue(value)}`);
  }
  return number;
}

/** The longest base URL: every request's URL starts with it, and messages quote it. */
const MAX_BASE_URL_CHARS = 512;
/** The longest host name (RFC 1035, section 2.3.4): 253 characters, each dot-separated label at most 63. */
const MAX_HOST_CHARS = 253;
const MAX_LABEL_CHARS = 63;
/** A host name label (letters, digits, hyphens; no hyphen at either end), after IDNA (`xn--…`). */
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** The rule a URL's host breaks, or `undefined` for a usable host (a name, an IPv4 or a bracketed IPv6). */
function hostProblem(hostname: string): string | undefined {
  if (hostname.startsWith("[")) return undefined;
  const host = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  if (host === "") return "must name a host";
  if (host.length > MAX_HOST_CHARS) {
    return `has a host of ${host.length} characters; a host name is at most ${MAX_HOST_CHARS}`;
  }
  for (const label of host.split(".")) {
    if (label.length > MAX_LABEL_CHARS) {
      return `has a host label of ${label.length} characters (${shownValue(label, 20)}); each dot-separated label of a host name is at most ${MAX_LABEL_CHARS}`;
    }
    if (!HOST_LABEL.test(label)) {
      return `has a host label ${shownValue(label)} that is not a valid host name label (letters, digits and hyphens, no hyphen at either end)`;
    }
  }
  return undefined;
}

function checkedBaseUrl({ value, where }: RawSetting): string {
  const spec = SETTINGS.baseUrl;
  // The URL parser drops tabs and line breaks that a message or a log line would keep.
  if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(value) || LONE_SURROGATE.test(value)) {
    throw invalid(
      "baseUrl",
      where,
      `must be a URL without control or formatting characters, got ${shownValue(value)}`,
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(
      "baseUrl",
      where,
      `must be an absolute URL such as ${spec.example}, got ${shownValue(value)}`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw invalid("baseUrl", where, `must be an https:// URL, got ${shownValue(value)}`);
  }
  const host = hostProblem(url.hostname);
  if (host !== undefined) throw invalid("baseUrl", where, host);
  if (value.length > MAX_BASE_URL_CHARS) {
    throw invalid(
      "baseUrl",
      where,
      `must be at most ${MAX_BASE_URL_CHARS} characters (got ${value.length}: ${shownValue(value, 40)})`,
    );
  }
  // Whether plain http is acceptable (loopback only) is the client's rule; it refuses with its own message.
  return value.replace(/\/+$/, "");
}

/** The access token as the client can send it in a header; the message never shows the token. */
function checkedToken({ value, where }: RawSetting): string {
  if (/^bearer\s/i.test(value)) {
    throw invalid("accessToken", where, "must be the bare token, without the 'Bearer ' prefix");
  }
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw invalid(
      "accessToken",
      where,
      "must be printable ASCII without spaces (it is sent in a header); it holds another character",
    );
  }
  return value;
}

/**
 * The rule that one setting's value breaks, judged alone (a missing value is no fault here: the environment may
 * supply it); `undefined` when the value is fine. What a plugin's `CheckConfig` reports, by the same rules as
 * `connect` resolves settings with.
 */
export function checkSetting(name: keyof CustodySettings, value: unknown): string | undefined {
  if (value === undefined || value === null || String(value).trim() === "") return undefined;
  const raw = { value: String(value).trim(), where: SETTINGS[name].configKey };
  try {
    if (name === "baseUrl") checkedBaseUrl(raw);
    else if (name === "accessToken") checkedToken(raw);
    else optionalInteger(name, raw);
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
    settings: resolveSettings(lookup, source.env ?? process.env, (name) => present(overrides[name])),
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
function resolveSettings(
  lookup: ConfigLookup,
  env: NodeJS.ProcessEnv,
  isOption: (name: keyof CustodySettings) => boolean,
): CustodySettings {
  const settings: CustodySettings = {
    baseUrl: checkedBaseUrl(required("baseUrl", lookup, env, isOption)),
    accessToken: checkedToken(required("accessToken", lookup, env, isOption)),
  };
  const maxRetries = optionalInteger("maxRetries", rawSetting("maxRetries", lookup, env, isOption));
  if (maxRetries !== undefined) settings.maxRetries = maxRetries;
  const requestsPerMinute = optionalInteger(
    "requestsPerMinute",
    rawSetting("requestsPerMinute", lookup, env, isOption),
  );
  if (requestsPerMinute !== undefined) settings.requestsPerMinute = requestsPerMinute;
  return settings;
}
