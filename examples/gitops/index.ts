/**
 * The vaults of one environment, reviewed like code: every change arrives as a pull request whose review
 * (`custody review`, with the custody policy pack) the reviewers read, is applied from the main branch, and a
 * nightly drift check (`custody drift`) reports, as an issue, when someone changed a vault in the console.
 *
 * The workflows under .github/workflows/ run it; run-local.sh runs the same steps against the emulator.
 * Settings come from the environment (CUSTODY_BASE_URL, CUSTODY_ACCESS_TOKEN), which CI fills from its
 * secrets, or from the stack config.
 *
 * The pull-request workflow runs the custody policy pack (policy/<stack>.json holds this stack's settings):
 * every vault here is protected and belongs to the team's vault group, as the pack requires.
 */
import * as pulumi from "@pulumi/pulumi";
import { Vault, VaultAddress } from "pulumi-custody";

// One stack per environment ("production", "staging"); the stack name keeps their vault names apart.
const environment = pulumi.getStack();
// The team's vault group (its id, from the console): the policy pack wants every vault that holds assets in one.
const vaultGroupIds = [new pulumi.Config().require("vaultGroupId")];
// A destroy or a removal from the program would archive a vault: protected vaults need a deliberate unprotect.
const opts = { protect: true };

const payments = new Vault(
  "payments",
  { name: `Payments (${environment})`, type: "evm", vaultGroupIds },
  opts,
);
const payouts = new Vault(
  "payouts",
  { name: `Payouts (${environment})`, type: "solana", vaultGroupIds },
  opts,
);
const bitcoin = new Vault(
  "bitcoin",
  { name: `Bitcoin Settlement (${environment})`, type: "utxo", chain: "bitcoin_testnet", vaultGroupIds },
  opts,
);
const settlement = new VaultAddress("settlement", {
  vaultId: bitcoin.id,
  name: "Settlement",
  addressType: "segwit",
});

export const vaultIds = { payments: payments.id, payouts: payouts.id, bitcoin: bitcoin.id };
export const paymentsAddress = payments.address;
export const settlementAddress = settlement.address;
