/**
 * The demo stack: a small custody layout, declared in code.
 *
 * `npm run demo` runs it against the embedded emulator. To run it against your custody service, set
 * `custody:baseUrl` and `custody:accessToken` (with `--secret`) in the stack config and run `pulumi up`:
 * nothing below depends on the emulator; what the program needs from the organization, it looks up.
 */
import * as pulumi from "@pulumi/pulumi";
import { getBlockchains, getUsers, getVaults, type UtxoChain, Vault, VaultAddress } from "pulumi-custody";

const config = new pulumi.Config();
// Vault names are unique in an organization: give each stack that shares one its own prefix.
const prefix = config.get("namePrefix") ?? "Demo";
// The treasury vault joins the vault groups of this existing vault, if there is one.
const groupsLike = config.get("treasuryGroupsLike") ?? "Treasury ETH";

// An async program: its lookups run first, on every preview and every update.
export = async () => {
  // Cold storage lives on a Bitcoin testnet: the first one the organization has enabled.
  const utxoChains = await getBlockchains({ chainTypes: ["utxo"], includeMainnets: false });
  const bitcoinTestnet = utxoChains.find((c) => c.isEnabled && c.uniqueId.startsWith("bitcoin_testnet"));
  if (!bitcoinTestnet) throw new Error("This organization has no enabled Bitcoin testnet (getBlockchains).");

  // The API cannot list vault groups, but vaults show theirs: copy the groups of an existing vault.
  // When there is no such vault, the treasury's membership is left alone.
  const [groupTemplate] = await getVaults({ names: [groupsLike], vaultStates: ["active"] });

  // Vault-group changes wait for an admin's approval in the console: list who can give it.
  const admins = await getUsers({ types: ["person"], roles: ["admin"], states: ["active"] });
  if (admins.length === 0) pulumi.log.warn("No active admin can approve vault-group changes.");

  // Four vaults of different kinds. `protect: true` is wise for vaults that hold funds.
  const treasury = new Vault("treasury", {
    name: `${prefix} Treasury`,
    type: "evm",
    vaultGroupIds: groupTemplate?.vaultGroupIds,
  });
  const operations = new Vault("operations", { name: `${prefix} Operations`, type: "solana" });
  const coldStorage = new Vault("cold-storage", {
    name: `${prefix} Cold Storage`,
    type: "utxo",
    chain: bitcoinTestnet.uniqueId as UtxoChain,
  });
  const signer = new Vault("signer", {
    name: `${prefix} Signer`,
    type: "black_box",
    keyType: "ecdsa_secp256k1",
  });

  // UTXO vaults hand out many addresses; these two are named, so a destroy-then-up gives them back.
  const deposits = new VaultAddress("deposits", {
    vaultId: coldStorage.id,
    name: "Deposits",
    addressType: "segwit",
  });
  const savings = new VaultAddress("savings", {
    vaultId: coldStorage.id,
    name: "Savings",
    addressType: "taproot",
  });

  const vaults = [treasury, operations, coldStorage, signer];
  return {
    treasuryVaultId: treasury.id,
    treasuryAddress: treasury.address,
    coldStorageChain: bitcoinTestnet.uniqueId,
    depositAddress: deposits.address,
    savingsAddress: savings.address,
    approvers: admins.map((admin) => admin.name ?? admin.email ?? admin.id),
    // One line per vault: its name, then type, state, and address where the type has one.
    summary: pulumi
      .all(vaults.map((v) => pulumi.all([v.name, v.type, v.state, v.address])))
      .apply((rows) =>
        Object.fromEntries(
          rows.map(([name, type, state, address]) => [name, `${type}, ${state}, ${address ?? "no address"}`]),
        ),
      ),
  };
};
