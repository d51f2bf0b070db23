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
import { clientFor, currentSettings, settingFromConfig } from "./client";
import { notifyUser } from "./notify";
import { type CustodySettings, CustodySettingsError, SETTINGS } from "./settings";

const verified = new Map<string, Promise<CustodyClient>>();
/** Messages already given in full in this process; later failures refer to them in one line. */
const told = new Set<string>();

/** The client for the settings in force, after they were shown to work (once per process and settings). */
export async function readyClient(): Promise<CustodyClient> {
  const settings = currentSettings();
  const key = JSON.stringify([settings.baseUrl, settings.accessToken]);
  let ready = verified.get(key);
  if (!ready) {
    ready = verify(settings);
    verified.set(key, ready);
  }
  try {
    return await ready;
  } catch (err) {
    throw once(err);
  }
}

/** Forgets every verification (tests, and a process that changes settings). */
export function forgetVerifiedSettings(): void {
  verified.clear();
  told.clear();
}

async function verify(settings: CustodySettings): Promise<CustodyClient> {
  const problem = await probe(settings);
  if (!problem) return clientFor(settings);
  const fromEnv = process.env[SETTINGS.accessToken.envVar]?.trim();
  if (
    problem instanceof CustodyAuthenticationError &&
    settingFromConfig("accessToken") &&
    fromEnv &&
    fromEnv !== settings.accessToken
  ) {
    const fallback = { ...settings, accessToken: fromEnv };
    if (!(await probe(fallback))) {
      await notifyUser(
        `${SETTINGS.accessToken.configKey} was refused (401), so ${SETTINGS.accessToken.envVar} is used instead. ` +
          `If you rotated the token, run \`pulumi up\` (or refresh with --run-program) so that the state records the new one.`,
      );
      return clientFor(fallback);
    }
  }
  throw settingsError(problem, settings);
}

/** One cheap authenticated read; the error when it shows the settings cannot work, else `undefined`. */
async function probe(settings: CustodySettings): Promise<unknown> {
  try {
    await clientFor(settings).vaults.list({ size: 1 });
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

function settingsError(err: unknown, settings: CustodySettings): CustodySettingsError {
  const token = SETTINGS.accessToken;
  const base = SETTINGS.baseUrl;
  const tokenSource = settingFromConfig("accessToken")
    ? `stack config ${token.configKey}`
    : `the ${token.envVar} environment variable`;
  const baseSource = settingFromConfig("baseUrl")
    ? `stack config ${base.configKey}`
    : `the ${base.envVar} environment variable`;
  if (err instanceof CustodyAuthenticationError) {
    return new CustodySettingsError(
      token.configKey,
      `The custody API at ${settings.baseUrl} refused the access token from ${tokenSource} (401 Unauthorized): ` +
        "it is wrong, expired or revoked. Set a valid one with " +
        `\`pulumi config set --secret ${token.configKey} <token>\` or ${token.envVar}. ` +
        "After a rotation, `pulumi refresh` and `pulumi preview --refresh` still use the token the last `pulumi up` " +
        "recorded in the state: add --run-program (`pulumi preview --refresh --run-program --expect-no-changes`), " +
        "or run `pulumi up` once with the new token.",
    );
  }
  if (err instanceof CustodyPermissionError) {
    return new CustodySettingsError(
      token.configKey,
      `The custody API at ${settings.baseUrl} accepted the access token from ${tokenSource} but refused to list ` +
        "vaults with it (403 Forbidden): use the token of an API user that may read vaults.",
    );
  }
  if (err instanceof CustodyNotFoundError) {
    return new CustodySettingsError(
      base.configKey,
      `${settings.baseUrl} (from ${baseSource}) does not serve the custody API: GET /api/v1/vaults answered 404. ` +
        `Set the API's root URL, e.g. ${base.example}, without /api/v1.`,
    );
  }
  const reason = err instanceof Error ? err.message : String(err);
  if (err instanceof CustodyConfigurationError) {
    return new CustodySettingsError(
      base.configKey,
      `Invalid ${base.configKey} (from ${baseSource}): ${reason}`,
    );
  }
  return new CustodySettingsError(
    base.configKey,
    `The custody API at ${settings.baseUrl} (from ${baseSource}) cannot be reached: ${reason}. ` +
      `Check ${base.configKey} (or ${base.envVar}).`,
  );
}

/** The full message the first time; after that one line that points to it, so N resources print it once. */
function once(err: unknown): unknown {
  if (!(err instanceof CustodySettingsError)) return err;
  if (!told.has(err.message)) {
    told.add(err.message);
    return err;
  }
  return new CustodySettingsError(
    err.setting,
    `${err.setting} does not work (the first error of this run says why and what to do).`,
  );
}
