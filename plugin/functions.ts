/**
 * The functions of the `custody` provider (`custody:index:getVaults` and the others): the data sources of
 * `provider/data-sources`, served through the engine's `Invoke` with the provider's configuration. A list is
 * returned as `{ items: [...] }` and a keyed result as `{ items: { <id>: ... } }`, since an invoke answers with an
 * object of fixed fields.
 */
import {
  exportVaultBalances,
  getBlockchains,
  getSuggestedFees,
  getUser,
  getUserGroup,
  getUserGroups,
  getUsers,
  getVault,
  getVaultAddresses,
  getVaultAsset,
  getVaultAssets,
  getVaults,
} from "../provider";
import { blockchainDataSourceSpecs } from "../provider/data-sources/blockchains";
import type { DataSourceSpec } from "../provider/data-sources/define";
import { userDataSourceSpecs } from "../provider/data-sources/users";
import { vaultAddressDataSourceSpecs } from "../provider/data-sources/vault-addresses";
import { vaultAssetDataSourceSpecs } from "../provider/data-sources/vault-assets";
import { vaultDataSourceSpecs } from "../provider/data-sources/vaults";
import { readyClient } from "../provider/runtime/ready-client";
import { unwrap } from "./properties";
import type { Failure } from "./provider";
import { PACKAGE } from "./tokens";

type Run = (args: never, options: { client: Awaited<ReturnType<typeof readyClient>> }) => Promise<unknown>;

/** Every function, by name; each is the data source's plain function. */
export const FUNCTIONS: Record<string, Run> = {
  getVaults,
  getVault,
  exportVaultBalances,
  getVaultAddresses,
  getVaultAssets,
  getVaultAsset,
  getUsers,
  getUser,
  getUserGroups,
  getUserGroup,
  getBlockchains,
  getSuggestedFees,
} as Record<string, Run>;

/** Each function's arguments, result kind and fields, by name: what the schema declares of it. */
export const FUNCTION_SPECS: Readonly<Record<string, DataSourceSpec>> = Object.fromEntries(
  [
    ...vaultDataSourceSpecs,
    ...vaultAddressDataSourceSpecs,
    ...vaultAssetDataSourceSpecs,
    ...userDataSourceSpecs,
    ...blockchainDataSourceSpecs,
  ].map((spec) => [spec.name, spec]),
);

/** The token of a function (`getVaults` → `custody:index:getVaults`). */
export function functionToken(name: string): string {
  return `${PACKAGE}:index:${name}`;
}

/** Runs the function of `token` with the configured client. */
export async function invoke(
  token: string,
  args: Record<string, unknown>,
): Promise<{ value: Record<string, unknown>; failures: Failure[] }> {
  const name = token.startsWith(`${PACKAGE}:index:`) ? token.slice(PACKAGE.length + 7) : undefined;
  const run = name === undefined ? undefined : FUNCTIONS[name];
  if (!run) {
    throw new Error(
      `unknown function ${token}: the ${PACKAGE} provider has ${Object.keys(FUNCTIONS).map(functionToken).join(", ")}`,
    );
  }
  const result = await run(unwrap(args).values as never, { client: await readyClient() });
  const kind = FUNCTION_SPECS[name!]?.kind;
  const value = kind === "list" || kind === "keyed" ? { items: result } : (result as Record<string, unknown>);
  return { value: JSON.parse(JSON.stringify(value ?? {})), failures: [] };
}
