/**
 * `@pulumi-custody/policy`: the custody guardrails as `@pulumi/policy` policies. The package is itself a ready
 * policy pack (`npm install --save-dev @pulumi-custody/policy`, then
 * `pulumi preview --policy-pack node_modules/@pulumi-custody/policy`); a team that wants its own pack builds it
 * from {@link custodyPolicies}. docs/policy.md documents each rule.
 */
export {
  type AdoptAllowListSettings,
  type AllowedUtxoChainsSettings,
  type AllowedVaultTypesSettings,
  type ArchiveAllowListSettings,
  CUSTODY_POLICY_NAMES,
  type CustodyPolicyConfig,
  type CustodyPolicyName,
  type CustodyPolicySettings,
  custodyPolicies,
  DEFAULT_VAULT_NAME_PATTERN,
  type DeclarableVaultType,
  VALUE_BEARING_VAULT_TYPES,
  type VaultInGroupSettings,
  type VaultNamePatternSettings,
} from "./policies";
export { VAULT_TYPE_TOKEN } from "./vault-props";
