/**
 * Scrubbing of secrets from text the client did not write itself (error bodies, socket error messages).
 *
 * The client never puts its credentials into an error, but a misbehaving proxy or service could echo the
 * Authorization header back; this keeps such an echo out of messages, logs and `util.inspect` output.
 */

/** Placeholder that replaces every occurrence of a secret. */
export const REDACTED = "[REDACTED]";

/** Secrets shorter than this are not scrubbed: replacing e.g. "a" everywhere would garble any message. */
const MIN_SECRET_LENGTH = 8;

/**
 * A copy of `value` (string, array or plain object, recursively) with every occurrence of each secret replaced
 * by {@link REDACTED}. Other values are returned as they are.
 */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  const active = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  if (active.length === 0) return value;
  return scrub(value, active, 0) as T;
}

function scrub(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === "string") {
    let out = value;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }
  // Bounded depth: error bodies are shallow; anything deeper is dropped rather than walked forever.
  if (depth > 32 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[scrub(k, secrets, depth + 1) as string] = scrub(v, secrets, depth + 1);
  return out;
}
