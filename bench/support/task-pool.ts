/**
 * A fixed number of workers over a queue of tasks, where a finished task may enqueue follow-ups. This is how the
 * engine schedules resource operations under `--parallel P`: at most P at once, and a resource whose inputs
 * depend on another (an address on its vault) becomes ready when that one finishes.
 */

/** A unit of work; it may return tasks that became ready because it finished. */
export type Task = () => Promise<Task[] | undefined>;

/** Runs `tasks` (and their follow-ups) with at most `concurrency` in flight; rejects on the first failure. */
export async function runPool(concurrency: number, tasks: readonly Task[]): Promise<void> {
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`concurrency must be >= 1, got ${concurrency}`);
  const queue = [...tasks];
  let inFlight = 0;
  let failed: unknown;
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (failed !== undefined) return;
      if (queue.length === 0 && inFlight === 0) return resolve();
      while (inFlight < concurrency && queue.length > 0) {
        const task = queue.shift()!;
        inFlight++;
        task().then(
          (next) => {
            inFlight--;
            if (next) queue.push(...next);
            pump();
          },
          (err: unknown) => {
            failed = err;
            reject(err);
          },
        );
      }
    };
    pump();
  });
}
