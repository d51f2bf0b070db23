/**
 * `POST /transactions` (docs/api-notes.md, "Transactions"). The signature has been verified by the server
 * before this handler runs. Idempotency (docs/api-notes.md, "Idempotency"): `x-idempotence-id` must be a
 * UUID; a repeat returns 200 and the original transaction in its *current* state, even when the repeated
 * body differs.
 * Only successful creates are remembered, so a failed request can be retried with the same id.
 */
import { Uuid } from "@pulumi-custody/sdk/schema";
import { invalidField, preconditionFailed } from "../api-error";
import { buildTransaction, vaultTypeFor } from "../transactions/build-transaction";
import type { Handlers } from "./types";

export const transactionHandlers: Pick<Handlers, "createTransaction"> = {
  createTransaction(ctx) {
    const { store, views, progression } = ctx.emulator;
    const header = ctx.request.headers["x-idempotence-id"];
    if (header !== undefined && (typeof header !== "string" || !Uuid.safeParse(header).success)) {
      throw invalidField(["header", "x-idempotence-id"], "must be a UUID", "uuid_parsing");
    }
    const idempotenceId = header as string | undefined;
    if (idempotenceId) {
      const existing = store.transactionByIdempotenceId(idempotenceId);
      if (existing) {
        progression.tick();
        return { status: 200, body: views.transaction(existing) };
      }
    }
    const body = ctx.body as Record<string, unknown> & { vault_id: string; type: string };
    const vault = store.vaults.get(body.vault_id);
    if (!vault) {
      throw preconditionFailed("Vault not found", `Vault ${body.vault_id} not found`, "vault_not_found");
    }
    if (vault.state !== "active") {
      throw preconditionFailed("Vault not found", `Vault ${vault.id} is ${vault.state}`, "vault_not_found");
    }
    const needed = vaultTypeFor(body.type);
    const safeEvm = vault.type === "safe" && needed === "evm";
    if (needed !== vault.type && !safeEvm) {
      throw preconditionFailed(
        "Vault type mismatch",
        `A ${body.type} needs a ${needed} vault; vault ${vault.id} is ${vault.type}`,
        "vault_type_mismatch",
      );
    }
    const tx = buildTransaction(store, views, {
      vault,
      body,
      userId: ctx.principal.userId,
      idempotenceId,
      nowMs: store.clock.now(),
    });
    store.insertTransaction(tx);
    store.audit("transaction_created", ctx.principal.userId, "transaction", tx.id, { type: tx.body.type });
    // The response shows the transaction as created; in `immediate` mode it then moves on at once.
    const created = views.transaction(tx);
    progression.afterCreate(tx);
    return { status: 201, body: created };
  },
};
