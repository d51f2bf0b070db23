/**
 * Secret strings kept out of messages: what a notice or an error shows where a secret value would be. Both paths
 * use it: the plugin masks the values the engine marked secret, the dynamic provider the names its `Vault` class
 * said were secret (../vault/secret-name.ts).
 */

/** What stands in a message for a value that was secret. */
export const SECRET_MASK = "[secret]";

/**
 * The text with every one of `secrets` written as {@link SECRET_MASK}. A string of under four characters is
 * masked only where it stands quoted, as the messages quote names and values: masking it everywhere would garble
 * the rest.
 */
export function maskStrings(text: string, secrets: Iterable<string>): string {
  let masked = text;
  // The longest first, so that a secret inside another is not masked half.
  const sorted = [...new Set(secrets)].filter((s) => s !== "").sort((a, b) => b.length - a.length);
  for (const secret of sorted) {
    masked =
      secret.length >= 4
        ? masked.split(secret).join(SECRET_MASK)
        : masked.split(`"${secret}"`).join(`"${SECRET_MASK}"`);
  }
  return masked;
}

/**
 * Runs `operation`; an error it throws leaves with `mask` applied to its message, its stack (which repeats the
 * message: the engine prints neither, but a log of the error would) and, for a partly failed create, its
 * reasons.
 */
export async function withErrorsMasked<T>(
  mask: (text: string) => string,
  operation: () => Promise<T>,
): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    if (err instanceof Error) {
      err.message = mask(err.message);
      err.stack = `${err.name}: ${err.message}`;
      const partial = err as { reasons?: unknown };
      if (Array.isArray(partial.reasons))
        partial.reasons = partial.reasons.map((r) => (typeof r === "string" ? mask(r) : r));
    }
    throw err;
  }
}
