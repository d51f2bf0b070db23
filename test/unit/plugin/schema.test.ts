// The plugin's package schema is generated from the runtime and the sdk: it must be a valid Pulumi package
// schema (Pulumi's own metaschema, vendored in test/fixtures/native-plugin), declare every output the runtime
// writes, and give types that the outputs of real vaults (emulator) actually have.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { SECRET_SIG, SIG_KEY } from "../../../plugin/properties";
import * as plugin from "../../../plugin/provider";
import { packageSchema, type TypeSpec } from "../../../plugin/schema";
import { VAULT_ADDRESS_TOKEN, VAULT_TOKEN } from "../../../plugin/tokens";
import { configure, forgetVerifiedSettings } from "../../../provider/runtime";
import { VAULT_INPUTS } from "../../../provider/runtime/vault/check";
import { VAULT_OUTPUT_NAMES } from "../../../provider/runtime/vault/outputs";
import { VAULT_ADDRESS_INPUTS } from "../../../provider/runtime/vault-address/check-diff";
import { VAULT_ADDRESS_OUTPUT_NAMES } from "../../../provider/runtime/vault-address/outputs";
import { repoPath } from "../../support/pulumi-engine";

type Resource = {
  inputProperties: Record<string, TypeSpec>;
  properties: Record<string, TypeSpec>;
  requiredInputs: string[];
};

const schema = packageSchema() as {
  name: string;
  config: { variables: Record<string, { secret?: boolean; type?: string }> };
  resources: Record<string, Resource>;
  functions: Record<string, unknown>;
};

/** Whether a value has the Pulumi type `spec`. */
function conforms(value: unknown, spec: TypeSpec): boolean {
  if ("$ref" in spec) return spec.$ref === "pulumi.json#/Any";
  switch (spec.type) {
    case "string":
    case "boolean":
    case "number":
      return typeof value === spec.type;
    case "integer":
      return Number.isInteger(value);
    case "array":
      return Array.isArray(value) && value.every((item) => conforms(item, spec.items));
    case "object":
      return (
        value !== null &&
        typeof value === "object" &&
        Object.values(value).every((item) => conforms(item, spec.additionalProperties))
      );
  }
}

describe("plugin package schema", () => {
  let validate: ValidateFunction;
  before(() => {
    const metaschema = JSON.parse(
      fs.readFileSync(repoPath("test", "fixtures", "native-plugin", "pulumi-package-schema.json"), "utf8"),
    );
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
    assert.deepEqual(Object.keys(vault.properties).sort(), [...VAULT_OUTPUT_NAMES].sort());
    assert.deepEqual(Object.keys(vault.inputProperties).sort(), [...VAULT_INPUTS].sort());
    assert.deepEqual(vault.requiredInputs.sort(), ["name", "type"]);
    const address = schema.resources[VAULT_ADDRESS_TOKEN];
    assert.deepEqual(Object.keys(address.properties).sort(), [...VAULT_ADDRESS_OUTPUT_NAMES].sort());
    assert.deepEqual(Object.keys(address.inputProperties).sort(), [...VAULT_ADDRESS_INPUTS].sort());
  });

  it("input enums are enum types with the values check accepts; outputs stay strings", () => {
    const types = (schema as unknown as { types: Record<string, { enum: { value: string }[] }> }).types;
    const vault = schema.resources[VAULT_TOKEN];
    assert.deepEqual(vault.inputProperties.type, {
      $ref: "#/types/custody:index:VaultType",
      replaceOnChanges: true,
    });
    const values = types["custody:index:VaultType"].enum.map((e) => e.value);
    assert.ok(values.includes("evm") && values.includes("utxo"));
    assert.ok(!values.includes("exchange"), "exchange vaults cannot be created");
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

  describe("the outputs of real vaults have the declared types (emulator)", () => {
    let emulator: RunningEmulator;
    before(async () => {
      emulator = await startEmulator({ port: 0 });
      forgetVerifiedSettings();
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
  });
});
