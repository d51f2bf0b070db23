/**
 * Everything a running emulator holds, passed to route handlers and the control API.
 */
import type { Clock } from "./clock";
import type { ExportStore } from "./exports";
import type { FaultInjector } from "./faults";
import type { FixedWindowRateLimiter } from "./rate-limiter";
import type { RequestLog } from "./request-log";
import type { Store } from "./state/store";
import type { Views } from "./state/views";
import type { TransactionProgression } from "./transactions/progression";
import type { WebhookDispatcher } from "./webhooks/dispatcher";
import type { WebhookTargetPolicy } from "./webhooks/targets";

export interface EmulatorContext {
  store: Store;
  views: Views;
  clock: Clock;
  faults: FaultInjector;
  rateLimiter: FixedWindowRateLimiter;
  requestLog: RequestLog;
  progression: TransactionProgression;
  webhooks: WebhookDispatcher;
  exports: ExportStore;
  /** Which addresses `POST /webhooks/test` may send to (webhooks/targets.ts): loopback, public or any. */
  webhookTargets: WebhookTargetPolicy;
  /** Replaces the state with a fresh seed (keeps credentials and webhook endpoints). */
  reset(seed: "default" | "empty"): void;
  /** Writes the state file now, if there is one; resolves when it is durable. */
  flush(): Promise<void>;
  /** Persistence status, for the control API. */
  persistenceStatus(): { stateFile?: string; lastWriteAt?: string; pendingWrite: boolean; writes: number };
}
