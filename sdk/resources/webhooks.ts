/** `client.webhooks`: manual webhook deliveries. */
import type { CallOptions, RequestPipeline } from "../request-pipeline";
import type { TestWebhookRequest } from "../schema";

/** Webhook triggers. */
export class Webhooks {
  readonly #pipeline: RequestPipeline;
  constructor(pipeline: RequestPipeline) {
    this.#pipeline = pipeline;
  }

  /** Sends a test delivery to `body.url`: `POST /api/v1/webhooks/test` → 204. */
  test(body: TestWebhookRequest, options: CallOptions = {}): Promise<void> {
    return this.#pipeline.request("testWebhook", { body, ...options });
  }

  /** Resends a transaction's create and latest-state events: `POST /api/v1/webhooks/trigger/transaction/{id}`. */
  triggerTransaction(transactionId: string, options: CallOptions = {}): Promise<void> {
    return this.#pipeline.request("triggerTransactionWebhook", {
      pathParams: { id: transactionId },
      ...options,
    });
  }

  /** Redelivers one audit-log record: `POST /api/v1/webhooks/trigger/audit-log/{id}` → 204. */
  triggerAuditLog(auditLogId: string, options: CallOptions = {}): Promise<void> {
    return this.#pipeline.request("triggerAuditLogWebhook", { pathParams: { id: auditLogId }, ...options });
  }
}
