/**
 * UTXO vault addresses (docs/api-notes.md, "Vault addresses"). Only UTXO vaults have addresses: anything
 * else is the real 400 `invalid_vault_type` body. Names are unique within a vault (409); a new address
 * without a name gets the vault's `default_next_address_name`.
 */
import { notFound, preconditionFailed } from "../api-error";
import { utxoAddressTypes } from "../crypto/derive-keys";
import { buildAddress } from "../seed/vault-factory";
import { matches, sortItems } from "../state/list-query";
import type { VaultRecord } from "../state/types";
import { listResult } from "./list-result";
import type { HandlerContext, Handlers } from "./types";
import { requireValidName, requireVault } from "./vaults";

function requireUtxoVault(ctx: HandlerContext, id: string): VaultRecord {
  const vault = requireVault(ctx, id);
  if (vault.type !== "utxo" || !vault.utxo) {
    // The real body, word for word, including its wording about "vault creation".
    throw preconditionFailed(
      "Invalid vault type",
      "Invalid vault type for vault creation.",
      "invalid_vault_type",
    );
  }
  return vault;
}

export const vaultAddressHandlers: Pick<
  Handlers,
  "createVaultAddress" | "listVaultAddresses" | "renameVaultAddress"
> = {
  createVaultAddress(ctx) {
    const { store, views } = ctx.emulator;
    if (ctx.body.name !== undefined) requireValidName(ctx.body.name);
    const vault = requireUtxoVault(ctx, ctx.params.id);
    if (vault.state === "archived") {
      throw preconditionFailed(
        "Vault is archived",
        `Vault ${vault.id} is archived; restore it to create addresses`,
      );
    }
    const addressType = ctx.body.address_type;
    if (addressType && !utxoAddressTypes(vault.utxo!.chain).includes(addressType)) {
      throw preconditionFailed(
        "Unsupported address type",
        `Address type ${addressType} is not supported on ${vault.utxo!.chain}`,
      );
    }
    const name = ctx.body.name ?? views.nextAddressName(vault);
    store.assertAddressNameFree(vault.id, name);
    const address = buildAddress(store, vault, {
      name,
      addressType,
      derivationPath: ctx.body.import_address?.derivation_path,
    });
    store.insertAddress(address);
    store.audit("vault_address_created", ctx.principal.userId, "vault_address", address.id, {
      vault_id: vault.id,
      name,
    });
    return { status: 201, body: views.address(address) };
  },

  listVaultAddresses(ctx) {
    const { store, views } = ctx.emulator;
    const vault = requireUtxoVault(ctx, ctx.params.id);
    const q = ctx.query;
    const search = q.search?.toLowerCase();
    const filtered = store
      .addressesOf(vault.id)
      .filter(
        (a) =>
          matches(q.addresses, a.address) &&
          matches(q.address_types, a.address_type as never) &&
          (!search || a.name.toLowerCase().includes(search) || a.address.toLowerCase().includes(search)),
      );
    const sorted = sortItems(filtered, q.sort_by, { created_at: (a) => a.created_at, name: (a) => a.name });
    return listResult("addresses", sorted, q, (a) => views.address(a));
  },

  renameVaultAddress(ctx) {
    const { store } = ctx.emulator;
    requireValidName(ctx.body.name);
    const address = store.addresses.get(ctx.params.id);
    if (!address) throw notFound("vault_address", ctx.params.id);
    const old = address.name;
    if (store.renameAddress(address, ctx.body.name)) {
      store.audit("vault_address_renamed", ctx.principal.userId, "vault_address", address.id, {
        vault_id: address.vault_id,
        old_name: old,
        new_name: address.name,
      });
    }
    return { status: 204 };
  },
};
