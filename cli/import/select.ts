/**
 * What an import takes: the organization's vaults (and, on request, the addresses of its UTXO vaults), read
 * through the sdk, filtered, without what a stack already manages, each named ({@link uniqueNames}) and
 * declared as it is ({@link importedVaultInputs}). A vault the filter takes but a program cannot declare is
 * reported with the reason, never dropped without a word.
 */
import type { CustodyClient, UtxoVaultAddress, Vault as VaultRecord } from "@pulumi-custody/sdk";
import { isModelledVault } from "@pulumi-custody/sdk/schema";
import {
  importedVaultAddressInputs,
  importedVaultInputs,
  vaultAddressResource,
  vaultResource,
} from "pulumi-custody/core";
import { type ImportFilter, passesFilter } from "./filter";
import { resourceNameOf, uniqueNames } from "./names";
import type { StackHoldings } from "./stacks";

/** Where the import goes: the provider plugin (`pulumi import`), or the dynamic provider (adoption by name). */
export type ImportProvider = "plugin" | "dynamic";

/** A vault to import: its record, its resource name and the inputs that declare it as it is. */
export interface PlannedVault {
  /** The vault as the API lists it. */
  readonly vault: VaultRecord;
  /** Its resource name. */
  readonly name: string;
  /** Its inputs: each input of the `Vault`'s declaration that the vault has, as a refresh reports it. */
  readonly inputs: Readonly<Record<string, unknown>>;
}

/** An address to import, of a vault the import takes or a stack already manages. */
export interface PlannedAddress {
  /** The vault it belongs to: the one this import declares, or `undefined` when a stack manages it already. */
  readonly vault: PlannedVault | undefined;
  /** The address as the API lists it. */
  readonly address: UtxoVaultAddress;
  /** Its resource name. */
  readonly name: string;
  /** Its inputs: each input of the `VaultAddress`'s declaration that the address has. */
  readonly inputs: Readonly<Record<string, unknown>>;
}

/** Something the filter took that the import leaves out, and why. */
export interface LeftOut {
  /** `Vault` or `VaultAddress`. */
  readonly kind: "Vault" | "VaultAddress";
  /** Its id. */
  readonly id: string;
  /** Its display name (an address: `<vault name> / <address name>`). */
  readonly displayName: string;
  /** Why, in one line. */
  readonly reason: string;
}

/** What an import takes and what it leaves out. */
export interface Selection {
  /** The vaults to import, in the API's order. */
  readonly vaults: readonly PlannedVault[];
  /** The addresses to import. */
  readonly addresses: readonly PlannedAddress[];
  /** Taken by the filter, but a stack manages them already. */
  readonly managed: readonly LeftOut[];
  /** Taken by the filter, but a program cannot declare them as they are. */
  readonly unrepresentable: readonly LeftOut[];
  /** Vaults of the organization the filter does not take. */
  readonly outsideFilter: number;
}

/** Options of {@link selectForImport}. */
export interface SelectOptions {
  /** Which vaults. */
  readonly filter: ImportFilter;
  /** Stacks whose vaults and addresses are left out (the one imported into, and any others named). */
  readonly managedBy?: readonly StackHoldings[];
  /** Resource names already used (the stack imported into has them): never given again. */
  readonly takenNames?: ReadonlySet<string>;
  /** Also the addresses of the UTXO vaults taken. */
  readonly withAddresses?: boolean;
  /** The provider the program uses (the dynamic one adopts addresses by name: names must be unique). */
  readonly provider?: ImportProvider;
  /** Told of progress: what is being read, and how far. */
  readonly onProgress?: (message: string) => void;
}

/** States whose vaults hold their names (names are given over these, so that the filter cannot change them). */
const NAMED_STATES = ["active", "pending", "archived"] as const;

/** Reads the organization and plans the import. */
export async function selectForImport(client: CustodyClient, options: SelectOptions): Promise<Selection> {
  const progress = options.onProgress ?? (() => undefined);
  const holders = options.managedBy ?? [];
  const taken = options.takenNames ?? new Set<string>();

  const all: VaultRecord[] = [];
  for await (const vault of client.vaults.listAll({ vault_states: [...NAMED_STATES] })) {
    all.push(vault);
    if (all.length % 100 === 0) progress(`listed ${all.length} vaults`);
  }
  progress(`listed ${all.length} vaults`);

  // Names over every vault that holds one, so a vault's name does not depend on the filter.
  const vaultNames = uniqueNames(
    all.map((v) => ({ id: v.id, wanted: resourceNameOf(v.name, "vault"), createdAt: v.created_at })),
    taken,
  );
  const vaults: PlannedVault[] = [];
  const managed: LeftOut[] = [];
  const unrepresentable: LeftOut[] = [];
  let outsideFilter = 0;
  for (const vault of all) {
    if (!passesFilter(filterSubject(vault), options.filter)) {
      outsideFilter++;
      continue;
    }
    const leftOut = (reason: string) => ({
      kind: "Vault" as const,
      id: vault.id,
      displayName: vault.name,
      reason,
    });
    const holder = holders.find((h) => h.vaultIds.has(vault.id.toLowerCase()));
    if (holder) {
      managed.push(leftOut(`stack ${holder.stack} manages it`));
      continue;
    }
    const why = whyNotDeclarable(vault);
    if (why) {
      unrepresentable.push(leftOut(why));
      continue;
    }
    vaults.push({ vault, name: vaultNames.get(vault.id)!, inputs: importedVaultInputs(vault) });
  }

  const addresses: PlannedAddress[] = [];
  if (options.withAddresses) {
    // The addresses of the utxo vaults taken, and of those a stack manages (an address added since is new).
    const planned = new Map(vaults.map((p) => [p.vault.id, p]));
    const managedIds = new Set(managed.map((m) => m.id));
    const utxo = all.filter((v) => v.type === "utxo" && (planned.has(v.id) || managedIds.has(v.id)));
    const found: { vault: VaultRecord; address: UtxoVaultAddress }[] = [];
    for (const [i, vault] of utxo.entries()) {
      for await (const address of client.vaults.addresses.listAll(vault.id)) found.push({ vault, address });
      progress(`listed the addresses of ${i + 1} of ${utxo.length} utxo vaults`);
    }
    const addressNames = uniqueNames(
      found.map(({ vault, address }) => ({
        id: address.id,
        wanted: `${vaultNames.get(vault.id)}-${resourceNameOf(address.name, "address")}`,
        createdAt: address.created_at,
      })),
      new Set([...taken, ...vaultNames.values()]),
    );
    for (const { vault, address } of found) {
      const displayName = `${vault.name} / ${address.name}`;
      const leftOut = (reason: string) => ({
        kind: "VaultAddress" as const,
        id: address.id,
        displayName,
        reason,
      });
      const holder = holders.find((h) => h.addressIds.has(address.id.toLowerCase()));
      if (holder) {
        managed.push(leftOut(`stack ${holder.stack} manages it`));
        continue;
      }
      const inputs = importedVaultAddressInputs(address);
      const why =
        schemaProblem(vaultAddressResource.inputSchema, inputs) ??
        (options.provider === "dynamic" ? ambiguousName(address, found) : undefined);
      if (why) unrepresentable.push(leftOut(why));
      else
        addresses.push({
          vault: planned.get(vault.id),
          address,
          name: addressNames.get(address.id)!,
          inputs,
        });
    }
  }
  return { vaults, addresses, managed, unrepresentable, outsideFilter };
}

/** A vault as the filter sees it. */
function filterSubject(vault: VaultRecord) {
  return {
    name: vault.name,
    type: vault.type,
    chain: isModelledVault(vault) && vault.type === "utxo" ? vault.chain.unique_id : undefined,
    state: vault.state,
  };
}

/** Why a program cannot declare this vault as it is; `undefined` when it can. */
export function whyNotDeclarable(vault: VaultRecord): string | undefined {
  if (!isModelledVault(vault))
    return `its type "${vault.type}" is not one this release of pulumi-custody knows`;
  return schemaProblem(vaultResource.inputSchema, importedVaultInputs(vault));
}

/** The input rules that `inputs` break, in one line (`check` would refuse them); `undefined` when none. */
function schemaProblem(
  schema: {
    safeParse(value: unknown): {
      success: boolean;
      error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
    };
  },
  inputs: Record<string, unknown>,
): string | undefined {
  const parsed = schema.safeParse(inputs);
  if (parsed.success) return undefined;
  return (parsed.error?.issues ?? [])
    .map((issue) => `${issue.path.map(String).join(".")}: ${issue.message}`)
    .join("; ");
}

/** The dynamic provider adopts an address by its name: one that shares it with another of its vault cannot be. */
function ambiguousName(
  address: UtxoVaultAddress,
  found: readonly { address: UtxoVaultAddress }[],
): string | undefined {
  const same = found.filter(
    (f) => f.address.vault.id === address.vault.id && f.address.name === address.name,
  );
  return same.length > 1
    ? `its vault has ${same.length} addresses named ${JSON.stringify(address.name)}, and the dynamic provider adopts an address by its name`
    : undefined;
}
