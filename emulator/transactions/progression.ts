/**
 * Moves transactions through their states, in one of three modes (moto's state
 * manager is the model):
 * - `immediate` (default): a new transaction goes all the way to `completed` right after the create
 *   response is built; the response still shows `approved`, as the real service's does;
 * - `manual`: it stays `approved` until the control API advances it;
 * - `clock`: it takes one step every `stepMs` of emulator time; advancing the clock moves it.
 *
 * Every state change updates the record (signatures, hash, block), appends to `state_changes`, and is
 * reported to the store, which triggers the `enriched_transaction_state_update` webhooks.
 */
import { createHash } from "node:crypto";
import { PushableTransactionState } from "@pulumi-custody/sdk/schema";
import { formatTimestamp } from "../clock";
import { base58 } from "../crypto/encoding";
import type { Store } from "../state/store";
import type { TransactionRecord } from "../state/types";

/** How transactions move through their states: at once, only when told, or with the emulator clock. */
export type ProgressionMode = "immediate" | "manual" | "clock";

/** States after which nothing happens any more. */
const FINAL_STATES = new Set([
  "completed",
  "aborted",
  "completed_reverted",
  "error_signing",
  "dropped",
  "cancelled",
  "insufficient_funds",
  "error_pushing_to_blockchain",
]);

/** Every state a transaction may be moved to through the control API. */
export const MOVABLE_STATES: readonly string[] = [
  ...PushableTransactionState.options,
  "sent_to_provider",
  "error_submitting_to_provider",
];

/** How transactions progress (`GET`/`PUT /__emulator/transactions/progression`). */
export interface ProgressionSettings {
  /** `immediate` (default), `manual` or `clock`. */
  mode: ProgressionMode;
  /** Emulator time per step in `clock` mode, ms. */
  stepMs: number;
}

export class TransactionProgression {
  settings: ProgressionSettings = { mode: "immediate", stepMs: 10_000 };

  constructor(private readonly store: Store) {}

  isFinal(tx: TransactionRecord): boolean {
    return FINAL_STATES.has(tx.body.state) || tx.step >= tx.plan.length - 1;
  }

  /** Called once a new transaction is stored (and its create response built). */
  afterCreate(tx: TransactionRecord): void {
    if (this.settings.mode === "immediate") while (!this.isFinal(tx)) this.step(tx);
  }

  /** In `clock` mode, takes every step that is due at the current emulator time. */
  tick(): void {
    if (this.settings.mode !== "clock") return;
    const now = this.store.clock.now();
    for (const tx of this.store.transactions.values()) {
      while (!this.isFinal(tx) && now - tx.stepped_at_ms >= this.settings.stepMs) {
        this.step(tx, tx.stepped_at_ms + this.settings.stepMs);
      }
    }
  }

  /**
   * One step along the plan, or straight to `to`: through the intermediate states when `to` is further
   * along the plan, else directly (`aborted`, `mined_reverted`, …), which then becomes the final state.
   */
  advance(tx: TransactionRecord, to?: string): void {
    if (to === undefined) {
      this.step(tx);
      return;
    }
    const target = tx.plan.indexOf(to);
    if (target > tx.step) {
      while (tx.step < target) this.step(tx);
      return;
    }
    tx.plan = [...tx.plan.slice(0, tx.step + 1), to];
    this.step(tx);
  }

  private step(tx: TransactionRecord, atMs = this.store.clock.now()): void {
    const previous = tx.body.state;
    tx.step += 1;
    const next = tx.plan[tx.step]!;
    const at = formatTimestamp(atMs);
    const body = tx.body as Record<string, unknown> & TransactionRecord["body"];
    body.state = next;
    body.modified_at = at;
    (body.state_changes as unknown[]).push({ changed_at: at, previous_state: previous, new_state: next });
    const digest = createHash("sha256").update(`${tx.id}/${next}`).digest();
    if (next === "signed") {
      body.signatures = [{ data: digest.toString("base64") }];
    }
    if (next === "pushed_to_blockchain") {
      body.hash = tx.body.type.startsWith("solana")
        ? base58(Buffer.concat([digest, digest]))
        : `0x${digest.toString("hex")}`;
      const mtd = body.managed_transaction_data as Record<string, unknown> | undefined;
      if (mtd) mtd.last_pushed_at = at;
      const explorer = (
        body.chain as { blockchain_explorer?: { transaction_format_url?: string } } | undefined
      )?.blockchain_explorer?.transaction_format_url;
      if (explorer) body.explorer_url = `${explorer}${String(body.hash)}`;
    }
    if (next === "mined" || next === "mined_reverted") {
      body.block = {
        number: 20_000_000 + (digest.readUInt32BE(0) % 1_000_000),
        hash: `0x${createHash("sha256").update(digest).digest("hex")}`,
        mined_at: at,
      };
      body.mined_result_status = next === "mined" ? "success" : "missing";
    }
    tx.stepped_at_ms = atMs;
    this.store.transactionChanged(tx);
  }
}
