/** `client.transactions`: creating signed transactions. */
import type { CallOptions, RequestPipeline } from "../request-pipeline";
import type { CreateTransactionRequest, Transaction } from "../schema";

/** Options of `transactions.create`. */
export interface CreateTransactionOptions extends CallOptions {
  /**
   * The `x-idempotence-id` (a UUID). Generated when absent. Keep and reuse it to repeat a create safely: the
   * service answers a repeated id with the original transaction (docs/api-notes.md, "Idempotency").
   */
  idempotencyId?: string;
}

/** Transactions. */
export class Transactions {
  readonly #pipeline: RequestPipeline;
  constructor(pipeline: RequestPipeline) {
    this.#pipeline = pipeline;
  }

  /**
   * Creates a transaction: `POST /api/v1/transactions` → 201 (200 when the idempotency id was seen before).
   *
   * The request is signed with `apiUserPrivateKey` (`x-signature`, `x-timestamp` in ms). Retries carry the same
   * idempotency id and the same body bytes, with a fresh timestamp and signature.
   *
   * @throws {CustodyConfigurationError} (`ERR_CUSTODY_SIGNING_KEY_MISSING`) without `apiUserPrivateKey`.
   */
  create(body: CreateTransactionRequest, options: CreateTransactionOptions = {}): Promise<Transaction> {
    const { idempotencyId, ...call } = options;
    return this.#pipeline.request("createTransaction", {
      body,
      headers: idempotencyId === undefined ? undefined : { "x-idempotence-id": idempotencyId },
      ...call,
    });
  }
}
