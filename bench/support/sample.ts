import { type Stat, summarize } from "./stats";
import { elapsedMs, nowNs } from "./timing";

/** How often to run a measured step. */
export interface SampleOptions {
  /** Untimed runs first (JIT, connection pools, file caches). */
  warmup: number;
  /** Timed runs; the median is reported. */
  samples: number;
}

/** One step to time, with untimed set-up and tear-down around each run. */
export interface SampledStep<T> {
  /** Untimed preparation before each run (fresh stack, emulator reset, ...). */
  before?: () => Promise<void>;
  /** The timed part. */
  run: () => Promise<T>;
  /** Untimed clean-up after each run; receives what `run` returned. */
  after?: (result: T) => Promise<void>;
}

/**
 * Runs `step` `warmup + samples` times and summarizes the timed runs in milliseconds.
 * Only `run` is timed; `before` and `after` are not.
 */
export async function sampleMs<T>(options: SampleOptions, step: SampledStep<T>): Promise<Stat> {
  const values: number[] = [];
  for (let i = 0; i < options.warmup + options.samples; i++) {
    await step.before?.();
    const start = nowNs();
    const result = await step.run();
    const ms = elapsedMs(start);
    await step.after?.(result);
    if (i >= options.warmup) values.push(ms);
  }
  return summarize(values);
}

/**
 * Times several competing steps in rounds (A, B, C, A, B, C, ...) rather than all A first, so a slow drift of
 * the machine (thermal, background load) affects every step alike. Resolves to one {@link Stat} per key.
 */
export async function sampleInterleavedMs<K extends string>(
  options: SampleOptions,
  steps: Record<K, SampledStep<unknown>>,
): Promise<Record<K, Stat>> {
  const keys = Object.keys(steps) as K[];
  const values = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < options.warmup + options.samples; i++) {
    for (const key of keys) {
      const step = steps[key];
      await step.before?.();
      const start = nowNs();
      const result = await step.run();
      const ms = elapsedMs(start);
      await step.after?.(result);
      if (i >= options.warmup) values[key].push(ms);
    }
  }
  return Object.fromEntries(keys.map((k) => [k, summarize(values[k])])) as Record<K, Stat>;
}
