/**
 * Take over vaults that already exist, instead of creating new ones.
 *
 * `pulumi import` does not work for dynamic resources such as these (pulumi/pulumi#16175), so a `Vault`
 * adopts instead: with `adoptExisting: true`, `pulumi up` finds the active vault with the declared name and
 * manages it from then on. Its id, address and funds stay as they are, and nothing is created. The declared
 * type (and chain, for UTXO vaults) must match the vault; a mismatch fails with the vault's id and what
 * differs. Addresses of a UTXO vault are adopted by name, always.
 *
 * Edit the list below to name your own vaults. The defaults are vaults that the local emulator seeds, so
 * the example runs as it is against it.
 */
import { type UtxoChain, Vault, VaultAddress } from "pulumi-custody";

const existing = {
  treasury: { name: "Treasury ETH", type: "evm" },
  operations: { name: "Solana Operations", type: "solana" },
  coldStorage: { name: "BTC Cold Storage", type: "utxo", chain: "bitcoin_mainnet" as UtxoChain },
} as const;

const treasury = new Vault("treasury", { ...existing.treasury, adoptExisting: true });
const operations = new Vault("operations", { ...existing.operations, adoptExisting: true });
const coldStorage = new Vault("cold-storage", { ...existing.coldStorage, adoptExisting: true });

// An address that already has this name in the vault is adopted, not created again.
const deposits = new VaultAddress("deposits", {
  vaultId: coldStorage.id,
  name: "Deposits",
  addressType: "segwit",
});

/** How each vault came under management: "adopted" on the first `up`, "restored" after a destroy. */
export const acquisitions = {
  treasury: treasury.acquisition,
  operations: operations.acquisition,
  coldStorage: coldStorage.acquisition,
};
export const vaultIds = { treasury: treasury.id, operations: operations.id, coldStorage: coldStorage.id };
export const depositAddress = deposits.address;
