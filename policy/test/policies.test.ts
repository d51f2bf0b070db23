/**
 * The custody policies, called the way the policy pack's server calls them: resource policies with a vault's
 * inputs wrapped in @pulumi/policy's own unknown-checking proxy (so that values not known during a preview
 * are what a real preview sends), the stack policy with the stack's resources.
 */
import { strict as assert } from "node:assert";
import type {
  PolicyResource,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationPolicy,
} from "@pulumi/policy";
import { VAULT_TYPES } from "@pulumi-custody/sdk";
import {
  CUSTODY_POLICY_NAMES,
  type CustodyPolicyConfig,
  type CustodyPolicyName,
  custodyPolicies,
  VALUE_BEARING_VAULT_TYPES,
  VAULT_TYPE_TOKEN,
} from "../index";

// The proxy and the placeholders are the library's internals: the real shape of a preview's inputs.
const proxy = require("@pulumi/policy/proxy") as {
  unknownCheckingProxy<T>(value: T): T;
  unknownStringValue: string;
  unknownBooleanValue: string;
  unknownArrayValue: string;
};
const UNKNOWN_STRING = proxy.unknownStringValue;

interface Violation {
  message: string;
  urn?: string;
}

interface VaultCase {
  resource?: string;
  props: Record<string, unknown>;
  protect?: boolean;
  type?: string;
}

function policy(name: CustodyPolicyName, config?: CustodyPolicyConfig) {
  const found = custodyPolicies(config).find((p) => p.name === name);
  assert.ok(found, `${name} is a policy of the pack`);
  return found;
}

/** Runs one resource policy on one vault, with its inputs behind the library's proxy. */
function validate(
  name: CustodyPolicyName,
  vault: VaultCase,
  options: { config?: CustodyPolicyConfig; fileConfig?: Record<string, unknown> } = {},
): Violation[] {
  const p = policy(name, options.config) as ResourceValidationPolicy;
  assert.equal(typeof p.validateResource, "function");
  const violations: Violation[] = [];
  const resource = vault.resource ?? "treasury";
  const args = {
    type: vault.type ?? VAULT_TYPE_TOKEN,
    props: proxy.unknownCheckingProxy({ __provider: "exports.handler = …", ...vault.props }),
    urn: `urn:pulumi:dev::custody::${VAULT_TYPE_TOKEN}::${resource}`,
    name: resource,
    opts: {
      protect: vault.protect ?? true,
      ignoreChanges: [],
      aliases: [],
      customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
      additionalSecretOutputs: [],
    },
    stackTags: new Map(),
    getConfig: () => options.fileConfig ?? {},
    notApplicable: () => {
      throw new Error("not expected");
    },
    isType: () => false,
    asType: () => undefined,
  } as unknown as ResourceValidationArgs;
  const validations = Array.isArray(p.validateResource) ? p.validateResource : [p.validateResource!];
  for (const v of validations) v(args, (message, urn) => violations.push({ message, urn }));
  return violations;
}

const compliant = {
  name: "Treasury",
  type: "evm",
  vaultGroupIds: ["405a1a60-7075-4457-9d86-26046a4f1930"],
};

describe("@pulumi-custody/policy: the custody policies", () => {
  it("declares every rule once, mandatory by default", () => {
    const policies = custodyPolicies();
    assert.deepEqual(
      policies.map((p) => p.name),
      [...CUSTODY_POLICY_NAMES],
    );
    assert.equal(new Set(policies.map((p) => p.name)).size, 8);
    for (const p of policies) assert.equal(p.enforcementLevel, "mandatory", p.name);
  });

  it("a compliant vault passes every resource policy, and other resource types are not judged", () => {
    for (const name of CUSTODY_POLICY_NAMES) {
      if (name === "custody-vault-unique-names") continue;
      assert.deepEqual(validate(name, { props: compliant }), [], name);
      assert.deepEqual(
        validate(name, {
          props: { name: " bad ", type: "utxo", chain: "bitcoin_mainnet", adoptExisting: true },
          protect: false,
          type: "pulumi-nodejs:dynamic/custody:VaultAddress",
          // `custody-vault-allowed-*` with lists that allow nothing: still nothing to judge.
        }),
        [],
        name,
      );
    }
  });

  it("judges the provider plugin's vaults (custody:index:Vault) as the dynamic provider's", () => {
    const bad = { props: { name: " bad ", type: "utxo", chain: "bitcoin_mainnet", adoptExisting: true } };
    for (const name of CUSTODY_POLICY_NAMES) {
      if (name === "custody-vault-unique-names") continue;
      const dynamic = validate(name, { ...bad, protect: false }).map((v) => v.message);
      const plugin = validate(name, { ...bad, protect: false, type: "custody:index:Vault" }).map(
        (v) => v.message,
      );
      assert.deepEqual(plugin, dynamic, name);
    }
    const judged = CUSTODY_POLICY_NAMES.filter(
      (name) =>
        name !== "custody-vault-unique-names" &&
        validate(name, { ...bad, protect: false, type: "custody:index:Vault" }).length > 0,
    );
    assert.ok(judged.length >= 3, `rules that reported the plugin's vault: ${judged.join(", ")}`);
    assert.deepEqual(
      validate("custody-vault-protected", {
        props: compliant,
        protect: false,
        type: "custody:index:VaultAddress",
      }),
      [],
      "the plugin's addresses are not vaults",
    );
  });

  it("no violation names the vault: a policy cannot tell a secret name, and its messages reach CI logs", () => {
    // A name as a program might declare it with `pulumi.secret(...)`: the pack receives it unwrapped.
    const hidden = "Hidden Cold 7Q2";
    const violations = CUSTODY_POLICY_NAMES.filter((n) => n !== "custody-vault-unique-names").flatMap(
      (policy) =>
        validate(
          policy,
          {
            props: { name: hidden, type: "utxo", chain: "bitcoin_mainnet", adoptExisting: true },
            protect: false,
          },
          {
            fileConfig: (
              {
                "custody-vault-name-pattern": { pattern: "^[a-z]+$" },
                "custody-vault-allowed-types": { allowedTypes: ["evm"] },
                "custody-vault-allowed-utxo-chains": { allowedChains: ["bitcoin_testnet"] },
              } as Record<string, Record<string, unknown>>
            )[policy],
          },
        ),
    );
    assert.ok(violations.length >= 5, `every rule but unique-names reports: ${JSON.stringify(violations)}`);
    for (const v of violations) {
      assert.ok(!v.message.includes(hidden), v.message);
      assert.match(v.message, /^Vault resource treasury /);
    }
  });

  describe("custody-vault-protected", () => {
    it("reports an unprotected vault, naming the vault, the resource and the rule", () => {
      const [v, ...rest] = validate("custody-vault-protected", { props: compliant, protect: false });
      assert.equal(rest.length, 0);
      assert.match(v!.message, /^Vault resource treasury is not protected: .*`protect: true`/);
      assert.match(v!.message, /\[custody-vault-protected\]$/);
    });

    it("names only the resource when the vault name is not known during a preview", () => {
      // What a rule that read the proxied inputs directly would run into.
      assert.throws(
        () => proxy.unknownCheckingProxy({ name: UNKNOWN_STRING }).name,
        /can't be known during preview/,
      );
      const [v] = validate("custody-vault-protected", {
        props: { ...compliant, name: UNKNOWN_STRING },
        protect: false,
      });
      assert.match(v!.message, /^Vault resource treasury is not protected/);
    });
  });

  describe("custody-vault-name-pattern", () => {
    it("by default refuses leading or trailing whitespace", () => {
      assert.equal(
        validate("custody-vault-name-pattern", { props: { ...compliant, name: " Treasury" } }).length,
        1,
      );
      assert.equal(
        validate("custody-vault-name-pattern", { props: { ...compliant, name: "Treasury " } }).length,
        1,
      );
      assert.deepEqual(validate("custody-vault-name-pattern", { props: { ...compliant, name: "T" } }), []);
    });

    it("checks the pattern of the stack's config file, which overrides the one given in code", () => {
      const config: CustodyPolicyConfig = { "custody-vault-name-pattern": { pattern: "^[a-z]+$" } };
      const [v] = validate("custody-vault-name-pattern", { props: compliant }, { config });
      assert.match(
        v!.message,
        /^Vault resource treasury has a name that does not match the pattern \/\^\[a-z\]\+\$\/\. \[custody-vault-name-pattern\]$/,
      );
      const fileConfig = { pattern: "^(dev|prod)-[a-z-]+$" };
      assert.equal(
        validate("custody-vault-name-pattern", { props: compliant }, { config, fileConfig }).length,
        1,
      );
      assert.deepEqual(
        validate(
          "custody-vault-name-pattern",
          { props: { ...compliant, name: "dev-treasury" } },
          { config, fileConfig },
        ),
        [],
      );
    });

    it("skips a name not known during a preview", () => {
      const config: CustodyPolicyConfig = { "custody-vault-name-pattern": { pattern: "^never$" } };
      assert.deepEqual(
        validate("custody-vault-name-pattern", { props: { ...compliant, name: UNKNOWN_STRING } }, { config }),
        [],
      );
    });

    it("an invalid pattern is an error naming the policy and the field", () => {
      assert.throws(
        () => custodyPolicies({ "custody-vault-name-pattern": { pattern: "([" } }),
        /"custody-vault-name-pattern"\.pattern is not a valid regular expression/,
      );
      assert.throws(
        () => validate("custody-vault-name-pattern", { props: compliant }, { fileConfig: { pattern: 42 } }),
        /"custody-vault-name-pattern"\.pattern must be a string/,
      );
    });
  });

  describe("custody-vault-allowed-types", () => {
    const config: CustodyPolicyConfig = { "custody-vault-allowed-types": { allowedTypes: ["evm", "utxo"] } };

    it("allows every creatable type by default", () => {
      for (const type of VAULT_TYPES) {
        assert.deepEqual(
          validate("custody-vault-allowed-types", { props: { ...compliant, type } }),
          [],
          type,
        );
      }
    });

    it("reports a type outside the stack's list, and lists what is allowed", () => {
      const [v] = validate(
        "custody-vault-allowed-types",
        { props: { ...compliant, type: "solana" } },
        { config },
      );
      assert.match(
        v!.message,
        /has type "solana", which this stack does not allow \(allowed: "evm", "utxo"\)/,
      );
      assert.deepEqual(validate("custody-vault-allowed-types", { props: compliant }, { config }), []);
      assert.deepEqual(
        validate(
          "custody-vault-allowed-types",
          { props: { ...compliant, type: UNKNOWN_STRING } },
          { config },
        ),
        [],
      );
    });

    it("a type that is not a vault type is an error naming the field", () => {
      assert.throws(
        () => custodyPolicies({ "custody-vault-allowed-types": { allowedTypes: ["evn" as "evm"] } }),
        /"custody-vault-allowed-types"\.allowedTypes has "evn", not one of aptos, /,
      );
    });
  });

  describe("custody-vault-allowed-utxo-chains", () => {
    const testnets = { allowedChains: ["bitcoin_testnet", "bitcoin_testnet_v4"] };

    it("reports a mainnet chain in a stack that allows testnets only", () => {
      const vault = { props: { ...compliant, type: "utxo", chain: "bitcoin_mainnet" } };
      const [v, ...rest] = validate("custody-vault-allowed-utxo-chains", vault, { fileConfig: testnets });
      assert.equal(rest.length, 0);
      assert.match(v!.message, /is on the UTXO chain "bitcoin_mainnet", which this stack does not allow/);
      assert.deepEqual(validate("custody-vault-allowed-utxo-chains", vault), [], "every chain by default");
      assert.deepEqual(
        validate(
          "custody-vault-allowed-utxo-chains",
          { props: { ...vault.props, chain: "bitcoin_testnet" } },
          { fileConfig: testnets },
        ),
        [],
      );
      assert.deepEqual(
        validate(
          "custody-vault-allowed-utxo-chains",
          { props: { ...vault.props, chain: UNKNOWN_STRING } },
          { fileConfig: testnets },
        ),
        [],
      );
    });

    it("an unknown chain id in the config is an error naming the field", () => {
      assert.throws(
        () =>
          validate(
            "custody-vault-allowed-utxo-chains",
            { props: compliant },
            { fileConfig: { allowedChains: ["btc"] } },
          ),
        /"custody-vault-allowed-utxo-chains"\.allowedChains has "btc", not one of bitcoin_mainnet/,
      );
    });
  });

  describe("custody-vault-in-vault-group", () => {
    it("treats every creatable type but black_box as value-bearing", () => {
      assert.deepEqual(
        [...VALUE_BEARING_VAULT_TYPES].sort(),
        VAULT_TYPES.filter((t) => t !== "black_box").sort(),
      );
    });

    it("reports a value-bearing vault that declares no group, and passes a black_box vault", () => {
      const [v] = validate("custody-vault-in-vault-group", { props: { name: "Hot", type: "evm" } });
      assert.match(
        v!.message,
        /^Vault resource treasury is a "evm" vault, which holds assets, and declares no vault group: set `vaultGroupIds`/,
      );
      assert.equal(
        validate("custody-vault-in-vault-group", { props: { ...compliant, vaultGroupIds: [] } }).length,
        1,
      );
      assert.deepEqual(
        validate("custody-vault-in-vault-group", {
          props: { name: "Signer", type: "black_box", keyType: "ecdsa_secp256k1" },
        }),
        [],
      );
    });

    it("passes groups not known during a preview: the whole list, or some of its items", () => {
      assert.deepEqual(
        validate("custody-vault-in-vault-group", {
          props: { ...compliant, vaultGroupIds: proxy.unknownArrayValue },
        }),
        [],
      );
      assert.deepEqual(
        validate("custody-vault-in-vault-group", {
          props: { ...compliant, vaultGroupIds: [UNKNOWN_STRING] },
        }),
        [],
      );
      assert.deepEqual(
        validate("custody-vault-in-vault-group", {
          props: { ...compliant, type: UNKNOWN_STRING, vaultGroupIds: [] },
        }),
        [],
      );
    });

    it("the config file chooses which types count", () => {
      const fileConfig = { valueBearingTypes: ["utxo"] };
      assert.deepEqual(
        validate("custody-vault-in-vault-group", { props: { name: "Hot", type: "evm" } }, { fileConfig }),
        [],
      );
      assert.equal(
        validate(
          "custody-vault-in-vault-group",
          { props: { name: "Cold", type: "utxo", chain: "bitcoin_testnet" } },
          { fileConfig },
        ).length,
        1,
      );
    });
  });

  describe("custody-vault-adopt-allow-list", () => {
    it("allows no adoption by default, and the names of the allow-list only", () => {
      const adopting = { props: { ...compliant, name: "Safe", type: "safe", adoptExisting: true } };
      const [v] = validate("custody-vault-adopt-allow-list", adopting);
      assert.match(
        v!.message,
        /^Vault resource treasury sets `adoptExisting: true`, but its name is not on this stack's allow-list .*\(allowed: none\)\. \[custody-vault-adopt-allow-list\]$/,
      );
      const fileConfig = { allowedNames: ["Safe"] };
      assert.deepEqual(validate("custody-vault-adopt-allow-list", adopting, { fileConfig }), []);
      assert.deepEqual(
        validate("custody-vault-adopt-allow-list", { props: { ...compliant, adoptExisting: false } }),
        [],
      );
      assert.deepEqual(
        validate("custody-vault-adopt-allow-list", {
          props: { ...compliant, adoptExisting: proxy.unknownBooleanValue },
        }),
        [],
      );
    });
  });

  describe("custody-vault-archive-allow-list", () => {
    it("refuses to archive a vault whose type holds assets unless its name is allow-listed", () => {
      const archiving = { props: { ...compliant, archived: true } };
      const [v, ...rest] = validate("custody-vault-archive-allow-list", archiving);
      assert.equal(rest.length, 0);
      assert.match(
        v!.message,
        /^Vault resource treasury is to be archived \(`archived: true`\), but it is a "evm" vault, which holds assets, .* \[custody-vault-archive-allow-list\]$/,
      );
      const fileConfig = { allowedNames: ["Treasury"] };
      assert.deepEqual(validate("custody-vault-archive-allow-list", archiving, { fileConfig }), []);
    });

    it("lets a vault that holds no assets be archived, and judges nothing that is not archived", () => {
      const signer = { name: "Signer", type: "black_box", keyType: "ecdsa_secp256k1", archived: true };
      assert.deepEqual(validate("custody-vault-archive-allow-list", { props: signer }), []);
      for (const archived of [false, undefined, proxy.unknownBooleanValue])
        assert.deepEqual(
          validate("custody-vault-archive-allow-list", { props: { ...compliant, archived } }),
          [],
        );
    });

    it("a vault declared archived may drop `protect` (the retire flow's second step)", () => {
      const unprotected = { props: { ...compliant, archived: true }, protect: false };
      assert.deepEqual(validate("custody-vault-protected", unprotected), []);
      assert.equal(
        validate("custody-vault-protected", { props: { ...compliant, archived: false }, protect: false })
          .length,
        1,
      );
    });
  });

  describe("custody-vault-unique-names", () => {
    function validateStack(resources: { name: string; type?: string; props: Record<string, unknown> }[]) {
      const p = policy("custody-vault-unique-names") as StackValidationPolicy;
      const violations: Violation[] = [];
      p.validateStack(
        {
          resources: resources.map(
            (r) =>
              ({
                type: r.type ?? VAULT_TYPE_TOKEN,
                name: r.name,
                urn: `urn:pulumi:dev::custody::${r.type ?? VAULT_TYPE_TOKEN}::${r.name}`,
                props: proxy.unknownCheckingProxy(r.props),
              }) as unknown as PolicyResource,
          ),
          stackTags: new Map(),
          getConfig: <T extends object>() => ({}) as T,
          notApplicable: () => {
            throw new Error("not expected");
          },
        },
        (message, urn) => violations.push({ message, urn }),
      );
      return violations;
    }

    it("counts the plugin's vaults (custody:index:Vault) with the dynamic provider's", () => {
      const violations = validateStack([
        { name: "a", props: { name: "Treasury", type: "evm" } },
        { name: "b", type: "custody:index:Vault", props: { name: "Treasury", type: "solana" } },
      ]);
      assert.deepEqual(
        violations.map((v) => v.urn),
        [
          `urn:pulumi:dev::custody::${VAULT_TYPE_TOKEN}::a`,
          "urn:pulumi:dev::custody::custody:index:Vault::b",
        ],
      );
    });

    it("reports each vault that shares its name with another, on that vault's URN", () => {
      const violations = validateStack([
        { name: "a", props: { name: "Treasury", type: "evm" } },
        { name: "b", props: { name: "Treasury", type: "solana" } },
        { name: "c", props: { name: "Cold", type: "evm" } },
        { name: "d", type: "pulumi-nodejs:dynamic/custody:VaultAddress", props: { name: "Treasury" } },
        { name: "e", props: { name: UNKNOWN_STRING, type: "evm" } },
        { name: "f", props: { name: UNKNOWN_STRING, type: "evm" } },
      ]);
      assert.deepEqual(
        violations.map((v) => v.urn),
        [
          `urn:pulumi:dev::custody::${VAULT_TYPE_TOKEN}::a`,
          `urn:pulumi:dev::custody::${VAULT_TYPE_TOKEN}::b`,
        ],
      );
      assert.match(
        violations[0]!.message,
        /^Vault resource a has the same name as resource b: .* \[custody-vault-unique-names\]$/,
      );
    });

    it("passes distinct names", () => {
      assert.deepEqual(
        validateStack([
          { name: "a", props: { name: "Treasury", type: "evm" } },
          { name: "b", props: { name: "treasury", type: "evm" } },
        ]),
        [],
      );
    });
  });

  describe("configuration in code", () => {
    it("sets enforcement levels, and refuses names that are not custody policies or settings", () => {
      const policies = custodyPolicies({
        "custody-vault-protected": "advisory",
        "custody-vault-unique-names": { enforcementLevel: "disabled" },
      });
      const level = (n: string) => policies.find((p) => p.name === n)?.enforcementLevel;
      assert.equal(level("custody-vault-protected"), "advisory");
      assert.equal(level("custody-vault-unique-names"), "disabled");
      assert.equal(level("custody-vault-name-pattern"), "mandatory");
      assert.throws(
        () => custodyPolicies({ "custody-vault-protect": "advisory" } as CustodyPolicyConfig),
        /"custody-vault-protect" is not a custody policy \(policies: custody-vault-protected, /,
      );
      assert.throws(
        () => custodyPolicies({ "custody-vault-protected": "strict" as "advisory" }),
        /"custody-vault-protected"\.enforcementLevel must be one of advisory, mandatory, remediate, disabled/,
      );
      assert.throws(
        () => custodyPolicies({ "custody-vault-adopt-allow-list": { allowed: ["x"] } as never }),
        /"custody-vault-adopt-allow-list"\.allowed is not a setting of this policy \(settings: allowedNames\)/,
      );
    });

    it("publishes the effective settings as the config schema's defaults", () => {
      const p = policy("custody-vault-allowed-types", {
        "custody-vault-allowed-types": { allowedTypes: ["evm"] },
      });
      assert.deepEqual(p.configSchema?.properties.allowedTypes?.default, ["evm"]);
      assert.deepEqual(p.configSchema?.properties.allowedTypes?.items, {
        type: "string",
        enum: [...VAULT_TYPES],
      });
    });
  });
});
