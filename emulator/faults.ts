/**
 * Deterministic fault injection for `/api/v1` routes (never for the control API).
 *
 * Each API request consumes draws from one seeded generator in a fixed pattern (one draw per matching
 * rule, one for the global rate, one more to pick the global fault kind), so the same seed and the same
 * sequence of requests give the same faults, run after run.
 *
 * Kinds:
 * - `latency`: wait `latencyMs` before answering, then answer normally;
 * - `http_500`, `http_429` (with `Retry-After`), `http_408`: answer with that error; nothing is applied;
 * - `connection_reset`: destroy the socket before anything is applied;
 * - `after_commit_500`, `after_commit_reset`: apply the request (a write is committed), then answer 500
 *   or destroy the socket. This is the case that breaks naive retries of creates.
 */
import { Prng } from "./prng";

export const FAULT_KINDS = [
  "latency",
  "http_500",
  "http_429",
  "http_408",
  "connection_reset",
  "after_commit_500",
  "after_commit_reset",
] as const;
/** A kind of fault: `latency`, an error status, a reset connection, or a failure after the write commits. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** One fault rule; the first matching rule whose draw succeeds wins (latency rules add up instead). */
export interface FaultRule {
  /** What happens when the rule fires. */
  kind: FaultKind;
  /** Probability in [0, 1] for each matching request. */
  rate: number;
  /** Only this HTTP method (`GET`, `POST`, `PUT`). */
  method?: string;
  /** Only this route: an endpoint name (`createVault`) or a path template (`/api/v1/vaults/{id}`). */
  route?: string;
  /** Delay of a `latency` rule, in ms. */
  latencyMs?: number;
  /** Fire at most this many times, then stop matching. */
  count?: number;
}

/** The fault configuration of the emulator: a seeded global fault rate plus targeted rules. */
export interface FaultConfig {
  /** Seed of the fault generator; setting the config restarts the sequence. */
  seed: string | number;
  /** Probability in [0, 1] of a fault on any API request, drawn from `kinds`. */
  rate: number;
  /** Kinds the global rate draws from; default: every error kind, after-commit ones only for writes. */
  kinds?: FaultKind[];
  /** Fixed latency added to every API request, in ms. */
  latencyMs: number;
  /** Targeted rules, checked in order before the global rate; a rule's fault takes precedence. */
  rules: FaultRule[];
}

export interface FaultDecision {
  latencyMs: number;
  fault?: Exclude<FaultKind, "latency">;
}

const READ_KINDS: FaultKind[] = ["http_500", "http_429", "http_408", "connection_reset"];
const WRITE_KINDS: FaultKind[] = [...READ_KINDS, "after_commit_500", "after_commit_reset"];

export class FaultInjector {
  private config: FaultConfig;
  private prng: Prng;
  /** Times each rule has fired, by index. */
  private fired: number[] = [];

  constructor(config: Partial<FaultConfig> = {}) {
    this.config = { seed: 0, rate: 0, latencyMs: 0, rules: [], ...config };
    this.prng = new Prng(`faults/${this.config.seed}`);
  }

  /** Replaces the configuration and restarts the deterministic sequence. */
  configure(config: Partial<FaultConfig>): void {
    this.config = { seed: 0, rate: 0, latencyMs: 0, rules: [], ...config };
    this.prng = new Prng(`faults/${this.config.seed}`);
    this.fired = [];
  }

  /** Changes only the fixed latency (keeps the sequence). */
  setLatency(ms: number): void {
    this.config.latencyMs = ms;
  }

  snapshot(): FaultConfig & { fired: number[] } {
    return { ...this.config, rules: this.config.rules.map((r) => ({ ...r })), fired: [...this.fired] };
  }

  /** Whether any fault or latency is configured (a fast path for the common case). */
  get active(): boolean {
    return this.config.rate > 0 || this.config.latencyMs > 0 || this.config.rules.length > 0;
  }

  /** The fault (and latency) for one API request. */
  decide(method: string, route: string, endpointName: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: this.config.latencyMs };
    if (!this.active) return decision;
    this.config.rules.forEach((rule, i) => {
      if (rule.method && rule.method.toUpperCase() !== method) return;
      if (rule.route && rule.route !== route && rule.route !== endpointName) return;
      if (rule.count !== undefined && (this.fired[i] ?? 0) >= rule.count) return;
      const draw = this.prng.next();
      if (draw >= rule.rate) return;
      if (rule.kind === "latency") {
        decision.latencyMs += rule.latencyMs ?? 0;
      } else if (decision.fault === undefined) {
        decision.fault = rule.kind;
      } else {
        return;
      }
      this.fired[i] = (this.fired[i] ?? 0) + 1;
    });
    if (this.config.rate > 0) {
      const draw = this.prng.next();
      const kinds = this.config.kinds ?? (method === "GET" ? READ_KINDS : WRITE_KINDS);
      const kind = kinds[this.prng.int(kinds.length)];
      if (draw < this.config.rate && decision.fault === undefined && kind !== undefined) {
        if (kind === "latency") decision.latencyMs += 100;
        else decision.fault = kind;
      }
    }
    return decision;
  }
}
