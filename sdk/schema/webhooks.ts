/** Webhooks (docs/api-notes.md, "Webhooks"). */
import { z } from "zod";
import { DateTime, Uuid } from "./common";
import { WebhookEventType } from "./enums";

/**
 * `TestWebhookRequest`: the body of `POST /webhooks/test`: where to send a test delivery (at most
 * 2083 characters) and which event kinds.
 */
export const TestWebhookRequest = z.object({
  /** The endpoint to deliver a test event to. */
  url: z
    .url({ message: "must be an absolute URL" })
    .max(2083, { message: "must be at most 2083 characters" }),
  /** Event kinds to include; default all. */
  events: z.array(WebhookEventType).optional(),
});
/** The body of a test-webhook request. */
export type TestWebhookRequest = z.input<typeof TestWebhookRequest>;

/**
 * `AuditLogRecord`: one entry of the organization's audit log, delivered by `audit_log` webhooks. The API
 * documentation hides its payload; only `id` and `created_at` are certain.
 */
export const AuditLogRecord = z.looseObject({
  id: Uuid,
  created_at: DateTime,
  action: z.string().optional(),
});
/** An audit-log record. */
export type AuditLogRecord = z.infer<typeof AuditLogRecord>;

/** A delivered webhook payload, a union on `event_type`. */
export const WebhookEvent = z.looseObject({
  webhook_id: Uuid,
  created_at: DateTime,
  event_id: Uuid,
  attempt: z.number().int().min(1),
  sent_at: DateTime,
  event_type: WebhookEventType.or(z.string()),
  event: z.looseObject({}),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;
