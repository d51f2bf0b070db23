/**
 * A treasury layout: several vaults per chain family, each in the vault groups its purpose calls for, and
 * named addresses on the UTXO vaults. The layout is data: add a row to add a vault.
 *
 * A vault is created in the first of its groups. Joining the others, and any later change of groups, goes
 * through a change proposal that an admin approves in the console; until then the vault's
 * `pendingVaultGroupIds` output lists what waits, and the proposal is not submitted again.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  type CreatableAddressType,
  type CreatableVaultType,
  type UtxoChain,
  Vault,
  VaultAddress,
} from "pulumi-custody";
import { vaultGroupIdsByName } from "./vault-groups";

interface VaultRow {
  /** Becomes the vault name, after the family: "Ethereum Treasury". */
  purpose: string;
  /** Vault groups, by name; the first one is where the vault is created. */
  groups: string[];
  /** Named addresses (UTXO vaults only). */
  addresses?: Array<{ name: string; type: CreatableAddressType }>;
}

interface Family {
  type: CreatableVaultType;
  chain?: UtxoChain;
  vaults: VaultRow[];
}

// Group names as the emulator seeds them; use your organization's.
const layout: Record<string, Family> = {
  Ethereum: {
    type: "evm",
    vaults: [
      { purpose: "Treasury", groups: ["Treasury"] },
      { purpose: "Payroll", groups: ["Treasury", "Default"] },
      { purpose: "Market Making", groups: ["Trading", "Default"] },
    ],
  },
  Solana: {
    type: "solana",
    vaults: [
      { purpose: "Operations", groups: ["Default"] },
      { purpose: "Staking", groups: ["Treasury", "Default"] },
    ],
  },
  Tron: { type: "tron", vaults: [{ purpose: "Payments", groups: ["Trading"] }] },
  Bitcoin: {
    type: "utxo",
    chain: "bitcoin_mainnet",
    vaults: [
      {
        purpose: "Cold Storage",
        groups: ["Cold Storage", "Treasury"],
        addresses: [
          { name: "Deposits", type: "segwit" },
          { name: "Long-term Savings", type: "taproot" },
        ],
      },
      {
        purpose: "Hot Wallet",
        groups: ["Trading"],
        addresses: [{ name: "Exchange Withdrawals", type: "segwit" }],
      },
    ],
  },
};

const prefix = new pulumi.Config().get("namePrefix") ?? "Layout";

export = async () => {
  const groupIds = await vaultGroupIdsByName();
  const groupId = (name: string) => {
    const id = groupIds.get(name);
    if (!id)
      throw new Error(`No vault group named "${name}"; groups in use: ${[...groupIds.keys()].join(", ")}.`);
    return id;
  };

  const vaults: Record<string, Vault> = {};
  const addresses: Record<string, pulumi.Output<string>> = {};
  for (const [family, { type, chain, vaults: rows }] of Object.entries(layout)) {
    for (const row of rows) {
      const name = `${prefix} ${family} ${row.purpose}`;
      const key = `${family}-${row.purpose}`.toLowerCase().replaceAll(" ", "-");
      const vault = new Vault(key, { name, type, chain, vaultGroupIds: row.groups.map(groupId) });
      vaults[name] = vault;
      for (const address of row.addresses ?? []) {
        const addressKey = `${key}-${address.name}`.toLowerCase().replaceAll(" ", "-");
        addresses[`${name} / ${address.name}`] = new VaultAddress(addressKey, {
          vaultId: vault.id,
          name: address.name,
          addressType: address.type,
        }).address;
      }
    }
  }

  return {
    /** Vault id by vault name. */
    vaultIds: Object.fromEntries(Object.entries(vaults).map(([name, v]) => [name, v.id])),
    /** UTXO addresses by "vault / address" name. */
    addresses,
    /** Vaults whose group change waits for an admin's approval in the console. */
    awaitingApproval: pulumi
      .all(
        Object.entries(vaults).map(([name, v]) =>
          v.pendingVaultGroupIds.apply((p) => (p.length > 0 ? name : "")),
        ),
      )
      .apply((names) => names.filter(Boolean)),
  };
};
