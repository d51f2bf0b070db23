/** Formatting of measured values for the console table and `BENCHMARKS.md`. */
import type { Target, Unit } from "./results";

/** A value in its unit: `1.23 s`, `48.2 ms`, `412 µs`, `400 requests`, `1.4 KiB`, `12,345 req/s`. */
export function formatValue(value: number, unit: Unit): string {
  switch (unit) {
    case "ms":
      return formatMs(value);
    case "requests":
      return `${formatInt(value)} req`;
    case "bytes":
      return formatBytes(value);
    case "req/s":
      return `${formatInt(value)} req/s`;
    case "ratio":
      return formatRatio(value);
  }
}

/** A duration given in milliseconds, with a unit that keeps three significant digits. */
export function formatMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(0)} µs`;
}

/** A byte count in B, KiB, MiB or GiB. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${Math.round(bytes)} B`;
}

/** An integer with thousands separators. */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** A ratio such as `1.07×`. */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return "n/a";
  return `${ratio.toFixed(ratio >= 100 ? 0 : 2)}×`;
}

/** A target such as `≤ 1.15×` or `≥ 1.00×`. */
export function formatTarget(target: Target | undefined): string {
  if (!target) return "(reference)";
  return `${target.kind === "max" ? "≤" : "≥"} ${formatRatio(target.value)}`;
}

/** `met`, `MISSED`, or `-` when there is no target. */
export function formatVerdict(met: boolean | undefined): string {
  if (met === undefined) return "-";
  return met ? "met" : "MISSED";
}
