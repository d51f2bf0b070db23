/**
 * The run-time implementation behind the serialized providers (package subpath
 * `pulumi-custody/provider-runtime`). The shims in `provider/shims.ts` load this module in the provider
 * process and delegate every method to it, so fixes here reach existing resources without any state change.
 *
 * It must handle every state shape any release ever wrote: outputs are read tolerantly.
 */
import { readyClient } from "./ready-client";
import { checkedVaultInputs, checkVault } from "./vault/check";
import { diffVault } from "./vault/diff";
import { createVault, deleteVault, readVault, updateVault } from "./vault/lifecycle";
import { checkedVaultAddressInputs, checkVaultAddress, diffVaultAddress } from "./vault-address/check-diff";
import {
  createVaultAddress,
  deleteVaultAddress,
  readVaultAddress,
  updateVaultAddress,
} from "./vault-address/lifecycle";

export { CustodySettingsError } from "../config";
export { configure, currentSettings, type ProviderConfig } from "./client";
export { type NoticeSink, setNoticeSink } from "./notify";
export { PartialCreateError } from "./partial-create-error";
export { forgetVerifiedSettings } from "./ready-client";
export { UNKNOWN } from "./unknown";
export type * from "./vault/types";
export type * from "./vault-address/types";

/**
 * `check` runs during `preview` too: once the inputs are valid, the settings are shown to work (one call per
 * process), so wrong credentials fail the preview rather than the `up`.
 */
async function checked<T extends { failures?: unknown[] }>(result: T): Promise<T> {
  if (!result.failures?.length) await readyClient();
  return result;
}

/** The Vault provider methods (`pulumi-nodejs:dynamic/custody:Vault`). */
export const vault = {
  check: async (olds: Record<string, unknown>, news: Record<string, unknown>) =>
    checked(checkVault(olds, news)),
  diff: async (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) =>
    diffVault(id, olds, news),
  create: (inputs: Record<string, unknown>) => createVault(checkedVaultInputs(inputs)),
  read: (id: string, props: Record<string, unknown>) => readVault(id, props),
  update: (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) =>
    updateVault(id, olds, checkedVaultInputs(news)),
  delete: (id: string, props: Record<string, unknown>) => deleteVault(id, props),
};

/** The VaultAddress provider methods (`pulumi-nodejs:dynamic/custody:VaultAddress`). */
export const vaultAddress = {
  check: async (olds: Record<string, unknown>, news: Record<string, unknown>) =>
    checked(checkVaultAddress(olds, news)),
  diff: (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) =>
    diffVaultAddress(id, olds, news),
  create: (inputs: Record<string, unknown>) => createVaultAddress(checkedVaultAddressInputs(inputs)),
  read: (id: string, props: Record<string, unknown>) => readVaultAddress(id, props),
  update: (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) =>
    updateVaultAddress(id, olds, checkedVaultAddressInputs(news)),
  delete: (id: string, props: Record<string, unknown>) => deleteVaultAddress(id, props),
};

/**
 * The first copy of the runtime loaded in a process is the one the serialized providers use
 * (provider/shims/load-runtime.ts reads this key first). A process can reach the package by two paths, for
 * example a program's relative imports and a provider's `require("pulumi-custody/provider-runtime")`; without
 * this, each copy would keep its own settings.
 */
const sharedRuntime = globalThis as { [key: symbol]: unknown };
sharedRuntime[Symbol.for("pulumi-custody.runtime")] ??= module.exports;
