/**
 * The wait between attempts of a write the provider reconciles itself (creates, proposals): what the service
 * asked for (`Retry-After`, at most 30 s), else 100 ms doubled per attempt.
 */

/** First pause between attempts; doubled each time. */
const FIRST_PAUSE_MS = 100;
/** The longest `Retry-After` waited out here. */
const MAX_ASKED_PAUSE_MS = 30_000;

/** Waits before attempt `attempt + 1`; `seconds` is the service's `Retry-After`, when it gave one. */
export function pause(attempt: number, seconds?: number): Promise<void> {
  const ms =
    seconds !== undefined
      ? Math.min(seconds * 1000, MAX_ASKED_PAUSE_MS)
      : FIRST_PAUSE_MS * 2 ** (attempt - 1);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
