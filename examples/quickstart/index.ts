// Quickstart: an Ethereum vault, and a Bitcoin testnet vault with one deposit address.
import { Vault, VaultAddress } from "pulumi-custody";

// `name` is the vault's name in the custody platform (unique in the organization); renaming it here
// renames the vault. The first argument is Pulumi's name for the resource and never changes.
const treasury = new Vault("treasury", { name: "Quickstart Treasury", type: "evm" });

// UTXO vaults live on one chain and can hand out many addresses.
const bitcoin = new Vault("bitcoin", { name: "Quickstart Bitcoin", type: "utxo", chain: "bitcoin_testnet" });
const deposits = new VaultAddress("deposits", {
  vaultId: bitcoin.id,
  name: "Deposits",
  addressType: "segwit",
});

export const treasuryVaultId = treasury.id;
export const treasuryAddress = treasury.address;
export const depositAddress = deposits.address;
