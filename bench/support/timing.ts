/**
 * Wall-clock timing with the monotonic high-resolution clock (`process.hrtime.bigint`), so a clock
 * adjustment during a run cannot skew a figure.
 */

/** Nanoseconds since an arbitrary origin; only differences are meaningful. */
export function nowNs(): bigint {
  return process.hrtime.bigint();
}

/** Milliseconds elapsed since `startNs` (a value of {@link nowNs}). */
export function elapsedMs(startNs: bigint): number {
  return Number(process.hrtime.bigint() - startNs) / 1e6;
}

/** Runs `fn` once and resolves to its duration in milliseconds, and its result. */
export async function timeMs<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = nowNs();
  const result = await fn();
  return { ms: elapsedMs(start), result };
}
