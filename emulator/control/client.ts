/**
 * A typed client of the emulator's control API (`/__emulator/...`), one method per call. It works against
 * an in-process emulator (`startEmulator().control`) and an out-of-process one (the `custody-emulator`
 * CLI prints `baseUrl` and `controlToken`):
 *
 * ```ts
 * const control = new EmulatorControlClient({ baseUrl, controlToken });
 * await control.reset("empty");
 * await control.setFaults({ seed: 1, rules: [{ kind: "after_commit_500", rate: 1, route: "createVault", count: 1 }] });
 * ```
 *
 * A non-2xx answer rejects with {@link EmulatorControlError}.
 */
import { type Dispatcher, request } from "undici";
import type { ClockSnapshot } from "../clock";
import type { FaultConfig, FaultKind, FaultRule } from "../faults";
import type { RequestLogEntry } from "../request-log";
import type { PersistenceStatus } from "../state/persistence";
import type { ProposalRecord, WebhookEndpointRecord } from "../state/types";
import type { ProgressionMode, ProgressionSettings } from "../transactions/progression";
import type { DeliveryRecord, WebhookSettings } from "../webhooks/dispatcher";
import type { StateCollection } from "./schemas";

export type {
  ClockSnapshot,
  DeliveryRecord,
  FaultConfig,
  FaultKind,
  FaultRule,
  PersistenceStatus,
  ProgressionMode,
  ProgressionSettings,
  ProposalRecord,
  RequestLogEntry,
  StateCollection,
  WebhookEndpointRecord,
  WebhookSettings,
};

/** Where the control API is and its token. */
export interface EmulatorControlClientOptions {
  /** The emulator's base URL, e.g. `http://127.0.0.1:8787`. */
  baseUrl: string;
  /** The control token printed by the CLI or returned by `startEmulator()`. */
  controlToken: string;
  /** An undici dispatcher (agent, mock); default: undici's global dispatcher. */
  dispatcher?: Dispatcher;
}

/** A control call answered with a non-2xx status. */
export class EmulatorControlError extends Error {
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The parsed error body (`{title, detail, request_id}`), or the raw text. */
    readonly body: unknown,
    method: string,
    path: string,
  ) {
    const detail = (body as { detail?: unknown })?.detail;
    super(
      `${method} ${path} failed with HTTP ${status}: ${typeof detail === "string" ? detail : JSON.stringify(body)}`,
    );
    this.name = "EmulatorControlError";
  }
}

/** Record counts of the state. */
export interface StateSummary {
  /** Goes up by one with every change to the state; equal revisions mean nothing changed in between. */
  revision: number;
  /** Records per collection (`users`, `vaults`, `transactions`, …), archived and deleted ones included. */
  counts: Record<string, number>;
}

/** Identity of the emulated organization. */
export interface EmulatorInfo {
  /** Id of the emulated organization. */
  organization_id: string;
  /** Id of the API user whose token is `accessToken` (role `trader`). */
  api_user_id: string;
  /** Id of the API user whose token is `viewerAccessToken` (role `viewer`). */
  viewer_user_id: string;
  /** Id of the "Default" vault group, where vaults go when `vault_group_id` is not given. */
  default_vault_group_id: string;
  /** SPKI PEM of the API user's P-256 key, which `POST /transactions` signatures are verified with. */
  api_user_public_key_pem: string;
  /** SPKI PEM of the P-256 key that verifies the `X-Signature` of webhook deliveries. */
  webhook_public_key_pem: string;
}

type Json = Record<string, unknown>;

/**
 * A typed client of the emulator's control API (`/__emulator/...`): state, proposals, faults, clock,
 * transactions, webhooks and the request log. Every call sends the control token; a non-2xx answer rejects
 * with {@link EmulatorControlError}.
 */
export class EmulatorControlClient {
  private readonly baseUrl: string;

  constructor(private readonly options: EmulatorControlClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
  }

  private async call<T>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<T> {
    const res = await request(`${this.baseUrl}/__emulator${path}`, {
      method,
      headers: {
        "x-emulator-control-token": this.options.controlToken,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}),
    });
    const text = await res.body.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Keep the text: it is what the server said.
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      throw new EmulatorControlError(res.statusCode, parsed, method, `/__emulator${path}`);
    }
    return parsed as T;
  }

  private static query(params: Record<string, string | number | undefined>): string {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
    const s = q.toString();
    return s ? `?${s}` : "";
  }

  // ---- state ----------------------------------------------------------------------------------------------

  /** Resolves when the emulator answers (no token needed). */
  health(): Promise<{ ok: true }> {
    return this.call("GET", "/health");
  }

  /** The organization, API user ids and public keys. */
  info(): Promise<EmulatorInfo> {
    return this.call("GET", "/info");
  }

  /**
   * Replaces all data with a fresh seed (`default`: the full seeded organization; `empty`: only the API
   * users and the "Default" vault group). Webhook endpoints, deliveries, exports and the request log are
   * cleared too; credentials, faults, clock and progression settings are kept.
   */
  reset(seed: "default" | "empty" = "default"): Promise<{ seed: string; vaults: number; users: number }> {
    return this.call("POST", "/reset", { seed });
  }

  /** Adds generated users and vaults (e.g. `{ users: 10_000, vaults: 5_000 }`); returns how many were added. */
  seedLargeDataSet(counts: { users?: number; vaults?: number }): Promise<{ users: number; vaults: number }> {
    return this.call("POST", "/seed/large", counts);
  }

  /** Record counts and the store revision. */
  stateSummary(): Promise<StateSummary> {
    return this.call("GET", "/state");
  }

  /**
   * Every record of a collection, as the API renders it, with nothing filtered out (archived vaults,
   * deleted users and non-pending proposals included).
   */
  async peek<T = Json>(collection: StateCollection): Promise<T[]> {
    return (await this.call<{ items: T[] }>("GET", `/state/${collection}`)).items;
  }

  /** Every vault, archived ones included (shorthand for `peek("vaults")`). */
  listAllVaults<T = Json>(): Promise<T[]> {
    return this.peek<T>("vaults");
  }

  /**
   * Rotates a bearer token: the API user's (`access`, the default) or the read-only viewer's. The old token
   * is refused (401) from now on. Resolves with the new one.
   */
  async rotateToken(token: "access" | "viewer" = "access"): Promise<string> {
    return (await this.call<{ accessToken: string }>("POST", "/tokens/rotate", { token })).accessToken;
  }

  /** Writes the state file now and resolves once it is durable. */
  flush(): Promise<PersistenceStatus> {
    return this.call("POST", "/flush");
  }

  /** State-file status: path, writes done, whether a write is pending. */
  persistence(): Promise<PersistenceStatus> {
    return this.call("GET", "/persistence");
  }

  // ---- proposals ------------------------------------------------------------------------------------------

  /** Vault change proposals, optionally by state or vault. */
  async listProposals(
    filter: { state?: ProposalRecord["state"]; vaultId?: string } = {},
  ): Promise<ProposalRecord[]> {
    const q = EmulatorControlClient.query({ state: filter.state, vault_id: filter.vaultId });
    return (await this.call<{ proposals: ProposalRecord[] }>("GET", `/proposals${q}`)).proposals;
  }

  /** Approves a pending proposal: its vault-group diff is applied. 409 when it is not pending. */
  approveProposal(id: string): Promise<ProposalRecord> {
    return this.call("POST", `/proposals/${id}/approve`);
  }

  /** Aborts a pending proposal: nothing changes on the vault. 409 when it is not pending. */
  abortProposal(id: string): Promise<ProposalRecord> {
    return this.call("POST", `/proposals/${id}/abort`);
  }

  // ---- faults, latency, rate limit ------------------------------------------------------------------------

  /** The fault configuration and how often each rule fired. */
  getFaults(): Promise<FaultConfig & { fired: number[] }> {
    return this.call("GET", "/faults");
  }

  /** Replaces the fault configuration (omitted fields reset to none) and restarts the seeded sequence. */
  setFaults(config: Partial<FaultConfig>): Promise<FaultConfig & { fired: number[] }> {
    return this.call("PUT", "/faults", config);
  }

  /** Removes every fault and the fixed latency. */
  clearFaults(): Promise<FaultConfig & { fired: number[] }> {
    return this.call("DELETE", "/faults");
  }

  /** Sets the latency added to every `/api/v1` response, ms. */
  setLatency(ms: number): Promise<{ ms: number }> {
    return this.call("PUT", "/latency", { ms });
  }

  /** The requests-per-60-s limit per token (0 = unlimited). */
  getRateLimit(): Promise<{ limit: number }> {
    return this.call("GET", "/rate-limit");
  }

  /** Sets the requests-per-60-s limit per token (0 = unlimited) and starts new windows. */
  setRateLimit(limit: number): Promise<{ limit: number }> {
    return this.call("PUT", "/rate-limit", { limit });
  }

  // ---- clock and transactions -----------------------------------------------------------------------------

  /** The emulator clock. */
  getClock(): Promise<ClockSnapshot> {
    return this.call("GET", "/clock");
  }

  /** Moves the clock by `ms` (negative goes back); due transaction steps happen at once. */
  advanceClock(ms: number): Promise<ClockSnapshot> {
    return this.call("POST", "/clock/advance", { ms });
  }

  /** Sets the clock (`now`: ISO-8601 or epoch ms) and/or freezes it. */
  setClock(settings: { now?: string | number; frozen?: boolean }): Promise<ClockSnapshot> {
    return this.call("PUT", "/clock", settings);
  }

  /** Back to wall-clock time, ticking. */
  resetClock(): Promise<ClockSnapshot> {
    return this.call("POST", "/clock/reset");
  }

  /** How transactions progress. */
  getProgression(): Promise<ProgressionSettings> {
    return this.call("GET", "/transactions/progression");
  }

  /** `immediate`, `manual`, or `clock` (one step per `stepMs` of emulator time). */
  setProgression(mode: ProgressionMode, stepMs?: number): Promise<ProgressionSettings> {
    return this.call("PUT", "/transactions/progression", {
      mode,
      ...(stepMs !== undefined ? { stepMs } : {}),
    });
  }

  /** Transactions as the API renders them, optionally by vault or current state. */
  async listTransactions<T = Json>(filter: { vaultId?: string; state?: string } = {}): Promise<T[]> {
    const q = EmulatorControlClient.query({ vault_id: filter.vaultId, state: filter.state });
    return (await this.call<{ transactions: T[] }>("GET", `/transactions${q}`)).transactions;
  }

  /** One transaction in its current state. */
  getTransaction<T = Json>(id: string): Promise<T> {
    return this.call("GET", `/transactions/${id}`);
  }

  /**
   * Moves a transaction one step along `approved → signed → pushed_to_blockchain → mined → completed`,
   * or to the state `to` (through the intermediate states when `to` is further along; directly otherwise,
   * e.g. `aborted`). 409 when it is already final.
   */
  advanceTransaction<T = Json>(id: string, to?: string): Promise<T> {
    return this.call("POST", `/transactions/${id}/advance`, to !== undefined ? { to } : {});
  }

  // ---- webhooks ---------------------------------------------------------------------------------------------

  /** Configured webhook endpoints. */
  async listWebhookEndpoints(): Promise<WebhookEndpointRecord[]> {
    return (await this.call<{ endpoints: WebhookEndpointRecord[] }>("GET", "/webhooks/endpoints")).endpoints;
  }

  /** Adds an endpoint; `events` defaults to both event types. */
  createWebhookEndpoint(endpoint: {
    url: string;
    events?: WebhookEndpointRecord["events"];
    enabled?: boolean;
  }): Promise<WebhookEndpointRecord> {
    return this.call("POST", "/webhooks/endpoints", endpoint);
  }

  /** One webhook endpoint; 404 when there is none with this id. */
  getWebhookEndpoint(id: string): Promise<WebhookEndpointRecord> {
    return this.call("GET", `/webhooks/endpoints/${id}`);
  }

  /** Changes an endpoint's url, events or enabled flag. */
  updateWebhookEndpoint(
    id: string,
    patch: Partial<Pick<WebhookEndpointRecord, "url" | "events" | "enabled">>,
  ): Promise<WebhookEndpointRecord> {
    return this.call("PUT", `/webhooks/endpoints/${id}`, patch);
  }

  /** Removes a webhook endpoint: later events skip it. 404 when there is none with this id. */
  deleteWebhookEndpoint(id: string): Promise<void> {
    return this.call("DELETE", `/webhooks/endpoints/${id}`);
  }

  /** Recorded deliveries (newest last), with every attempt, status and signature. */
  async listDeliveries(
    filter: {
      endpointId?: string;
      state?: DeliveryRecord["state"];
      eventType?: DeliveryRecord["event_type"];
    } = {},
  ): Promise<DeliveryRecord[]> {
    const q = EmulatorControlClient.query({
      endpoint_id: filter.endpointId,
      state: filter.state,
      event_type: filter.eventType,
    });
    return (await this.call<{ deliveries: DeliveryRecord[] }>("GET", `/webhooks/deliveries${q}`)).deliveries;
  }

  /** Forgets recorded deliveries and cancels pending retries. */
  clearDeliveries(): Promise<void> {
    return this.call("DELETE", "/webhooks/deliveries");
  }

  /** Timeout, attempts and backoff of deliveries. */
  getWebhookSettings(): Promise<WebhookSettings> {
    return this.call("GET", "/webhooks/settings");
  }

  /** Changes the timeout, attempts or backoff of deliveries; omitted fields keep their value. */
  setWebhookSettings(settings: Partial<WebhookSettings>): Promise<WebhookSettings> {
    return this.call("PUT", "/webhooks/settings", settings);
  }

  // ---- request log ----------------------------------------------------------------------------------------

  /** The newest `limit` API requests (oldest first): method, path, status, request id, fault. */
  async listRequests(limit?: number): Promise<RequestLogEntry[]> {
    const q = EmulatorControlClient.query({ limit });
    return (await this.call<{ requests: RequestLogEntry[] }>("GET", `/requests${q}`)).requests;
  }

  /** Empties the request log. */
  clearRequests(): Promise<void> {
    return this.call("DELETE", "/requests");
  }
}
