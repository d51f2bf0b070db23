// The plugin's package schema is generated from the runtime and the sdk: it must be a valid Pulumi package
// schema (Pulumi's own metaschema, vendored in test/fixtures), declare every output the runtime
// writes, and give types that the outputs of real vaults (emulator) actually have.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import * as publicApi from "pulumi-custody";
import {
  configure,
  disconnect,
  vaultAddressResource,
  vaultDetailFields,
  vaultResource,
} from "pulumi-custody/core";
import { DATA_SOURCES } from "pulumi-custody/data-sources";
import { invoke } from "../functions";
import { SECRET_SIG, SIG_KEY } from "../properties";
import * as plugin from "../provider";
import { packageSchema, type TypeSpec } from "../schema";
import { VAULT_ADDRESS_TOKEN, VAULT_TOKEN } from "../tokens";

/** Pulumi's package-schema metaschema, from the sources (compiled tests run from `dist/test`). */
const METASCHEMA = path.join(__dirname, "..", "..", "test", "fixtures", "pulumi-package-schema.json");

type Resource = {
  inputProperties: Record<string, TypeSpec>;
  properties: Record<string, TypeSpec>;
  requiredInputs: string[];
};

type ObjectSpec = { type: "object"; properties: Record<string, TypeSpec>; required?: string[] };
type Declared = ObjectSpec | { type: "string"; enum: { value: string }[] };
type FunctionSpec = { inputs: ObjectSpec; outputs: ObjectSpec };

const schema = packageSchema() as {
  name: string;
  config: { variables: Record<string, { secret?: boolean; type?: string }> };
  resources: Record<string, Resource>;
  types: Record<string, Declared>;
  functions: Record<string, FunctionSpec>;
};

/** Whether every field of `value` is declared in `spec` with a type it has, and every required one is there. */
function conformsToObject(value: unknown, spec: ObjectSpec, anyIsObject = false): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    (spec.required ?? []).every((key) => key in record) &&
    Object.entries(record).every(
      ([key, item]) => spec.properties[key] && conforms(item, spec.properties[key], anyIsObject),
    )
  );
}

/**
 * Whether a value has the Pulumi type `spec` (a reference to this package's types included). With
 * `anyIsObject`, `Any` takes objects only: the generated Python SDK checks a function result's `Any` field with
 * `isinstance(value, dict)`.
 */
function conforms(value: unknown, spec: TypeSpec, anyIsObject = false): boolean {
  if ("$ref" in spec) {
    if (spec.$ref === "pulumi.json#/Any")
      return !anyIsObject || (typeof value === "object" && value !== null);
    const declared = schema.types[spec.$ref.replace("#/types/", "")];
    if (!declared) return false;
    if (declared.type === "string") return declared.enum.some((e) => e.value === value);
    return conformsToObject(value, declared, anyIsObject);
  }
  switch (spec.type) {
    case "string":
    case "boolean":
    case "number":
      return typeof value === spec.type;
    case "integer":
      return Number.isInteger(value);
    case "array":
      return Array.isArray(value) && value.every((item) => conforms(item, spec.items, anyIsObject));
    case "object":
      return (
        value !== null &&
        typeof value === "object" &&
        Object.values(value).every((item) => conforms(item, spec.additionalProperties, anyIsObject))
      );
  }
}

describe("plugin package schema", () => {
  let validate: ValidateFunction;
  before(() => {
    const metaschema = JSON.parse(fs.readFileSync(METASCHEMA, "utf8"));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    validate = ajv.compile(metaschema);
  });

  it("is valid against Pulumi's package-schema metaschema (v3.248.0)", () => {
    const valid = validate(schema);
    assert.ok(valid, JSON.stringify(validate.errors, null, 2));
  });

  it("the metaschema check would catch a broken schema", () => {
    const broken = structuredClone(schema);
    broken.resources[VAULT_TOKEN].properties.name = { type: "text" } as unknown as TypeSpec;
    assert.equal(validate(broken), false);
  });

  it("has package custody, both resource tokens and every data source as a function", () => {
    assert.equal(schema.name, "custody");
    assert.deepEqual(Object.keys(schema.resources).sort(), [VAULT_TOKEN, VAULT_ADDRESS_TOKEN].sort());
    assert.ok(schema.functions["custody:index:getVaults"]);
    assert.ok(schema.functions["custody:index:getVaultAddresses"]);
  });

  it("declares every output and input of the runtime", () => {
    const vault = schema.resources[VAULT_TOKEN];
    assert.deepEqual(Object.keys(vault.properties).sort(), [...vaultResource.outputNames].sort());
    assert.deepEqual(Object.keys(vault.inputProperties).sort(), [...vaultResource.inputNames].sort());
    assert.deepEqual(vault.requiredInputs.sort(), ["name", "type"]);
    // The dynamic provider's internal input (a secret name, provider/core/vault/secret-name.ts) is not declared.
    for (const key of [...Object.keys(vault.inputProperties), ...Object.keys(vault.properties)])
      assert.ok(!key.startsWith("__"), `${key} is internal`);
    const address = schema.resources[VAULT_ADDRESS_TOKEN];
    assert.deepEqual(Object.keys(address.properties).sort(), [...vaultAddressResource.outputNames].sort());
    // The dynamic resource class's own input (the name is the resource name: nameIsDefault) is not declared.
    assert.deepEqual(
      Object.keys(address.inputProperties).sort(),
      vaultAddressResource.inputNames.filter((name) => name !== "nameIsDefault").sort(),
    );
  });

  it("VaultAddress: nameIsDefault is an output, never an input a program could declare", () => {
    const address = schema.resources[VAULT_ADDRESS_TOKEN];
    assert.ok(!("nameIsDefault" in address.inputProperties), "not an input");
    assert.ok("nameIsDefault" in address.properties, "an output");
  });

  it("input enums are enum types with the values an existing object can have; outputs stay strings", () => {
    const types = (schema as unknown as { types: Record<string, { enum: { value: string }[] }> }).types;
    const vault = schema.resources[VAULT_TOKEN];
    assert.deepEqual(vault.inputProperties.type, {
      $ref: "#/types/custody:index:VaultType",
      replaceOnChanges: true,
    });
    const values = types["custody:index:VaultType"].enum.map((e) => e.value);
    assert.ok(values.includes("evm") && values.includes("utxo"));
    // Exchange vaults cannot be created but can be adopted (and imported): the value is declared, and says so.
    const exchange = types["custody:index:VaultType"].enum.find((e) => e.value === "exchange") as
      | { value: string; description?: string }
      | undefined;
    assert.match(exchange?.description ?? "", /cannot be created.*adoptExisting: true/);
    assert.deepEqual(types["custody:index:VaultAddressAddressType"].enum.map((e) => e.value).sort(), [
      "legacy",
      "segwit",
      "taproot",
    ]);
    assert.deepEqual(vault.properties.type, { type: "string" });
  });

  it("configuration: baseUrl, accessToken (secret), maxRetries and requestsPerMinute (integers)", () => {
    const variables = schema.config.variables;
    assert.deepEqual(Object.keys(variables).sort(), [
      "accessToken",
      "baseUrl",
      "maxRetries",
      "requestsPerMinute",
    ]);
    assert.equal(variables.accessToken.secret, true);
    assert.equal(variables.baseUrl.secret, undefined);
    assert.equal(variables.maxRetries.type, "integer");
    assert.equal(variables.requestsPerMinute.type, "integer");
  });

  it("details, pendingProposal and acquisition are typed from the runtime, not Any", () => {
    const vault = schema.resources[VAULT_TOKEN].properties;
    const details = schema.types["custody:index:VaultDetails"] as ObjectSpec;
    assert.deepEqual(vault.details, { $ref: "#/types/custody:index:VaultDetails" });
    assert.deepEqual(Object.keys(details.properties), Object.keys(vaultDetailFields));
    assert.deepEqual(details.properties.createdAt, { type: "string" });
    const proposal = schema.types["custody:index:PendingVaultGroupProposal"] as ObjectSpec;
    assert.deepEqual(vault.pendingProposal, { $ref: "#/types/custody:index:PendingVaultGroupProposal" });
    assert.deepEqual(proposal.properties.addedVaultGroupIds, {
      type: "array",
      items: { type: "string" },
      description: "Groups the proposal adds the vault to.",
    });
    assert.deepEqual(proposal.required?.sort(), [
      "addedVaultGroupIds",
      "removedVaultGroupIds",
      "submittedAt",
    ]);
    assert.deepEqual(vault.acquisition, { $ref: "#/types/custody:index:VaultAcquisition" });
    const acquisition = schema.types["custody:index:VaultAcquisition"] as { enum: { value: string }[] };
    assert.deepEqual(acquisition.enum.map((e) => e.value).sort(), ["adopted", "created", "restored"]);
  });

  it("types everything: no resource output, function result or nested field is Any", () => {
    const untyped: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== "object") return;
      if ((node as { $ref?: string }).$ref === "pulumi.json#/Any") untyped.push(at);
      for (const [key, child] of Object.entries(node)) walk(child, `${at}/${key}`);
    };
    walk(schema, "");
    assert.deepEqual(untyped, []);
    // Nested objects of results are named types of their own, e.g. the vault groups of a vault.
    const item = schema.types["custody:index:GetVaultsItem"] as ObjectSpec;
    assert.deepEqual(item.properties.vaultGroups, {
      type: "array",
      items: { $ref: "#/types/custody:index:GetVaultsItemVaultGroupsItem" },
    });
    const group = schema.types["custody:index:GetVaultsItemVaultGroupsItem"] as ObjectSpec;
    assert.deepEqual(group.properties, { id: { type: "string" }, name: { type: "string" } });
    const address = schema.resources["custody:index:VaultAddress"].properties;
    assert.deepEqual(address.address, { type: "string" });
    const vault = schema.resources[VAULT_TOKEN].properties;
    assert.deepEqual(vault.declaredVaultGroupIds, { type: "array", items: { type: "string" } });
  });

  describe("functions", () => {
    const specs = Object.values(DATA_SOURCES).map((entry) => entry.spec);

    it("every data source of the package is a function, with its arguments as inputs", () => {
      // The registry holds every plain data-source function that `pulumi-custody` exports, and nothing else.
      const exported = Object.keys(publicApi).filter(
        (name) => /^(get|export)[A-Z]/.test(name) && !name.endsWith("Output"),
      );
      assert.deepEqual(specs.map((s) => s.name).sort(), exported.sort());
      assert.deepEqual(
        Object.keys(schema.functions).sort(),
        exported.map((name) => `custody:index:${name}`).sort(),
      );
      for (const spec of specs) {
        const fn = schema.functions[`custody:index:${spec.name}`];
        assert.deepEqual(Object.keys(fn.inputs.properties).sort(), Object.keys(spec.args).sort(), spec.name);
        for (const [arg, type] of Object.entries(fn.inputs.properties)) {
          assert.ok(!("$ref" in type), `${spec.name}.${arg} is typed (${JSON.stringify(type)})`);
        }
      }
      const getVaults = schema.functions["custody:index:getVaults"].inputs;
      assert.deepEqual(getVaults.properties.names, { type: "array", items: { type: "string" } });
      assert.equal((getVaults.properties.maxItems as { type: string }).type, "integer");
      assert.deepEqual(schema.functions["custody:index:getUser"].inputs.required, ["id"]);
      assert.equal(schema.functions["custody:index:getVault"].inputs.required, undefined);
      assert.equal(getVaults.required, undefined, "every filter of a list, maxItems too, is optional");
    });

    it("every function has typed outputs: a list as { items: [...] }, a keyed result as { items: { id: ... } }, one object as its fields", () => {
      for (const spec of specs) {
        const outputs = schema.functions[`custody:index:${spec.name}`].outputs;
        assert.ok(spec.fields, `${spec.name} has a field table`);
        let fields: ObjectSpec = outputs;
        if (spec.kind !== "get") {
          assert.deepEqual(Object.keys(outputs.properties), ["items"], spec.name);
          const items = outputs.properties.items as {
            type: string;
            items?: { $ref: string };
            additionalProperties?: { $ref: string };
          };
          const item = spec.kind === "list" ? items.items : items.additionalProperties;
          assert.equal(items.type, spec.kind === "list" ? "array" : "object", spec.name);
          fields = schema.types[item!.$ref.replace("#/types/", "")] as ObjectSpec;
        }
        assert.deepEqual(Object.keys(fields.properties), Object.keys(spec.fields!), spec.name);
        const typed = Object.values(fields.properties).filter(
          (t) => !("$ref" in t) || t.$ref !== "pulumi.json#/Any",
        );
        assert.ok(typed.length > 0, `${spec.name}: some fields typed`);
      }
    });
  });

  describe("the outputs of real vaults have the declared types (emulator)", () => {
    let emulator: RunningEmulator;
    before(async () => {
      emulator = await startEmulator({ port: 0 });
      await disconnect();
      plugin.configure({
        baseUrl: emulator.baseUrl,
        accessToken: { [SIG_KEY]: SECRET_SIG, value: emulator.accessToken },
        requestsPerMinute: 0,
      });
    });
    after(async () => {
      configure(undefined);
      await emulator.close();
    });

    const cases = [
      { name: "schema evm", type: "evm" },
      { name: "schema utxo", type: "utxo", chain: "bitcoin_testnet" },
      { name: "schema ton", type: "ton" },
      { name: "schema cosmos", type: "cosmos" },
      { name: "schema black_box", type: "black_box", keyType: "ecdsa_secp256k1" },
    ];
    for (const inputs of cases) {
      it(`${inputs.type}: every output conforms to its schema type`, async () => {
        const { id, outputs } = await plugin.create(VAULT_TOKEN, inputs);
        const properties = schema.resources[VAULT_TOKEN].properties;
        for (const [key, value] of Object.entries(outputs)) {
          assert.ok(properties[key], `output ${key} is declared`);
          assert.ok(
            conforms(value, properties[key]),
            `${key} = ${JSON.stringify(value)} is a ${JSON.stringify(properties[key])}`,
          );
        }
        if (inputs.type !== "utxo") return;
        const address = await plugin.create(VAULT_ADDRESS_TOKEN, { vaultId: id, name: "schema address" });
        const addressProperties = schema.resources[VAULT_ADDRESS_TOKEN].properties;
        for (const [key, value] of Object.entries(address.outputs)) {
          assert.ok(conforms(value, addressProperties[key]), `${key} = ${JSON.stringify(value)}`);
        }
      });
    }

    const calls: [string, (ids: { vaultId: string; userId: string }) => Record<string, unknown>][] = [
      ["getVaults", () => ({ maxItems: 20 })],
      ["getVault", ({ vaultId }) => ({ id: vaultId })],
      ["exportVaultBalances", () => ({})],
      ["getVaultAddresses", ({ vaultId }) => ({ vaultId })],
      ["getVaultAssets", ({ vaultId }) => ({ vaultId })],
      ["getUsers", () => ({})],
      ["getUser", ({ userId }) => ({ id: userId })],
      ["getUserGroups", () => ({})],
      ["getBlockchains", () => ({ maxItems: 20 })],
      ["getSuggestedFees", () => ({ chains: ["bitcoin_mainnet", "evm_ethereum_mainnet"] })],
    ];
    for (const [name, args] of calls) {
      it(`${name}: a real call's outputs conform to the declared outputs`, async () => {
        const utxo = await plugin.create(VAULT_TOKEN, {
          name: `fn ${name}`,
          type: "utxo",
          chain: "bitcoin_testnet",
        });
        const users = await invoke("custody:index:getUsers", {});
        const userId = (users.value.items as { id: string }[])[0].id;
        const { value } = await invoke(`custody:index:${name}`, args({ vaultId: utxo.id, userId }));
        const outputs = schema.functions[`custody:index:${name}`].outputs;
        assert.ok(
          conformsToObject(value, outputs, true),
          `${name} = ${JSON.stringify(value).slice(0, 2000)}`,
        );
        // A new vault holds no assets in the emulator: `getVaultAssets` checks the list's shape only.
        if (name.endsWith("s") && name !== "exportVaultBalances" && name !== "getVaultAssets")
          assert.ok(Object.keys(value.items as object).length > 0, `${name} returned items to check`);
        if (name === "getSuggestedFees") {
          const fees = value.items as Record<string, { type: string; evm?: { pricing: string } }>;
          assert.deepEqual(Object.keys(fees).sort(), ["bitcoin_mainnet", "evm_ethereum_mainnet"]);
          assert.equal(fees.evm_ethereum_mainnet.type, "evm");
          assert.ok(fees.evm_ethereum_mainnet.evm?.pricing, "the EVM fees are there, typed");
        }
      });
    }
  });
});
