/**
 * The Pulumi package schema of the `custody` provider, generated at run time from what the provider already
 * knows: the resource inputs from the runtime's zod input schemas, the outputs from the runtime's output lists
 * (`VAULT_OUTPUT_NAMES`, `VAULT_ADDRESS_OUTPUT_NAMES`), their types from the inputs of the same name or else
 * from the sdk's zod schemas of the API's records, the configuration from `provider/config.ts`'s `SETTINGS`,
 * and the functions from the data sources. Nothing here lists a property by hand.
 *
 * Descriptions come from the zod schemas' `.describe()` where there is one. Outputs whose type cannot be
 * derived are typed `pulumi.json#/Any`.
 */
import { z } from "zod";
import { SETTINGS } from "../provider/config";
import { vaultInputsSchema } from "../provider/runtime/vault/check";
import { VAULT_REPLACE_INPUTS } from "../provider/runtime/vault/diff";
import { VAULT_OUTPUT_NAMES } from "../provider/runtime/vault/outputs";
import { vaultAddressInputsSchema } from "../provider/runtime/vault-address/check-diff";
import { VAULT_ADDRESS_OUTPUT_NAMES } from "../provider/runtime/vault-address/outputs";
import * as sdkSchema from "../sdk/schema";
import { FUNCTIONS, functionToken } from "./functions";
import { PACKAGE, VAULT_ADDRESS_TOKEN, VAULT_TOKEN } from "./tokens";

/** The plugin's version: the package's. */
export const PLUGIN_VERSION: string = require("../../package.json").version;

/** A JSON Schema node, as `z.toJSONSchema` writes it. */
type JsonSchema = {
  type?: string | string[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
};

/** A Pulumi type spec (`pulumi.json` `$defs/typeSpec`). */
export type TypeSpec =
  | { type: "string" | "boolean" | "integer" | "number" }
  | { type: "array"; items: TypeSpec }
  | { type: "object"; additionalProperties: TypeSpec }
  | { $ref: string };

/** A Pulumi property spec. */
export type PropertySpec = TypeSpec & { description?: string; secret?: boolean; replaceOnChanges?: boolean };

const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };

/** The Pulumi type of a JSON Schema node; `Any` for what Pulumi types cannot say (unions, open objects). */
export function pulumiType(node: JsonSchema | undefined): TypeSpec {
  if (!node) return ANY;
  if (node.allOf?.length === 1) return pulumiType(node.allOf[0]);
  if (node.anyOf) {
    const options = node.anyOf.map(pulumiType);
    const first = JSON.stringify(options[0]);
    return options.every((o) => JSON.stringify(o) === first) ? options[0] : ANY;
  }
  const type = node.type ?? (node.const !== undefined ? typeof node.const : undefined);
  switch (type) {
    case "string":
    case "boolean":
    case "integer":
    case "number":
      return { type };
    case "array":
      return { type: "array", items: pulumiType(node.items) };
    case "object":
      if (!node.properties && typeof node.additionalProperties === "object")
        return { type: "object", additionalProperties: pulumiType(node.additionalProperties) };
      return ANY;
    default:
      return ANY;
  }
}

function jsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

/** The snake_case spelling of an output name, as the API's records spell fields. */
function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The sdk's zod object schemas of API records of one kind (every modelled vault type, say). */
function recordSchemas(matches: (exportName: string) => boolean): JsonSchema[] {
  return Object.entries(sdkSchema)
    .filter(([name, value]) => matches(name) && value instanceof z.ZodObject)
    .map(([, value]) => jsonSchema(value as z.ZodType));
}

/**
 * The type of an output that is no input: the API field of the same name (snake_case) when every record
 * schema that has it agrees on one scalar type; otherwise `Any`.
 */
function recordFieldType(name: string, records: JsonSchema[]): TypeSpec {
  const types = records
    .map((record) => record.properties?.[snake(name)])
    .filter((node): node is JsonSchema => node !== undefined)
    .map((node) => JSON.stringify(pulumiType(node)));
  const [first] = types;
  if (first === undefined || types.some((t) => t !== first)) return ANY;
  const type = JSON.parse(first) as TypeSpec;
  return "type" in type && ["string", "boolean", "integer", "number"].includes(type.type) ? type : ANY;
}

function withDescription(type: TypeSpec, node: JsonSchema | undefined): PropertySpec {
  return node?.description ? { ...type, description: node.description } : { ...type };
}

/** The enum types the inputs declare (`custody:index:VaultType` …), filled by {@link resourceSpec}. */
type EnumTypes = Record<string, { type: "string"; enum: { value: string }[]; description: string }>;

/**
 * The type of an input: a string enum of the input schema becomes an enum type named after the resource and
 * the property (`custody:index:VaultKeyType`), so that generated SDKs offer the values.
 */
function inputType(resource: string, name: string, node: JsonSchema, enums: EnumTypes): TypeSpec {
  const values = node.enum;
  if (node.type !== "string" || !values?.every((v): v is string => typeof v === "string"))
    return pulumiType(node);
  const token = `${PACKAGE}:index:${resource}${name[0].toUpperCase()}${name.slice(1)}`;
  enums[token] = {
    type: "string",
    enum: values.map((value) => ({ value })),
    description: `The values a ${resource} accepts for \`${name}\`.`,
  };
  return { $ref: `#/types/${token}` };
}

/** The resource spec of one resource, from its input schema and output names. */
function resourceSpec(options: {
  name: string;
  enums: EnumTypes;
  description: string;
  inputs: z.ZodType;
  outputs: readonly string[];
  replaceOnChanges: readonly string[];
  records: JsonSchema[];
}): Record<string, unknown> {
  const inputSchema = jsonSchema(options.inputs);
  const inputProperties: Record<string, PropertySpec> = {};
  for (const [name, node] of Object.entries(inputSchema.properties ?? {})) {
    inputProperties[name] = withDescription(inputType(options.name, name, node, options.enums), node);
    if (options.replaceOnChanges.includes(name)) inputProperties[name].replaceOnChanges = true;
  }
  const properties: Record<string, PropertySpec> = {};
  for (const name of options.outputs) {
    const input = inputSchema.properties?.[name];
    // Outputs show what the API reports, which may be a value no input accepts: enums stay strings there.
    properties[name] = input
      ? withDescription(pulumiType(input), input)
      : recordFieldType(name, options.records);
  }
  return {
    description: options.description,
    inputProperties,
    requiredInputs: inputSchema.required ?? [],
    properties,
    // Outputs always present: those the input schema requires (a read reports them from the live object).
    required: options.outputs.filter((name) => (inputSchema.required ?? []).includes(name)),
  };
}

/** The configuration variables: one per setting, secret where the setting is a credential. */
function configVariables(): Record<string, PropertySpec> {
  const variables: Record<string, PropertySpec> = {};
  for (const [name, spec] of Object.entries(SETTINGS)) {
    const example = spec.example;
    const type: TypeSpec = /^\d+$/.test(example) ? { type: "integer" } : { type: "string" };
    variables[name] = {
      ...type,
      description: `Stack config \`${spec.configKey}\`; when unset, the ${spec.envVar} environment variable (e.g. ${example}).`,
      ...(spec.secret ? { secret: true } : {}),
    };
  }
  return variables;
}

/** The package schema (JSON), as `GetSchema` returns it. */
export function packageSchema(): Record<string, unknown> {
  const vaultRecords = recordSchemas((name) => name.endsWith("Vault"));
  const addressRecords = recordSchemas((name) => name === "UtxoVaultAddress");
  const enums: EnumTypes = {};
  const functions: Record<string, unknown> = {};
  for (const name of Object.keys(FUNCTIONS)) {
    functions[functionToken(name)] = {
      description: `The \`${name}\` data source of pulumi-custody, served by the provider.`,
      inputs: { type: "object", properties: {} },
      outputs: { type: "object", properties: {} },
    };
  }
  return {
    name: PACKAGE,
    displayName: "Custody",
    version: PLUGIN_VERSION,
    description: "Custody vaults and vault addresses, and read-only data sources of the custody API.",
    keywords: ["pulumi", "custody", "vault", "category/cloud"],
    license: "Apache-2.0",
    meta: { moduleFormat: "(.*)" },
    config: { variables: configVariables(), defaults: [] },
    provider: {
      description: `The ${PACKAGE} provider.`,
      inputProperties: configVariables(),
    },
    resources: {
      [VAULT_TOKEN]: resourceSpec({
        name: "Vault",
        enums,
        description:
          "A custody vault. Destroying it archives the vault (the API cannot delete vaults); creating it again restores it.",
        inputs: vaultInputsSchema(),
        outputs: VAULT_OUTPUT_NAMES,
        replaceOnChanges: VAULT_REPLACE_INPUTS,
        records: vaultRecords,
      }),
      [VAULT_ADDRESS_TOKEN]: resourceSpec({
        name: "VaultAddress",
        enums,
        description:
          "An address of a UTXO vault. Destroying it only forgets it (the API cannot delete addresses). Import id: `<vault id>/<address id>`.",
        inputs: vaultAddressInputsSchema(),
        outputs: VAULT_ADDRESS_OUTPUT_NAMES,
        replaceOnChanges: ["vaultId", "addressType"],
        records: addressRecords,
      }),
    },
    types: enums,
    functions,
  };
}
