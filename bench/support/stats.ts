/** Summary statistics of repeated samples. The median is the reported value: one slow outlier cannot move it. */

/** A measured quantity: every sample, and their median. */
export interface Stat {
  /** The median of `values` (the mean of the middle two for an even count). */
  median: number;
  /** Smallest sample. */
  min: number;
  /** Largest sample. */
  max: number;
  /** Every sample, in the order measured. */
  values: number[];
}

/** Summarizes samples; throws on an empty list, which would mean a figure measured nothing. */
export function summarize(values: readonly number[]): Stat {
  if (values.length === 0) throw new Error("summarize: no samples");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, values: [...values] };
}

/** A single exact value (a count or a size) as a {@link Stat}. */
export function exact(value: number): Stat {
  return summarize([value]);
}
