/**
 * The control API, outside `/api/v1`: reset and seed, proposals, faults, latency, rate limit, clock,
 * transaction progression, webhook endpoints and deliveries, the request log, state peeks and
 * persistence. It takes its own token (`x-emulator-control-token: <token>` or `Authorization: Bearer
 * <token>`), and is never faulted, delayed or rate-limited. Reference: `emulator/README.md`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { ApiError, notFound, unauthorized, validationFailed } from "../api-error";
import type { EmulatorContext } from "../context";
import { EXPORT_DOWNLOAD_ROUTE } from "../exports";
import { applyLargeSeed } from "../seed/large-seed";
import type { ProposalRecord } from "../state/types";
import { validate } from "../validation";
import {
  AdvanceTransactionBody,
  ClockAdvanceBody,
  ClockSetBody,
  CollectionParam,
  DeliveriesQuery,
  FaultsBody,
  IdParam,
  LargeSeedBody,
  LatencyBody,
  LimitQuery,
  ProgressionBody,
  ProposalsQuery,
  RateLimitBody,
  ResetBody,
  RotateTokenBody,
  TransactionsQuery,
  WebhookEndpointBody,
  WebhookEndpointPatch,
  WebhookSettingsBody,
} from "./schemas";

/** Where the control API lives, outside `/api/v1`. */
export const CONTROL_PREFIX = "/__emulator";

interface Inputs<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

type Schemas<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> = {
  body?: B;
  query?: Q;
  params?: P;
};

function parse<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType>(
  req: FastifyRequest,
  schemas: Schemas<B, Q, P>,
): Inputs<z.output<B>, z.output<Q>, z.output<P>> {
  const issues = [];
  const out = { body: undefined, query: {}, params: {} } as Inputs<z.output<B>, z.output<Q>, z.output<P>>;
  if (schemas.params) {
    const r = validate(schemas.params, req.params, "path");
    if (r.ok) out.params = r.value;
    else issues.push(...r.issues);
  }
  if (schemas.query) {
    const r = validate(schemas.query, req.query ?? {}, "query");
    if (r.ok) out.query = r.value;
    else issues.push(...r.issues);
  }
  if (schemas.body) {
    const r = validate(
      schemas.body,
      req.body ?? (schemas.body.safeParse(undefined).success ? undefined : {}),
      "body",
    );
    if (r.ok) out.body = r.value;
    else issues.push(...r.issues);
  }
  if (issues.length > 0) throw validationFailed(issues);
  return out;
}

function conflict(detail: string): ApiError {
  return new ApiError(409, { title: "Conflict", detail });
}

export function registerControlRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store, views } = ctx;

  // Without the control token: a readiness probe, and export downloads, which are signed, expiring links
  // like presigned URLs (emulator/exports.ts). Every link that does not open an export gets the same 404,
  // before any validation, so neither a malformed link nor another user's export is told apart.
  app.get(`${CONTROL_PREFIX}/health`, async () => ({ ok: true }));
  app.get(EXPORT_DOWNLOAD_ROUTE, async (req, reply) => {
    const { id } = req.params as { id: string };
    const csv = ctx.exports.open(id, req.query);
    if (csv === undefined) {
      throw new ApiError(404, {
        title: "Not found",
        detail:
          "No export at this link: the export is unknown, the signature does not match, or the link expired",
        resource: "export",
      });
    }
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="vault-balances-${id}.csv"`)
      .header("cache-control", "private, no-store")
      .send(csv);
  });

  app.register(
    async (scope) => {
      scope.addHook("onRequest", async (req) => {
        const header = req.headers["x-emulator-control-token"];
        const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
        const token = typeof header === "string" ? header : bearer;
        if (token !== store.credentials.controlToken) {
          throw unauthorized(
            token === undefined
              ? "The control API needs its token: send 'x-emulator-control-token: <controlToken>'"
              : "Invalid control token",
          );
        }
      });

      const ok = (reply: FastifyReply, body: unknown, status = 200) => reply.code(status).send(body);

      scope.get("/info", async () => ({
        organization_id: store.organizationId,
        api_user_id: store.apiUserId,
        viewer_user_id: store.viewerUserId,
        default_vault_group_id: store.defaultVaultGroupId,
        api_user_public_key_pem: store.credentials.apiUserPublicKeyPem,
        webhook_public_key_pem: store.credentials.webhookPublicKeyPem,
      }));

      // ---- state ------------------------------------------------------------------------------------------
      scope.post("/reset", async (req) => {
        const { body } = parse(req, { body: ResetBody });
        const seed = body?.seed ?? "default";
        ctx.reset(seed);
        return { seed, vaults: store.vaults.size, users: store.users.size };
      });
      scope.post("/seed/large", async (req) => {
        const { body } = parse(req, { body: LargeSeedBody });
        return applyLargeSeed(store, body);
      });
      scope.get("/state", async () => ({
        revision: store.revision,
        counts: {
          users: store.users.size,
          user_groups: store.userGroups.size,
          vault_groups: store.vaultGroups.size,
          vaults: store.vaults.size,
          addresses: store.addresses.size,
          proposals: store.proposals.size,
          transactions: store.transactions.size,
          audit_log: store.auditLog.size,
          webhook_endpoints: store.webhookEndpoints.size,
        },
      }));
      scope.get("/state/:collection", async (req) => {
        const { params } = parse(req, { params: CollectionParam });
        ctx.progression.tick();
        switch (params.collection) {
          case "vaults":
            return { items: [...store.vaults.values()].map((v) => views.vault(v)) };
          case "addresses":
            return { items: [...store.addresses.values()].map((a) => views.address(a)) };
          case "users":
            return { items: [...store.users.values()].map((u) => views.user(u)) };
          case "user-groups":
            return { items: [...store.userGroups.values()].map((g) => views.userGroup(g)) };
          case "vault-groups":
            return { items: [...store.vaultGroups.keys()].map((id) => views.vaultGroupRef(id)) };
          case "proposals":
            return { items: [...store.proposals.values()] };
          case "transactions":
            return { items: [...store.transactions.values()].map((t) => views.transaction(t)) };
          case "audit-log":
            return { items: [...store.auditLog.values()].map((r) => views.auditLogRecord(r)) };
          case "webhook-endpoints":
            return { items: [...store.webhookEndpoints.values()] };
        }
      });
      scope.post("/tokens/rotate", async (req) => {
        const { body } = parse(req, { body: RotateTokenBody });
        const which = body?.token ?? "access";
        return { token: which, accessToken: store.rotateToken(which) };
      });
      scope.post("/flush", async () => {
        await ctx.flush();
        return ctx.persistenceStatus();
      });
      scope.get("/persistence", async () => ctx.persistenceStatus());

      // ---- proposals --------------------------------------------------------------------------------------
      scope.get("/proposals", async (req) => {
        const { query } = parse(req, { query: ProposalsQuery });
        return {
          proposals: [...store.proposals.values()].filter(
            (p) =>
              (!query.state || p.state === query.state) && (!query.vault_id || p.vault_id === query.vault_id),
          ),
        };
      });
      const decide = (req: FastifyRequest, outcome: "approved" | "aborted"): ProposalRecord => {
        const { params } = parse(req, { params: IdParam });
        const proposal = store.proposals.get(params.id);
        if (!proposal)
          throw new ApiError(404, {
            title: "Not found",
            detail: `Proposal ${params.id} not found`,
            resource: "proposal",
          });
        if (proposal.state !== "pending")
          throw conflict(`Proposal ${proposal.id} is ${proposal.state}, not pending`);
        store.decideProposal(proposal, outcome);
        store.audit(`vault_change_proposal_${outcome}`, store.apiUserId, "vault", proposal.vault_id, {
          proposal_id: proposal.id,
        });
        return proposal;
      };
      scope.post("/proposals/:id/approve", async (req) => decide(req, "approved"));
      scope.post("/proposals/:id/abort", async (req) => decide(req, "aborted"));

      // ---- faults, latency, rate limit ------------------------------------------------------------------
      scope.get("/faults", async () => ctx.faults.snapshot());
      scope.put("/faults", async (req) => {
        const { body } = parse(req, { body: FaultsBody });
        ctx.faults.configure(body);
        return ctx.faults.snapshot();
      });
      scope.delete("/faults", async () => {
        ctx.faults.configure({});
        return ctx.faults.snapshot();
      });
      scope.put("/latency", async (req) => {
        const { body } = parse(req, { body: LatencyBody });
        ctx.faults.setLatency(body.ms);
        return { ms: body.ms };
      });
      scope.get("/rate-limit", async () => ({ limit: ctx.rateLimiter.limit }));
      scope.put("/rate-limit", async (req) => {
        const { body } = parse(req, { body: RateLimitBody });
        ctx.rateLimiter.limit = body.limit;
        ctx.rateLimiter.clear();
        return { limit: body.limit };
      });

      // ---- clock and transactions -------------------------------------------------------------------------
      scope.get("/clock", async () => ctx.clock.snapshot());
      scope.post("/clock/advance", async (req) => {
        const { body } = parse(req, { body: ClockAdvanceBody });
        ctx.clock.advance(body.ms);
        return ctx.clock.snapshot();
      });
      scope.put("/clock", async (req) => {
        const { body } = parse(req, { body: ClockSetBody });
        // Freeze before setting: setting a running clock and then freezing it would stop it a tick later.
        if (body.frozen === true) ctx.clock.freeze(true);
        if (body.now !== undefined)
          ctx.clock.set(typeof body.now === "number" ? body.now : Date.parse(body.now));
        if (body.frozen === false) ctx.clock.freeze(false);
        return ctx.clock.snapshot();
      });
      scope.post("/clock/reset", async () => {
        ctx.clock.reset();
        return ctx.clock.snapshot();
      });
      scope.get("/transactions/progression", async () => ctx.progression.settings);
      scope.put("/transactions/progression", async (req) => {
        const { body } = parse(req, { body: ProgressionBody });
        ctx.progression.settings = {
          mode: body.mode,
          stepMs: body.stepMs ?? ctx.progression.settings.stepMs,
        };
        if (body.mode === "clock") {
          // Steps are counted from now, not from each transaction's creation.
          const now = ctx.clock.now();
          for (const tx of store.transactions.values()) tx.stepped_at_ms = now;
        }
        return ctx.progression.settings;
      });
      scope.get("/transactions", async (req) => {
        const { query } = parse(req, { query: TransactionsQuery });
        ctx.progression.tick();
        return {
          transactions: [...store.transactions.values()]
            .filter(
              (t) =>
                (!query.vault_id || t.vault_id === query.vault_id) &&
                (!query.state || t.body.state === query.state),
            )
            .map((t) => views.transaction(t)),
        };
      });
      scope.get("/transactions/:id", async (req) => {
        const { params } = parse(req, { params: IdParam });
        ctx.progression.tick();
        const tx = store.transactions.get(params.id);
        if (!tx) throw notFound("transaction", params.id);
        return views.transaction(tx);
      });
      scope.post("/transactions/:id/advance", async (req) => {
        const { params, body } = parse(req, { params: IdParam, body: AdvanceTransactionBody });
        ctx.progression.tick();
        const tx = store.transactions.get(params.id);
        if (!tx) throw notFound("transaction", params.id);
        if (body?.to === undefined && ctx.progression.isFinal(tx)) {
          throw conflict(`Transaction ${tx.id} is already in its final state ${tx.body.state}`);
        }
        if (body?.to === tx.body.state) throw conflict(`Transaction ${tx.id} is already ${tx.body.state}`);
        ctx.progression.advance(tx, body?.to);
        return views.transaction(tx);
      });

      // ---- webhooks ---------------------------------------------------------------------------------------
      scope.get("/webhooks/endpoints", async () => ({ endpoints: [...store.webhookEndpoints.values()] }));
      scope.post("/webhooks/endpoints", async (req, reply) => {
        const { body } = parse(req, { body: WebhookEndpointBody });
        const endpoint = {
          id: store.nextId(),
          url: body.url,
          events: body.events ?? ["enriched_transaction_state_update" as const, "audit_log" as const],
          enabled: body.enabled ?? true,
          created_at: store.now(),
        };
        store.putWebhookEndpoint(endpoint);
        return ok(reply, endpoint, 201);
      });
      const requireEndpoint = (req: FastifyRequest) => {
        const { params } = parse(req, { params: IdParam });
        const endpoint = store.webhookEndpoints.get(params.id);
        if (!endpoint) {
          throw new ApiError(404, {
            title: "Not found",
            detail: `Webhook endpoint ${params.id} not found`,
            resource: "webhook",
          });
        }
        return endpoint;
      };
      scope.get("/webhooks/endpoints/:id", async (req) => requireEndpoint(req));
      scope.put("/webhooks/endpoints/:id", async (req) => {
        const endpoint = requireEndpoint(req);
        const { body } = parse(req, { body: WebhookEndpointPatch });
        const updated = {
          ...endpoint,
          ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
        };
        store.putWebhookEndpoint(updated);
        return updated;
      });
      scope.delete("/webhooks/endpoints/:id", async (req, reply) => {
        const endpoint = requireEndpoint(req);
        store.deleteWebhookEndpoint(endpoint.id);
        return reply.code(204).send();
      });
      scope.get("/webhooks/deliveries", async (req) => {
        const { query } = parse(req, { query: DeliveriesQuery });
        return {
          deliveries: ctx.webhooks.list({
            endpointId: query.endpoint_id,
            state: query.state,
            eventType: query.event_type,
          }),
        };
      });
      scope.delete("/webhooks/deliveries", async (_req, reply) => {
        ctx.webhooks.clear();
        return reply.code(204).send();
      });
      scope.get("/webhooks/settings", async () => ctx.webhooks.settings);
      scope.put("/webhooks/settings", async (req) => {
        const { body } = parse(req, { body: WebhookSettingsBody });
        ctx.webhooks.settings = {
          ...ctx.webhooks.settings,
          ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
        };
        return ctx.webhooks.settings;
      });

      // ---- request log ------------------------------------------------------------------------------------
      scope.get("/requests", async (req) => {
        const { query } = parse(req, { query: LimitQuery });
        return { requests: ctx.requestLog.list(query.limit) };
      });
      scope.delete("/requests", async (_req, reply) => {
        ctx.requestLog.clear();
        return reply.code(204).send();
      });
    },
    { prefix: CONTROL_PREFIX },
  );
}
