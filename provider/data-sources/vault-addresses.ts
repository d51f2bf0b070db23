/** Data source `getVaultAddresses`. */

import { ListVaultAddressesQuery, type UtxoVaultAddress } from "@pulumi-custody/sdk";
import { z } from "zod";
import { field, type Projected, project } from "../core/field-tables";
import { vaultAddressFields } from "../core/vault-address/fields";
import { type DataSourceEntry, listDataSource } from "./define";

/** Filters of {@link getVaultAddresses} (`GET /vaults/{id}/addresses`). */
export interface GetVaultAddressesArgs {
  /** The UTXO vault. */
  vaultId: string;
  /** Substring search over address names and addresses. */
  search?: string;
  /** Only these addresses. */
  addresses?: string[];
  /** Only these address types: `legacy`, `p2sh`, `segwit`, `taproot`, `merkleroot`. */
  addressTypes?: string[];
  /** Sort order, e.g. `["created_at_asc"]`. */
  sortBy?: string[];
  /** Stop after this many addresses; all of them when unset. */
  maxItems?: number;
}

/** What the address data sources show: the address id, then every field the `VaultAddress` resource shows. */
const vaultAddressInfoFields = {
  /** Address id. */
  id: field(z.string(), (record: UtxoVaultAddress) => record.id),
  ...vaultAddressFields,
};

/** An address of a UTXO vault (read-only; see the `VaultAddress` resource to manage one). */
export interface VaultAddressInfo extends Projected<typeof vaultAddressInfoFields> {}

/** Maps one API address record to a {@link VaultAddressInfo}. */
function toVaultAddressInfo(record: UtxoVaultAddress): VaultAddressInfo {
  return project(vaultAddressInfoFields, record);
}

const vaultAddresses = listDataSource<GetVaultAddressesArgs, typeof ListVaultAddressesQuery>(
  ListVaultAddressesQuery,
)({
  name: "getVaultAddresses",
  callArgs: ({ vaultId }: GetVaultAddressesArgs) => ({ vaultId }),
  callArgTypes: { vaultId: z.string().describe("Vault id.") },
  fields: vaultAddressInfoFields,
  query: { search: "search", addresses: "addresses", addressTypes: "address_types", sortBy: "sort_by" },
  list: (client, { vaultId, query }) => client.vaults.addresses.listAll(vaultId, query),
  map: toVaultAddressInfo,
});

/** Lists the addresses of a UTXO vault (every page). @function */
export const getVaultAddresses = vaultAddresses.run;

/** {@link getVaultAddresses} taking Inputs and returning an Output. */
export const getVaultAddressesOutput = vaultAddresses.output;

/** The data sources of this module, for the registry (`./index.ts`). */
export const vaultAddressDataSources: readonly DataSourceEntry[] = [vaultAddresses];
