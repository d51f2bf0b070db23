/**
 * The emulator's clock. Tests move it (advance, set, freeze) to drive time-based behaviour without waiting:
 * transaction progression in `clock` mode, the `x-timestamp` window and rate-limit windows.
 */
export interface ClockSnapshot {
  /** Current emulator time, epoch milliseconds. */
  nowMs: number;
  /** Current emulator time, ISO-8601. */
  now: string;
  /** Emulator time minus wall-clock time, in milliseconds. */
  offsetMs: number;
  /** When true the clock does not tick on its own. */
  frozen: boolean;
}

export class Clock {
  private offsetMs = 0;
  private frozenAtMs: number | undefined;
  private readonly listeners = new Set<() => void>();

  /** Emulator time in epoch milliseconds. */
  now(): number {
    return this.frozenAtMs ?? Date.now() + this.offsetMs;
  }

  /** Emulator time as the service formats it: `2025-02-13T15:27:16.186000Z`. */
  isoNow(): string {
    return formatTimestamp(this.now());
  }

  /** Moves the clock forward (or back, if negative) by `ms`. */
  advance(ms: number): void {
    if (this.frozenAtMs !== undefined) this.frozenAtMs += ms;
    else this.offsetMs += ms;
    this.emit();
  }

  /** Sets the clock to `epochMs`; it keeps ticking from there unless frozen. */
  set(epochMs: number): void {
    if (this.frozenAtMs !== undefined) this.frozenAtMs = epochMs;
    else this.offsetMs = epochMs - Date.now();
    this.emit();
  }

  /** Stops (true) or restarts (false) the clock at its current time. */
  freeze(frozen: boolean): void {
    if (frozen && this.frozenAtMs === undefined) this.frozenAtMs = this.now();
    if (!frozen && this.frozenAtMs !== undefined) {
      this.offsetMs = this.frozenAtMs - Date.now();
      this.frozenAtMs = undefined;
    }
    this.emit();
  }

  /** Back to wall-clock time, ticking. */
  reset(): void {
    this.offsetMs = 0;
    this.frozenAtMs = undefined;
    this.emit();
  }

  snapshot(): ClockSnapshot {
    const nowMs = this.now();
    return {
      nowMs,
      now: formatTimestamp(nowMs),
      offsetMs: nowMs - Date.now(),
      frozen: this.frozenAtMs !== undefined,
    };
  }

  /** Called after every change made through this object; returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

/** `2025-02-13T15:27:16.186000Z`: six fractional digits, as the real service sends. */
export function formatTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}
