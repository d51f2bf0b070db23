/**
 * Delivers webhook events to the endpoints configured through the control API, and records every
 * delivery for inspection (`GET /__emulator/webhooks/deliveries`).
 *
 * Events: a transaction's creation and each of its state changes (`enriched_transaction_state_update`,
 * the full transaction as the event), and each audit-log record (`audit_log`). A failed attempt is retried
 * with exponential backoff (`baseDelayMs * 2^(n-1)`, capped at `maxDelayMs`, no jitter so runs repeat) up to
 * `maxAttempts`; the payload's `attempt` counts up and each attempt is signed anew.
 */
import { randomUUID } from "node:crypto";
import type { TestWebhookErrorType, WebhookEventType } from "@pulumi-custody/sdk/schema";
import { Agent } from "undici";
import type { StoreEvent } from "../state/store";
import type { WebhookEndpointRecord } from "../state/types";
import { type AttemptResult, deliverOnce, type WebhookSigner } from "./deliver";
import { guardedLookup, type WebhookTargetPolicy } from "./targets";

/** An agent whose connections resolve host names through {@link guardedLookup} with `policy`. */
function guardedAgent(policy: WebhookTargetPolicy): Agent {
  return new Agent({
    keepAliveTimeout: 1_000,
    connections: 4,
    connect: { lookup: guardedLookup(undefined, policy) },
  });
}

/** Timeout, attempts and backoff of webhook deliveries; the retry delay doubles from `baseDelayMs`. */
export interface WebhookSettings {
  /** Time to wait for an endpoint's answer, ms. */
  timeoutMs: number;
  /** Attempts per delivery, first one included. */
  maxAttempts: number;
  /** Delay before the first retry, ms. */
  baseDelayMs: number;
  /** Largest delay between attempts, ms. */
  maxDelayMs: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  timeoutMs: 5_000,
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
};

/** Deliveries kept for inspection; the oldest finished ones are dropped first. */
export const DELIVERY_LOG_LIMIT = 1_000;

/** One attempt of a delivery. */
export interface DeliveryAttempt {
  /** 1 for the first attempt; the payload's `attempt`. */
  attempt: number;
  /** Emulator time it was sent, ISO-8601; the payload's `sent_at`. */
  sent_at: string;
  /** HTTP status of the endpoint's answer; absent when there was none. */
  status?: number;
  /** Why the attempt failed, when it did. */
  error_type?: TestWebhookErrorType;
  /** What went wrong, in words. */
  error?: string;
  /** Time to the answer or the failure, ms. */
  duration_ms: number;
  /** The `X-Signature` sent with this attempt. */
  signature: string;
}

/** One webhook event on its way to one endpoint, with every attempt so far. */
export interface DeliveryRecord {
  /** Delivery id (not sent to the endpoint). */
  id: string;
  /** `event` for configured endpoints, `test` for `POST /webhooks/test`. */
  kind: "event" | "test";
  /** The configured endpoint; absent for test deliveries. */
  endpoint_id?: string;
  /** Where the delivery is POSTed. */
  url: string;
  /** Event type of the payload. */
  event_type: WebhookEventType;
  /** The payload's `event_id`, the same on every attempt. */
  event_id: string;
  /** `pending` before the first answer, `retrying` between attempts, then `succeeded` or `failed`. */
  state: "pending" | "retrying" | "succeeded" | "failed";
  /** Emulator time the event happened, ISO-8601; the payload's `created_at`. */
  created_at: string;
  /** Wall-clock time (ISO-8601) of the next attempt while `retrying`. */
  next_attempt_at?: string;
  /** Attempts so far, oldest first. */
  attempts: DeliveryAttempt[];
  /** The body of the latest attempt, parsed. */
  payload?: Record<string, unknown>;
}

interface PendingEvent {
  webhookId: string;
  createdAt: string;
  event: unknown;
}

export class WebhookDispatcher {
  settings: WebhookSettings = { ...DEFAULT_WEBHOOK_SETTINGS };
  private deliveries: DeliveryRecord[] = [];
  private readonly events = new Map<string, PendingEvent>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly abort = new AbortController();
  private readonly agent = new Agent({ keepAliveTimeout: 1_000, connections: 16 });
  /**
   * For test deliveries, by the policy of their targets: its connections refuse a host name that resolves to an
   * address the policy does not allow (webhooks/targets.ts); none shares a kept-alive connection with `agent`.
   */
  private readonly guardedAgents: Record<Exclude<WebhookTargetPolicy, "any">, Agent> = {
    loopback: guardedAgent("loopback"),
    public: guardedAgent("public"),
  };
  private closed = false;

  constructor(
    private readonly signer: WebhookSigner,
    private readonly endpoints: () => Iterable<WebhookEndpointRecord>,
    private readonly render: {
      transaction: (record: Extract<StoreEvent, { kind: "transaction" }>["record"]) => unknown;
      auditLog: (record: Extract<StoreEvent, { kind: "audit" }>["record"]) => unknown;
    },
    private readonly now: () => string,
  ) {}

  /** Reacts to store events: transaction creations and changes, audit-log records. */
  handleStoreEvent(event: StoreEvent): void {
    if (event.kind === "transaction") {
      this.emit("enriched_transaction_state_update", this.render.transaction(event.record));
    } else if (event.kind === "audit") {
      this.emit("audit_log", this.render.auditLog(event.record));
    }
  }

  /** Queues `event` for every enabled endpoint subscribed to `eventType`; returns the deliveries. */
  emit(
    eventType: WebhookEventType,
    event: unknown,
    only?: (e: WebhookEndpointRecord) => boolean,
  ): DeliveryRecord[] {
    if (this.closed) return [];
    const out: DeliveryRecord[] = [];
    for (const endpoint of this.endpoints()) {
      if (!endpoint.enabled || !endpoint.events.includes(eventType) || (only && !only(endpoint))) continue;
      const delivery = this.record({
        id: randomUUID(),
        kind: "event",
        endpoint_id: endpoint.id,
        url: endpoint.url,
        event_type: eventType,
        event_id: randomUUID(),
        state: "pending",
        created_at: this.now(),
        attempts: [],
      });
      this.events.set(delivery.id, { webhookId: endpoint.id, createdAt: delivery.created_at, event });
      out.push(delivery);
      void this.attempt(delivery);
    }
    return out;
  }

  /**
   * Delivers one signed test event to `url` and waits for the outcome (`POST /webhooks/test`); the connection
   * refuses a host name that resolves to an address `policy` does not allow.
   */
  async sendTest(
    url: string,
    eventType: WebhookEventType,
    event: unknown,
    { policy }: { policy: WebhookTargetPolicy },
  ): Promise<AttemptResult> {
    const delivery = this.record({
      id: randomUUID(),
      kind: "test",
      url,
      event_type: eventType,
      event_id: randomUUID(),
      state: "pending",
      created_at: this.now(),
      attempts: [],
    });
    this.events.set(delivery.id, { webhookId: randomUUID(), createdAt: delivery.created_at, event });
    return this.attempt(delivery, false, policy === "any" ? this.agent : this.guardedAgents[policy]);
  }

  /** Deliveries, oldest first, optionally filtered. */
  list(filter: { endpointId?: string; state?: string; eventType?: string } = {}): DeliveryRecord[] {
    return this.deliveries.filter(
      (d) =>
        (!filter.endpointId || d.endpoint_id === filter.endpointId) &&
        (!filter.state || d.state === filter.state) &&
        (!filter.eventType || d.event_type === filter.eventType),
    );
  }

  /** Forgets recorded deliveries and cancels pending retries. */
  clear(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.deliveries = [];
    this.events.clear();
  }

  /** Stops retries and aborts attempts in flight. */
  async close(): Promise<void> {
    this.closed = true;
    this.clear();
    this.abort.abort();
    await Promise.all([
      this.agent.destroy().catch(() => undefined),
      ...Object.values(this.guardedAgents).map((agent) => agent.destroy().catch(() => undefined)),
    ]);
  }

  private record(delivery: DeliveryRecord): DeliveryRecord {
    this.deliveries.push(delivery);
    if (this.deliveries.length > DELIVERY_LOG_LIMIT) {
      const i = this.deliveries.findIndex((d) => d.state === "succeeded" || d.state === "failed");
      const [dropped] = this.deliveries.splice(Math.max(i, 0), 1);
      if (dropped) this.events.delete(dropped.id);
    }
    return delivery;
  }

  private async attempt(
    delivery: DeliveryRecord,
    retry = true,
    dispatcher: Agent = this.agent,
  ): Promise<AttemptResult> {
    const pending = this.events.get(delivery.id);
    const attempt = delivery.attempts.length + 1;
    const sentAt = this.now();
    const payload = {
      webhook_id: pending?.webhookId ?? delivery.endpoint_id,
      created_at: pending?.createdAt ?? delivery.created_at,
      event_id: delivery.event_id,
      attempt,
      sent_at: sentAt,
      event_type: delivery.event_type,
      event: pending?.event ?? {},
    };
    const body = JSON.stringify(payload);
    const signature = this.signer.sign(body);
    delivery.payload = payload;
    delivery.next_attempt_at = undefined;
    const result = await deliverOnce(delivery.url, body, signature, {
      timeoutMs: this.settings.timeoutMs,
      dispatcher,
      signal: this.abort.signal,
    });
    delivery.attempts.push({
      attempt,
      sent_at: sentAt,
      ...(result.status !== undefined ? { status: result.status } : {}),
      ...(result.errorType ? { error_type: result.errorType, error: result.error } : {}),
      duration_ms: result.durationMs,
      signature,
    });
    if (result.ok) {
      delivery.state = "succeeded";
    } else if (!retry || attempt >= this.settings.maxAttempts || this.closed) {
      delivery.state = "failed";
    } else {
      delivery.state = "retrying";
      const delay = Math.min(this.settings.baseDelayMs * 2 ** (attempt - 1), this.settings.maxDelayMs);
      delivery.next_attempt_at = new Date(Date.now() + delay).toISOString();
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.attempt(delivery);
      }, delay);
      this.timers.add(timer);
    }
    if (delivery.state === "succeeded" || delivery.state === "failed") this.events.delete(delivery.id);
    return result;
  }
}
