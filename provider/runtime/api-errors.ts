/**
 * How the provider reads errors of the custody client. Duck-typed on the fields every client error carries
 * (`status`, `errorType`, `detail`, `requestId`), so that a transport failure without a status is told apart
 * from an answer of the API.
 */

/** The HTTP status of an API error; `undefined` for transport failures (reset, timeout, DNS). */
export function httpStatus(err: unknown): number | undefined {
  if (err === null || typeof err !== "object") return undefined;
  const { status, statusCode } = err as { status?: unknown; statusCode?: unknown };
  if (typeof status === "number") return status;
  if (typeof statusCode === "number") return statusCode;
  return undefined;
}

/** The API's typed precondition error (`error_type`), e.g. `invalid_vault_type`. */
export function errorType(err: unknown): string | undefined {
  if (err === null || typeof err !== "object") return undefined;
  const value = (err as { errorType?: unknown }).errorType;
  return typeof value === "string" ? value : undefined;
}

/** 404: the object does not exist (any more). */
export function isNotFound(err: unknown): boolean {
  return httpStatus(err) === 404;
}

/** 409: the name is taken. */
export function isConflict(err: unknown): boolean {
  return httpStatus(err) === 409;
}

/**
 * The request may or may not have taken effect: the connection broke or timed out after sending, or the
 * service answered 408 or 5xx (a fault after commit looks exactly like this). A create that fails this way must
 * be reconciled by looking for what it would have created, never blindly repeated. The client marks such
 * errors `outcomeUnknown`; the status check covers errors from elsewhere.
 */
export function isOutcomeUnknown(err: unknown): boolean {
  if (err === null || typeof err !== "object") return false;
  if ((err as { outcomeUnknown?: unknown }).outcomeUnknown === true) return true;
  const status = httpStatus(err);
  return status !== undefined && (status === 408 || status >= 500);
}

/**
 * The request was refused before it did anything (429), or never reached the service (connection refused):
 * it may be sent again after a pause.
 */
export function isSafeToRepeat(err: unknown): boolean {
  if (httpStatus(err) === 429) return true;
  return (err as { code?: unknown } | null)?.code === "ERR_CUSTODY_CONNECTION";
}

/** Seconds the service asked us to wait (`Retry-After`), when the error carries it. */
export function retryAfterSeconds(err: unknown): number | undefined {
  if (err === null || typeof err !== "object") return undefined;
  const ms = (err as { retryAfterMs?: unknown }).retryAfterMs;
  return typeof ms === "number" && Number.isFinite(ms) && ms >= 0 ? ms / 1000 : undefined;
}

/** A one-line description of a client error for a user-facing message (the client redacts credentials). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
