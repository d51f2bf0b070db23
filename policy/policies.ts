/**
 * The custody guardrails as `@pulumi/policy` policies. Each rule has a default enforcement level and settings
 * that a team changes per stack in the policy config file (`pulumi preview --policy-pack-config`); the same
 * settings can be given in code to {@link custodyPolicies}, as defaults that the file still overrides.
 * docs/policy.md documents each rule.
 */
import type {
  EnforcementLevel,
  PolicyConfigSchema,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import { UTXO_CHAIN_IDS, VAULT_TYPES } from "@pulumi-custody/sdk/schema";
import type { UtxoChain } from "pulumi-custody/core";
import { describeVault, isVaultType, UNKNOWN, type VaultView, vaultView } from "./vault-props";

/** A vault type a program can declare: every type the sdk knows (`safe` and `exchange` vaults are adopted). */
export type DeclarableVaultType = (typeof VAULT_TYPES)[number];

/**
 * Vault types that hold assets: every type but `black_box`, whose vaults hold a bare signing key with no chain
 * address (sdk/schema/vaults.ts, `BlackBoxVault`), so nothing can be sent to them.
 */
export const VALUE_BEARING_VAULT_TYPES: readonly DeclarableVaultType[] = VAULT_TYPES.filter(
  (t) => t !== "black_box",
);

/** The default pattern of vault names: no leading or trailing whitespace. */
export const DEFAULT_VAULT_NAME_PATTERN = "^\\S(?:.*\\S)?$";

/** Settings of `custody-vault-name-pattern`. */
export interface VaultNamePatternSettings {
  /**
   * A JavaScript regular expression (Unicode mode) that every vault name must match; it is searched in the
   * name, so anchor it (`^…$`) to constrain the whole name. Default: {@link DEFAULT_VAULT_NAME_PATTERN}.
   */
  pattern?: string;
}

/** Settings of `custody-vault-allowed-types`. */
export interface AllowedVaultTypesSettings {
  /** The vault types a stack may declare. Default: every type (`safe` and `exchange` can only be adopted). */
  allowedTypes?: DeclarableVaultType[];
}

/** Settings of `custody-vault-allowed-utxo-chains`. */
export interface AllowedUtxoChainsSettings {
  /** The UTXO chains a `utxo` vault may live on, e.g. only testnets in a development stack. Default: all. */
  allowedChains?: UtxoChain[];
}

/** Settings of `custody-vault-in-vault-group`. */
export interface VaultInGroupSettings {
  /**
   * The vault types that must declare at least one vault group. Default: {@link VALUE_BEARING_VAULT_TYPES}.
   */
  valueBearingTypes?: DeclarableVaultType[];
}

/** Settings of `custody-vault-adopt-allow-list`. */
export interface AdoptAllowListSettings {
  /** The vault names that may set `adoptExisting: true`. Default: none. */
  allowedNames?: string[];
}

/** Settings of `custody-vault-archive-allow-list`. */
export interface ArchiveAllowListSettings {
  /** The vault names that may be archived (`archived: true`) although their type holds assets. Default: none. */
  allowedNames?: string[];
  /** The vault types whose archiving needs the allow-list. Default: {@link VALUE_BEARING_VAULT_TYPES}. */
  valueBearingTypes?: DeclarableVaultType[];
}

/** Each policy's own settings (the policies without settings have none). */
export interface CustodyPolicySettings {
  /** `custody-vault-protected` has no settings. */
  "custody-vault-protected": Record<never, never>;
  /** Settings of `custody-vault-name-pattern`. */
  "custody-vault-name-pattern": VaultNamePatternSettings;
  /** Settings of `custody-vault-allowed-types`. */
  "custody-vault-allowed-types": AllowedVaultTypesSettings;
  /** Settings of `custody-vault-allowed-utxo-chains`. */
  "custody-vault-allowed-utxo-chains": AllowedUtxoChainsSettings;
  /** Settings of `custody-vault-in-vault-group`. */
  "custody-vault-in-vault-group": VaultInGroupSettings;
  /** Settings of `custody-vault-adopt-allow-list`. */
  "custody-vault-adopt-allow-list": AdoptAllowListSettings;
  /** Settings of `custody-vault-archive-allow-list`. */
  "custody-vault-archive-allow-list": ArchiveAllowListSettings;
  /** `custody-vault-unique-names` has no settings. */
  "custody-vault-unique-names": Record<never, never>;
}

/** The name of a custody policy. */
export type CustodyPolicyName = keyof CustodyPolicySettings;

/**
 * The configuration of the custody policies, in the shape of the policy config file: per policy, an
 * enforcement level, or an object with `enforcementLevel` and the policy's settings.
 */
export type CustodyPolicyConfig = {
  [P in CustodyPolicyName]?:
    | EnforcementLevel
    | ({ enforcementLevel?: EnforcementLevel } & CustodyPolicySettings[P]);
};

/** The names of the custody policies, in the order the pack declares them. */
export const CUSTODY_POLICY_NAMES: readonly CustodyPolicyName[] = [
  "custody-vault-protected",
  "custody-vault-name-pattern",
  "custody-vault-allowed-types",
  "custody-vault-allowed-utxo-chains",
  "custody-vault-in-vault-group",
  "custody-vault-adopt-allow-list",
  "custody-vault-archive-allow-list",
  "custody-vault-unique-names",
];

const ENFORCEMENT_LEVELS: readonly EnforcementLevel[] = ["advisory", "mandatory", "remediate", "disabled"];

/** Default settings, one place, so the code, the config schema's defaults and docs/policy.md agree. */
const DEFAULTS: { [P in CustodyPolicyName]: Required<CustodyPolicySettings[P]> } = {
  "custody-vault-protected": {},
  "custody-vault-name-pattern": { pattern: DEFAULT_VAULT_NAME_PATTERN },
  "custody-vault-allowed-types": { allowedTypes: [...VAULT_TYPES] },
  "custody-vault-allowed-utxo-chains": { allowedChains: [...UTXO_CHAIN_IDS] },
  "custody-vault-in-vault-group": { valueBearingTypes: [...VALUE_BEARING_VAULT_TYPES] },
  "custody-vault-adopt-allow-list": { allowedNames: [] },
  "custody-vault-archive-allow-list": { allowedNames: [], valueBearingTypes: [...VALUE_BEARING_VAULT_TYPES] },
  "custody-vault-unique-names": {},
};

/** A settings problem, naming the policy and the field. */
function configError(policy: CustodyPolicyName, field: string, rule: string): Error {
  return new Error(`pulumi-custody policy config: "${policy}".${field} ${rule}`);
}

function checkList(
  policy: CustodyPolicyName,
  field: string,
  value: unknown,
  allowed?: readonly string[],
): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw configError(policy, field, `must be a list of strings, got ${JSON.stringify(value)}`);
  }
  if (allowed) {
    const bad = value.filter((v) => !allowed.includes(v));
    if (bad.length > 0) {
      throw configError(
        policy,
        field,
        `has ${bad.map((b) => JSON.stringify(b)).join(", ")}, not one of ${allowed.join(", ")}`,
      );
    }
  }
  return value as string[];
}

/** Checks and completes one policy's settings (defaults, then code config, then the stack's file). */
function settingsOf<P extends CustodyPolicyName>(
  policy: P,
  ...layers: unknown[]
): Required<CustodyPolicySettings[P]> {
  const merged: Record<string, unknown> = { ...DEFAULTS[policy] };
  for (const layer of layers) {
    if (layer === null || typeof layer !== "object") continue;
    for (const [key, value] of Object.entries(layer)) {
      if (key === "enforcementLevel" || value === undefined) continue;
      if (!(key in DEFAULTS[policy])) {
        const known = Object.keys(DEFAULTS[policy]);
        throw configError(
          policy,
          key,
          `is not a setting of this policy (${known.length > 0 ? `settings: ${known.join(", ")}` : "it has none"})`,
        );
      }
      merged[key] = value;
    }
  }
  switch (policy) {
    case "custody-vault-name-pattern": {
      const { pattern } = merged;
      if (typeof pattern !== "string") throw configError(policy, "pattern", "must be a string");
      try {
        new RegExp(pattern, "u");
      } catch (err) {
        throw configError(policy, "pattern", `is not a valid regular expression: ${(err as Error).message}`);
      }
      break;
    }
    case "custody-vault-allowed-types":
      checkList(policy, "allowedTypes", merged.allowedTypes, VAULT_TYPES);
      break;
    case "custody-vault-allowed-utxo-chains":
      checkList(policy, "allowedChains", merged.allowedChains, UTXO_CHAIN_IDS);
      break;
    case "custody-vault-in-vault-group":
      checkList(policy, "valueBearingTypes", merged.valueBearingTypes, VAULT_TYPES);
      break;
    case "custody-vault-adopt-allow-list":
      checkList(policy, "allowedNames", merged.allowedNames);
      break;
    case "custody-vault-archive-allow-list":
      checkList(policy, "allowedNames", merged.allowedNames);
      checkList(policy, "valueBearingTypes", merged.valueBearingTypes, VAULT_TYPES);
      break;
  }
  return merged as Required<CustodyPolicySettings[P]>;
}

function enforcementOf(policy: CustodyPolicyName, entry: unknown): EnforcementLevel {
  const level =
    typeof entry === "string"
      ? entry
      : entry !== null && typeof entry === "object"
        ? (entry as { enforcementLevel?: unknown }).enforcementLevel
        : undefined;
  if (level === undefined) return "mandatory";
  if (typeof level !== "string" || !ENFORCEMENT_LEVELS.includes(level as EnforcementLevel)) {
    throw configError(policy, "enforcementLevel", `must be one of ${ENFORCEMENT_LEVELS.join(", ")}`);
  }
  return level as EnforcementLevel;
}

const stringList = (values: readonly string[]) => ({
  type: "array" as const,
  items: { type: "string" as const, ...(values.length > 0 ? { enum: [...values] } : {}) },
});

/** The JSON schema of each policy's settings; the engine checks the config file against it. */
function schemaOf(
  policy: CustodyPolicyName,
  defaults: Record<string, string | string[]>,
): PolicyConfigSchema | undefined {
  const properties: PolicyConfigSchema["properties"] = {};
  switch (policy) {
    case "custody-vault-name-pattern":
      properties.pattern = { type: "string", default: defaults.pattern };
      break;
    case "custody-vault-allowed-types":
      properties.allowedTypes = { ...stringList(VAULT_TYPES), default: defaults.allowedTypes };
      break;
    case "custody-vault-allowed-utxo-chains":
      properties.allowedChains = { ...stringList(UTXO_CHAIN_IDS), default: defaults.allowedChains };
      break;
    case "custody-vault-in-vault-group":
      properties.valueBearingTypes = {
        ...stringList(VAULT_TYPES),
        default: defaults.valueBearingTypes,
      };
      break;
    case "custody-vault-adopt-allow-list":
      properties.allowedNames = { ...stringList([]), default: defaults.allowedNames };
      break;
    case "custody-vault-archive-allow-list":
      properties.allowedNames = { ...stringList([]), default: defaults.allowedNames };
      properties.valueBearingTypes = {
        ...stringList(VAULT_TYPES),
        default: defaults.valueBearingTypes,
      };
      break;
    default:
      return undefined;
  }
  return { properties };
}

type VaultRule<P extends CustodyPolicyName> = (
  vault: VaultView,
  resource: { name: string; protect: boolean },
  settings: Required<CustodyPolicySettings[P]>,
) => string | undefined;

const list = (values: readonly string[]) => values.map((v) => `"${v}"`).join(", ") || "none";

/** The per-vault rules: each returns the violation's text (after the vault's description), or nothing. */
const VAULT_RULES: { [P in Exclude<CustodyPolicyName, "custody-vault-unique-names">]: VaultRule<P> } = {
  // A vault declared archived may drop `protect`: that is the retire flow's second step (docs/policy.md), and
  // removing an archived vault from the program archives nothing.
  "custody-vault-protected": (vault, resource) =>
    resource.protect || vault.archived === true || vault.archived === UNKNOWN
      ? undefined
      : "is not protected: add the resource option `protect: true`, so that no destroy, removal from the program or replacement archives it by accident",
  "custody-vault-name-pattern": (vault, _resource, { pattern }) => {
    if (typeof vault.name !== "string") return undefined;
    return new RegExp(pattern, "u").test(vault.name)
      ? undefined
      : `has a name that does not match the pattern /${pattern}/`;
  },
  "custody-vault-allowed-types": (vault, _resource, { allowedTypes }) => {
    if (typeof vault.type !== "string") return undefined;
    return allowedTypes.includes(vault.type as DeclarableVaultType)
      ? undefined
      : `has type "${vault.type}", which this stack does not allow (allowed: ${list(allowedTypes)})`;
  },
  "custody-vault-allowed-utxo-chains": (vault, _resource, { allowedChains }) => {
    if (typeof vault.chain !== "string") return undefined;
    return allowedChains.includes(vault.chain as UtxoChain)
      ? undefined
      : `is on the UTXO chain "${vault.chain}", which this stack does not allow (allowed: ${list(allowedChains)})`;
  },
  "custody-vault-in-vault-group": (vault, _resource, { valueBearingTypes }) => {
    if (typeof vault.type !== "string" || !valueBearingTypes.includes(vault.type as DeclarableVaultType)) {
      return undefined;
    }
    const groups = vault.vaultGroupIds;
    if (groups === UNKNOWN || (groups && (groups.known.length > 0 || groups.someUnknown))) return undefined;
    return `is a "${vault.type}" vault, which holds assets, and declares no vault group: set \`vaultGroupIds\` to at least one group`;
  },
  "custody-vault-archive-allow-list": (vault, _resource, { allowedNames, valueBearingTypes }) => {
    if (vault.archived !== true || typeof vault.type !== "string") return undefined;
    if (!valueBearingTypes.includes(vault.type as DeclarableVaultType)) return undefined;
    if (typeof vault.name === "string" && allowedNames.includes(vault.name)) return undefined;
    return `is to be archived (\`archived: true\`), but it is a "${vault.type}" vault, which holds assets, and its name is not on this stack's allow-list of vaults that may be archived: move its assets out, then add its name to the allow-list in the same pull request`;
  },
  "custody-vault-adopt-allow-list": (vault, _resource, { allowedNames }) => {
    if (vault.adoptExisting !== true || typeof vault.name !== "string") return undefined;
    return allowedNames.includes(vault.name)
      ? undefined
      : `sets \`adoptExisting: true\`, but its name is not on this stack's allow-list of vaults that may be adopted (allowed: ${list(allowedNames)})`;
  },
};

const DESCRIPTIONS: { [P in CustodyPolicyName]: string } = {
  "custody-vault-protected":
    "Vaults are protected (`protect: true`), so that no change archives one by accident.",
  "custody-vault-name-pattern": "Vault names match the stack's pattern.",
  "custody-vault-allowed-types": "Vaults are of a type the stack allows.",
  "custody-vault-allowed-utxo-chains": "UTXO vaults are on a chain the stack allows.",
  "custody-vault-in-vault-group": "Every vault that holds assets declares at least one vault group.",
  "custody-vault-adopt-allow-list":
    "Only vaults on the stack's allow-list may adopt an existing vault (`adoptExisting`).",
  "custody-vault-archive-allow-list":
    "Only vaults on the stack's allow-list may be archived (`archived: true`) when their type holds assets.",
  "custody-vault-unique-names": "No two vaults of the stack share a name.",
};

function vaultPolicy<P extends Exclude<CustodyPolicyName, "custody-vault-unique-names">>(
  name: P,
  entry: unknown,
): ResourceValidationPolicy {
  const defaults = settingsOf(name, entry);
  const rule = VAULT_RULES[name] as VaultRule<P>;
  return {
    name,
    description: DESCRIPTIONS[name],
    enforcementLevel: enforcementOf(name, entry),
    configSchema: schemaOf(name, defaults as Record<string, string | string[]>),
    validateResource: (args: ResourceValidationArgs, reportViolation: ReportViolation) => {
      if (!isVaultType(args.type)) return;
      const settings = settingsOf(name, defaults, args.getConfig());
      const vault = vaultView(args.props);
      const problem = rule(vault, { name: args.name, protect: args.opts?.protect === true }, settings);
      if (problem) reportViolation(`${describeVault(args.name)} ${problem}. [${name}]`);
    },
  };
}

function uniqueNamesPolicy(entry: unknown): StackValidationPolicy {
  const name = "custody-vault-unique-names";
  settingsOf(name, entry);
  return {
    name,
    description: DESCRIPTIONS[name],
    enforcementLevel: enforcementOf(name, entry),
    validateStack: (args: StackValidationArgs, reportViolation: ReportViolation) => {
      settingsOf(name, args.getConfig());
      const byName = new Map<string, { resource: string; urn: string }[]>();
      for (const resource of args.resources) {
        if (!isVaultType(resource.type)) continue;
        const vaultName = vaultView(resource.props).name;
        // A name not known yet is checked by `pulumi up`, where it is known before the vault is created.
        if (typeof vaultName !== "string") continue;
        const same = byName.get(vaultName) ?? [];
        same.push({ resource: resource.name, urn: resource.urn });
        byName.set(vaultName, same);
      }
      for (const vaults of byName.values()) {
        if (vaults.length < 2) continue;
        const resources = vaults.map((v) => v.resource).join(", ");
        for (const vault of vaults) {
          const others = vaults.filter((v) => v !== vault).map((v) => v.resource);
          reportViolation(
            `${describeVault(vault.resource)} has the same name as resource ${others.join(", ")}: vault names are unique in an organization, so only one of ${resources} can exist. [${name}]`,
            vault.urn,
          );
        }
      }
    },
  };
}

/**
 * The custody policies, for a policy pack: `new PolicyPack("my-pack", { policies: custodyPolicies() })`.
 * @param config Enforcement levels and settings per policy, in the shape of the policy config file. They are
 *   defaults: a stack's config file (`--policy-pack-config`) overrides them. Invalid settings throw an error
 *   naming the policy and the field.
 */
export function custodyPolicies(
  config: CustodyPolicyConfig = {},
): (ResourceValidationPolicy | StackValidationPolicy)[] {
  if (config === null || typeof config !== "object") {
    throw new Error("pulumi-custody policy config: must be an object keyed by policy name");
  }
  for (const key of Object.keys(config)) {
    if (!CUSTODY_POLICY_NAMES.includes(key as CustodyPolicyName)) {
      throw new Error(
        `pulumi-custody policy config: "${key}" is not a custody policy (policies: ${CUSTODY_POLICY_NAMES.join(", ")})`,
      );
    }
  }
  return CUSTODY_POLICY_NAMES.map((name) =>
    name === "custody-vault-unique-names" ? uniqueNamesPolicy(config[name]) : vaultPolicy(name, config[name]),
  );
}
