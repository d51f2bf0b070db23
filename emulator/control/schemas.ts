/** Request bodies and queries of the control API (`/__emulator/...`). */

import { queryInt, Uuid, WebhookEventType } from "@pulumi-custody/sdk/schema";
import { z } from "zod";
import { FAULT_KINDS } from "../faults";
import { LARGE_SEED_LIMITS } from "../seed/large-seed";
import { MOVABLE_STATES } from "../transactions/progression";

export const RotateTokenBody = z.object({ token: z.enum(["access", "viewer"]).optional() }).optional();
export const ResetBody = z.object({ seed: z.enum(["default", "empty"]).optional() }).optional();

export const LargeSeedBody = z.object({
  users: z.number().int().min(0).max(LARGE_SEED_LIMITS.users).optional(),
  vaults: z.number().int().min(0).max(LARGE_SEED_LIMITS.vaults).optional(),
});

const Rate = z.number().min(0, { message: "must be >= 0" }).max(1, { message: "must be <= 1" });
const FaultKind = z.enum(FAULT_KINDS);

export const FaultRuleBody = z.object({
  kind: FaultKind,
  rate: Rate,
  method: z.enum(["GET", "POST", "PUT"]).optional(),
  route: z.string().min(1).optional(),
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  count: z.number().int().min(1).optional(),
});

export const FaultsBody = z.object({
  seed: z.union([z.string(), z.number()]).optional(),
  rate: Rate.optional(),
  kinds: z.array(FaultKind).min(1).optional(),
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  rules: z.array(FaultRuleBody).optional(),
});

export const LatencyBody = z.object({ ms: z.number().int().min(0).max(600_000) });
export const RateLimitBody = z.object({ limit: z.number().int().min(0) });

export const ClockAdvanceBody = z.object({ ms: z.number().int() });
export const ClockSetBody = z.object({
  /** ISO-8601 time or epoch milliseconds. */
  now: z.union([z.iso.datetime({ offset: true }), z.number().int()]).optional(),
  frozen: z.boolean().optional(),
});

export const ProgressionBody = z.object({
  mode: z.enum(["immediate", "manual", "clock"]),
  stepMs: z.number().int().min(1).optional(),
});
export const AdvanceTransactionBody = z
  .object({ to: z.enum(MOVABLE_STATES as [string, ...string[]]).optional() })
  .optional();

export const WebhookEndpointBody = z.object({
  url: z.url({ protocol: /^https?$/, message: "must be an http or https URL" }),
  events: z.array(WebhookEventType).min(1).optional(),
  enabled: z.boolean().optional(),
});
export const WebhookEndpointPatch = WebhookEndpointBody.partial();
export const WebhookSettingsBody = z.object({
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
  maxAttempts: z.number().int().min(1).max(100).optional(),
  baseDelayMs: z.number().int().min(0).max(3_600_000).optional(),
  maxDelayMs: z.number().int().min(0).max(86_400_000).optional(),
});

export const IdParam = z.object({ id: Uuid });
export const LimitQuery = z.object({ limit: queryInt(1) });
export const ProposalsQuery = z.object({
  state: z.enum(["pending", "approved", "aborted", "superseded"]).optional(),
  vault_id: Uuid.optional(),
});
export const TransactionsQuery = z.object({ vault_id: Uuid.optional(), state: z.string().optional() });
export const DeliveriesQuery = z.object({
  endpoint_id: Uuid.optional(),
  state: z.enum(["pending", "retrying", "succeeded", "failed"]).optional(),
  event_type: WebhookEventType.optional(),
});

export const STATE_COLLECTIONS = [
  "vaults",
  "addresses",
  "users",
  "user-groups",
  "vault-groups",
  "proposals",
  "transactions",
  "audit-log",
  "webhook-endpoints",
] as const;
export const CollectionParam = z.object({ collection: z.enum(STATE_COLLECTIONS) });
/** A collection `GET /__emulator/state/{collection}` can read. */
export type StateCollection = (typeof STATE_COLLECTIONS)[number];
