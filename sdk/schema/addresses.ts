/** UTXO vault addresses (docs/api-notes.md, "Vault addresses"). */
import { z } from "zod";
import { Balances } from "./assets";
import { listEnvelope, pagingQuery, queryArray, Uuid } from "./common";
import {
  CreatableUtxoAddressType,
  UtxoAddressType,
  UtxoChainUniqueId,
  VaultAddressSortableFields,
} from "./enums";
import { ServiceName } from "./name-rules";
import { openLiteral } from "./open";
import { Timestamps, VaultRef } from "./refs";

/** `UtxoAddress`: a UTXO address (14–74 characters) with its script type and chain. */
export const UtxoAddress = z.looseObject({
  type: openLiteral("utxo"),
  address: z.string().min(14).max(74),
  address_type: UtxoAddressType.or(z.string()),
  chain: z.looseObject({ chain_type: openLiteral("utxo"), unique_id: UtxoChainUniqueId.or(z.string()) }),
});

/** `UtxoVaultAddress` (= `CreateVaultAddressResponse`). */
export const UtxoVaultAddress = z.looseObject({
  id: Uuid,
  ...Timestamps,
  vault: VaultRef,
  name: z.string(),
  /** Deprecated. */
  balances: Balances.optional(),
  public_key_compressed: z.string(),
  /** BIP-32 path, e.g. `m/84/0/0/0/3`. */
  derivation_path: z.string(),
  type: openLiteral("utxo"),
  address: UtxoAddress,
});
/** An address of a UTXO vault. */
export type UtxoVaultAddress = z.infer<typeof UtxoVaultAddress>;

/**
 * `CreateVaultAddressRequest`: the body of `POST /vaults/{id}/addresses` (UTXO vaults only). Every
 * field is optional, but the body itself is required.
 */
export const CreateVaultAddressRequest = z.object({
  /** Address name, unique within the vault. Defaults to the vault's `default_next_address_name`. */
  name: ServiceName.optional(),
  /** Address type; `p2sh` cannot be requested. */
  address_type: CreatableUtxoAddressType.optional(),
  /** Import an address at a known derivation path instead of deriving the next one. */
  import_address: z.object({ derivation_path: z.string().min(1) }).optional(),
});
/** The body of a create-address request. */
export type CreateVaultAddressRequest = z.input<typeof CreateVaultAddressRequest>;

/** Query of `GET /vaults/{id}/addresses`: paging, sort order and filters. */
export const ListVaultAddressesQuery = z.object({
  /** Sort order. */
  sort_by: queryArray(VaultAddressSortableFields),
  ...pagingQuery(),
  /** Substring search over address names and addresses. */
  search: z.string().optional(),
  /** Only these addresses. */
  addresses: queryArray(z.string()),
  /** Only these address types. */
  address_types: queryArray(UtxoAddressType),
});
/** Query parameters of `GET /vaults/{id}/addresses`, as the client accepts them. */
export type ListVaultAddressesQuery = z.input<typeof ListVaultAddressesQuery>;
/** `ListVaultAddressesResponse`: one page of a vault's addresses, `{ total, page, size, addresses }`. */
export const ListVaultAddressesResponse = listEnvelope("addresses", UtxoVaultAddress);
/** One page of `GET /vaults/{id}/addresses`. */
export type ListVaultAddressesResponse = z.infer<typeof ListVaultAddressesResponse>;
