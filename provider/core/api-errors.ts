/**
 * How the provider reads the client's errors: through the sdk's error classes and their stable `code`s only,
 * never through message text or status numbers of its own.
 */
import { CustodyError, CustodyErrorCode, CustodyRateLimitError, shownText } from "@pulumi-custody/sdk";

/** The error as a client error, or `undefined` for anything else (a bug, a failure outside the client). */
function clientError(err: unknown): CustodyError | undefined {
  return CustodyError.isCustodyError(err) ? err : undefined;
}

/** The API's typed precondition error (`error_type` of a 400), e.g. `invalid_vault_type`. */
export function errorType(err: unknown): string | undefined {
  return clientError(err)?.errorType;
}

/** 404: the object does not exist (any more). */
export function isNotFound(err: unknown): boolean {
  return clientError(err)?.code === CustodyErrorCode.NOT_FOUND;
}

/** 409: the name is taken. */
export function isConflict(err: unknown): boolean {
  return clientError(err)?.code === CustodyErrorCode.CONFLICT;
}

/**
 * The request may or may not have taken effect: the connection broke or timed out after sending, or the
 * service answered 408 or 5xx (a fault after commit looks exactly like this). A create that fails this way must
 * be reconciled by looking for what it would have created, never blindly repeated.
 */
export function isOutcomeUnknown(err: unknown): boolean {
  return clientError(err)?.outcomeUnknown === true;
}

/**
 * The request was refused before it did anything (429), or never reached the service (connection refused):
 * it may be sent again after a pause.
 */
export function isSafeToRepeat(err: unknown): boolean {
  const code = clientError(err)?.code;
  return code === CustodyErrorCode.RATE_LIMITED || code === CustodyErrorCode.CONNECTION;
}

/** Seconds the service asked us to wait (`Retry-After` of a 429), when it said. */
export function retryAfterSeconds(err: unknown): number | undefined {
  const ms = err instanceof CustodyRateLimitError ? err.retryAfterMs : undefined;
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 ? ms / 1000 : undefined;
}

/** The longest message an error or a notice of the provider shows (the engine prints it on a resource's row). */
export const MESSAGE_MAX = 4000;

/**
 * A message as the provider shows it, whatever it quotes (the service's text, a value of the program): every
 * control, C1, bidi and zero-width character escaped by the one rule (`shownText` of the sdk), and cut to
 * {@link MESSAGE_MAX} characters. The last guard of every error the lifecycle throws and every notice.
 */
export function shownMessage(text: string): string {
  return shownText(text, MESSAGE_MAX);
}

/**
 * A one-line description of an error for a user-facing message: its message, escaped and bounded (the client's
 * errors already are, and have their credentials removed; anything else is escaped here).
 */
export function describeError(err: unknown): string {
  let text: string;
  try {
    text = err instanceof Error ? err.message : String(err);
  } catch {
    text = "(an error that cannot be shown)";
  }
  return shownMessage(text);
}
