/**
 * Property values between the engine's wire form and the runtime's plain objects.
 *
 * The plugin tells the engine that it accepts secrets (Configure's `acceptSecrets`), so inputs and state arrive
 * with secret values wrapped as `{ [SIG_KEY]: SECRET_SIG, value }`, the engine's wire form of a secret (see
 * plugin/README.md). The runtime works on plain values: {@link unwrap} removes the wrappers and records which
 * top-level properties held a secret and which strings were secret; {@link protect} wraps every result property
 * that is the same property, or that carries one of those strings. The engine's own fallback for providers that
 * refuse secrets copies secretness by property name only, so a secret `vaultGroupIds` would leave
 * `declaredVaultGroupIds` in plain text in the state.
 *
 * Unknown values (previews) keep the engine's placeholder string, which the runtime already understands
 * (`provider/core/host/unknown-values.ts`).
 */
import { maskStrings, UNKNOWN, withErrorsMasked } from "pulumi-custody/core";

/** The key that marks a special value on the wire. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The signature of a secret value. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** The signature of a resource reference (sent only to providers that accept them; read as its id). */
const RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";
/** The signature of an output value (sent only to providers that accept them; read as its value). */
const OUTPUT_SIG = "d0e6a833031e9bbcd3f4e8bde6ca49a4";

/** Plain values and what was secret in them. */
export interface Unwrapped {
  /** The values without secret wrappers. */
  values: Record<string, unknown>;
  /** Top-level properties that held a secret, at any depth. */
  secretKeys: Set<string>;
  /** Every string that was inside a secret (the taint {@link protect} follows). */
  secretStrings: Set<string>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function strip(value: unknown, inSecret: boolean, found: { any: boolean; strings: Set<string> }): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, inSecret, found));
  if (!isObject(value)) {
    // The preview placeholder is no secret of its own (it stands for any unknown value).
    if (inSecret && typeof value === "string" && value !== UNKNOWN) found.strings.add(value);
    return value;
  }
  const sig = value[SIG_KEY];
  if (sig === SECRET_SIG) {
    found.any = true;
    return strip(value.value, true, found);
  }
  if (sig === RESOURCE_SIG) return strip(value.id ?? value.urn, inSecret, found);
  if (sig === OUTPUT_SIG) {
    if (value.secret === true) found.any = true;
    return strip(value.value, inSecret || value.secret === true, found);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v, inSecret, found)]));
}

/** Removes the wire wrappers from an object of properties, remembering what was secret. */
export function unwrap(properties: Record<string, unknown> | undefined): Unwrapped {
  const values: Record<string, unknown> = {};
  const secretKeys = new Set<string>();
  const secretStrings = new Set<string>();
  for (const [key, value] of Object.entries(properties ?? {})) {
    const found = { any: false, strings: secretStrings };
    values[key] = strip(value, false, found);
    if (found.any) secretKeys.add(key);
  }
  return { values, secretKeys, secretStrings };
}

/** Merges what several {@link unwrap} calls found secret. */
export function secretsOf(...sources: Unwrapped[]): Pick<Unwrapped, "secretKeys" | "secretStrings"> {
  const secretKeys = new Set<string>();
  const secretStrings = new Set<string>();
  for (const source of sources) {
    for (const key of source.secretKeys) secretKeys.add(key);
    for (const text of source.secretStrings) secretStrings.add(text);
  }
  return { secretKeys, secretStrings };
}

function carriesAny(value: unknown, strings: Set<string>): boolean {
  if (typeof value === "string") return strings.has(value);
  if (Array.isArray(value)) return value.some((item) => carriesAny(item, strings));
  if (isObject(value)) return Object.values(value).some((item) => carriesAny(item, strings));
  return false;
}

/** Drops `undefined` values (the wire has no such thing) by a JSON round trip of each property. */
function defined(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/**
 * Wraps as secret every property that was secret where it came from (same name), or that carries a string that
 * was secret. Properties whose value is `undefined` are left out.
 */
export function protect(
  properties: Record<string, unknown>,
  secrets: Pick<Unwrapped, "secretKeys" | "secretStrings">,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(properties)) {
    const value = defined(raw);
    if (value === undefined) continue;
    const secret = secrets.secretKeys.has(key) || carriesAny(value, secrets.secretStrings);
    out[key] = secret ? { [SIG_KEY]: SECRET_SIG, value } : value;
  }
  return out;
}

/**
 * The text with every secret string of `secrets` written as `[secret]`, so that an error or a check failure about
 * a vault whose name is secret names it no more than the state does.
 */
export function maskSecrets(text: string, secrets: Pick<Unwrapped, "secretStrings">): string {
  return maskStrings(text, secrets.secretStrings);
}

/** Runs `operation`; an error it throws leaves with its message (and reasons) masked by {@link maskSecrets}. */
export async function withSecretsMasked<T>(
  secrets: Pick<Unwrapped, "secretStrings">,
  operation: () => Promise<T>,
): Promise<T> {
  if (secrets.secretStrings.size === 0) return operation();
  return withErrorsMasked((text) => maskSecrets(text, secrets), operation);
}
