/**
 * Webhook endpoints (docs/api-notes.md, "Webhooks"). Configured endpoints live in the control
 * API. `/webhooks/test` delivers one signed test event to the given URL and reports a failure as a 400
 * with a `TestWebhookErrorType`; a target the emulator does not allow (by default anything but loopback:
 * webhooks/targets.ts) is a 422 at `body.url`, before any connection is attempted. The trigger endpoints resend to every configured
 * endpoint subscribed to the event type (none configured: nothing is sent, still 204).
 */
import { invalidField, notFound, preconditionFailed } from "../api-error";
import { checkWebhookTarget } from "../webhooks/targets";
import type { Handlers } from "./types";

export const webhookHandlers: Pick<
  Handlers,
  "testWebhook" | "triggerTransactionWebhook" | "triggerAuditLogWebhook"
> = {
  async testWebhook(ctx) {
    const { webhooks, store } = ctx.emulator;
    const url = new URL(ctx.body.url);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw invalidField(["body", "url"], "must be an http or https URL", "url_scheme");
    }
    // Checked before anything is sent (and before any connection is attempted): a refused target answers this
    // 422 whatever its port, so the answer tells nothing about what listens there.
    const policy = ctx.emulator.webhookTargets;
    const refused = await checkWebhookTarget(url, policy);
    if (refused) {
      throw invalidField(
        ["body", "url"],
        `must point to ${policy === "public" ? "a loopback or public" : "a loopback"} address: ${refused}. ` +
          "Loopback receivers (127.0.0.0/8, ::1, localhost) are allowed; start the emulator with " +
          (policy === "loopback"
            ? "--allow-public-webhook-targets (allowPublicWebhookTargets: true) to allow public addresses, or "
            : "") +
          "--allow-private-webhook-targets (allowPrivateWebhookTargets: true) to allow any address",
        "url_host_not_allowed",
      );
    }
    const eventType = ctx.body.events?.[0] ?? "enriched_transaction_state_update";
    const event =
      eventType === "audit_log"
        ? {
            id: store.nextId(),
            created_at: store.now(),
            action: "webhook_test",
            user: ctx.emulator.views.userRef(ctx.principal.userId),
          }
        : {
            id: store.nextId(),
            created_at: store.now(),
            modified_at: store.now(),
            type: "evm_transaction",
            state: "completed",
            direction: "outgoing",
            organization_id: store.organizationId,
            note: "Test webhook event",
            signatures: [],
            interacted_vaults: [],
            state_changes: [],
          };
    const result = await webhooks.sendTest(ctx.body.url, eventType, event, { policy });
    if (!result.ok) {
      throw preconditionFailed(
        "Webhook test failed",
        `Delivery to ${ctx.body.url} failed: ${result.error}`,
        result.errorType,
      );
    }
    return { status: 204 };
  },

  triggerTransactionWebhook(ctx) {
    const { store, views, webhooks, progression } = ctx.emulator;
    const tx = store.transactions.get(ctx.params.id);
    if (!tx) throw notFound("transaction", ctx.params.id);
    progression.tick();
    webhooks.emit("enriched_transaction_state_update", views.transactionAsCreated(tx));
    webhooks.emit("enriched_transaction_state_update", views.transaction(tx));
    return { status: 204 };
  },

  triggerAuditLogWebhook(ctx) {
    const { store, views, webhooks } = ctx.emulator;
    const record = store.auditLog.get(ctx.params.id);
    if (!record) throw notFound("audit_log", ctx.params.id);
    webhooks.emit("audit_log", views.auditLogRecord(record));
    return { status: 204 };
  },
};
