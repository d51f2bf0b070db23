/**
 * The policy pack that the `policy` folder runs (its package.json points here): every custody policy with its
 * default enforcement level and settings, changed per stack by the policy config file.
 */
import { PolicyPack } from "@pulumi/policy";
import { custodyPolicies } from "./policies";

new PolicyPack("pulumi-custody", {
  description: "Custody guardrails for pulumi-custody vaults (docs/policy.md).",
  policies: custodyPolicies(),
});
