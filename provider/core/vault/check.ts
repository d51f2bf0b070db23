/**
 * `check` of the Vault resource: validates the declared inputs at preview time and normalizes them, by the
 * rules of its declaration (./declaration.ts, through ../fields/check.ts). Values still unknown during a preview
 * (outputs of other resources) are skipped, not guessed.
 */
import { type CheckResult, checkedInputs, checkInputs } from "../fields/check";
import { type CheckFailure, engineSafeFailures } from "../inputs/schemas";
import { vaultDeclaration, vaultInputRules } from "./declaration";
import { VAULT_NAME_IS_SECRET } from "./secret-name";
import type { VaultInputs } from "./types";

/** The inputs that `check` accepted, typed (see {@link checkedInputs}). */
export function checkedVaultInputs(inputs: Record<string, unknown>): VaultInputs {
  const { [VAULT_NAME_IS_SECRET]: _secret, ...declared } = inputs;
  return checkedInputs<VaultInputs>(vaultDeclaration, declared);
}

/**
 * Validates the new inputs of a vault. `olds` (the previous inputs) is not needed: what may change in place and
 * what forces a replacement is decided by `diff`. Besides the declared inputs, it accepts the internal
 * `__nameIsSecret: true` that the `Vault` class adds for a secret name (./secret-name.ts), and keeps it.
 */
export function checkVault(_olds: Record<string, unknown>, news: Record<string, unknown>): CheckResult {
  const { [VAULT_NAME_IS_SECRET]: nameIsSecret, ...declared } = news;
  const result = checkInputs(vaultDeclaration, declared, { noun: "vault", rules: vaultInputRules });
  if (nameIsSecret === undefined) return result;
  if (nameIsSecret !== true) {
    const failure: CheckFailure = {
      property: VAULT_NAME_IS_SECRET,
      reason: "is internal and can only be true",
    };
    return { inputs: news, failures: [...(result.failures ?? []), ...engineSafeFailures(news, [failure])] };
  }
  if (result.failures) return { ...result, inputs: news };
  return { inputs: { ...result.inputs, [VAULT_NAME_IS_SECRET]: true } };
}
