// Type test, not a mocha spec (the unit glob is `*.test.js`): the build's `tsc -p tsconfig.json` checks it,
// and each `@ts-expect-error` fails that build if the line below it compiles. It shows that a data source's
// argument→query table is checked against the endpoint's query schema: its keys and their value types.

import { type ExportVaultsQuery, type ListAllQuery, ListVaultsQuery, type Vault } from "@pulumi-custody/sdk";
import { listDataSource, type QueryKeys, type QueryOf } from "../data-sources/define";
import type { GetVaultsArgs } from "../index";

type VaultListQuery = ListAllQuery<QueryOf<typeof ListVaultsQuery>>;
type VaultFilters = Pick<GetVaultsArgs, "vaultIds" | "originType" | "sortBy">;

/** Compiles: every argument has a key of the endpoint's query, whose values take the argument's. */
export const vaultFilters: QueryKeys<VaultFilters, VaultListQuery> = {
  vaultIds: "vault_ids",
  originType: "origin_type",
  sortBy: "sort_by",
};

export const misspelledKey: QueryKeys<VaultFilters, VaultListQuery> = {
  // @ts-expect-error `GET /vaults` has no `vault_id` (it is `vault_ids`).
  vaultIds: "vault_id",
  originType: "origin_type",
  sortBy: "sort_by",
};

export const wrongValueType: QueryKeys<VaultFilters, VaultListQuery> = {
  vaultIds: "vault_ids",
  // @ts-expect-error `origin_type` is one value, `sortBy` a list.
  sortBy: "origin_type",
  originType: "origin_type",
};

export const wrongNumberType: QueryKeys<{ limit?: string }, QueryOf<typeof ExportVaultsQuery>> = {
  // @ts-expect-error `limit` is a number.
  limit: "limit",
};

// @ts-expect-error `originType` has no query key.
export const missingKey: QueryKeys<VaultFilters, VaultListQuery> = {
  vaultIds: "vault_ids",
  sortBy: "sort_by",
};

/** The same checks through the table of a data source (never called: declaring it is the test). */
export function declaredDataSources() {
  const define = listDataSource<GetVaultsArgs, typeof ListVaultsQuery>(ListVaultsQuery);
  return [
    define({
      name: "getVaults",
      query: {
        // @ts-expect-error `GET /vaults` has no `vault_id`.
        vaultIds: "vault_id",
        names: "names",
        vaultTypes: "vault_types",
        vaultStates: "vault_states",
        keyHolderIds: "key_holder_ids",
        vaultGroupIds: "vault_group_ids",
        excludeVaultGroupIds: "exclude_vault_group_ids",
        excludeVaultIds: "exclude_vault_ids",
        originType: "origin_type",
        accountAddresses: "account_addresses",
        positiveNativeBalanceChainIds: "positive_native_balance_chain_ids",
        sortBy: "sort_by",
      },
      list: (client, { query }) => client.vaults.listAll(query),
      map: (vault: Vault) => vault.id,
    }),
  ];
}
