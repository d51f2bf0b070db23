/** Waiting that an `AbortSignal` can cut short. */

/** A function that resolves after `ms` milliseconds, or rejects with the signal's reason once it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real-time {@link Sleep}. Its timer keeps the process alive: someone is awaiting the retry. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
