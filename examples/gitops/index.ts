/**
 * The vaults of one environment, reviewed like code: every change arrives as a pull request whose
 * `pulumi preview` the reviewers read, is applied from the main branch, and a nightly drift check
 * (`pulumi preview --refresh --expect-no-changes`) fails when someone changed a vault in the console.
 *
 * The workflows under .github/workflows/ run it; run-local.sh runs the same steps against the emulator.
 * Settings come from the environment (CUSTODY_BASE_URL, CUSTODY_ACCESS_TOKEN), which CI fills from its
 * secrets, or from the stack config.
 */
import * as pulumi from "@pulumi/pulumi";
import { Vault, VaultAddress } from "pulumi-custody";

// One stack per environment ("production", "staging"); the stack name keeps their vault names apart.
const environment = pulumi.getStack();

const payments = new Vault("payments", { name: `Payments (${environment})`, type: "evm" });
const payouts = new Vault("payouts", { name: `Payouts (${environment})`, type: "solana" });
const bitcoin = new Vault("bitcoin", {
  name: `Bitcoin Settlement (${environment})`,
  type: "utxo",
  chain: "bitcoin_testnet",
});
const settlement = new VaultAddress("settlement", {
  vaultId: bitcoin.id,
  name: "Settlement",
  addressType: "segwit",
});

export const vaultIds = { payments: payments.id, payouts: payouts.id, bitcoin: bitcoin.id };
export const paymentsAddress = payments.address;
export const settlementAddress = settlement.address;
