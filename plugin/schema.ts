/**
 * The Pulumi package schema of the `custody` provider, generated at run time from what the provider already
 * knows: the resource inputs from the runtime's zod input schemas, the outputs from the runtime's output lists
 * (`VAULT_OUTPUT_NAMES`, `VAULT_ADDRESS_OUTPUT_NAMES`), their types from the inputs of the same name or else
 * from the runtime's output interfaces (`VaultOutputs`), the configuration from `provider/config.ts`'s `SETTINGS`,
 * and the functions from the data sources' specs (`DataSourceSpec` of `provider/data-sources/define.ts`: the
 * arguments' zod types and the result's field table). Nothing here lists a property by hand.
 *
 * Descriptions come from the zod schemas' `.describe()` where there is one. The output interfaces and the field
 * tables' readers have their types for the compiler only: the provider's build writes them
 * (`pulumi-custody/field-types.json`), and objects with fixed fields become named object types.
 */
import {
  ADOPT_ONLY_VAULT_TYPES,
  type FieldReader,
  pendingVaultGroupProposalSchema,
  type ResourceDescriptor,
  SETTINGS,
  VAULT_ACQUISITIONS,
  vaultAddressResource,
  vaultDetailFields,
  vaultResource,
} from "pulumi-custody/core";
import type { DataSourceSpec } from "pulumi-custody/data-sources";
import { z } from "zod";
import { FUNCTION_SPECS, functionToken } from "./functions";
import { goLanguageOptions } from "./go-sdk";
import { sdkReadme } from "./sdk-readme";
import { PACKAGE } from "./tokens";

const packageJson: { version: string } = require("../package.json");

/** Where the project lives (the package's `repository`). */
const REPOSITORY = "https://github.com/pulumi-custody/pulumi-custody";

/** Where the engine finds the plugin's archives: the releases of {@link REPOSITORY}. */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/pulumi-custody/pulumi-custody";

/** The plugin's version: the package's. */
export const PLUGIN_VERSION: string = packageJson.version;

/**
 * The oldest Pulumi SDK the generated SDKs accept: the version this project builds and tests with, whose codegen
 * writes them (the repository's pinned `@pulumi/pulumi` and CLI; a unit test keeps the two equal).
 */
export const PULUMI_SDK_FLOOR = "3.248.0";

/**
 * The per-language options of the schema, read by every SDK generator (`pulumi package gen-sdk`, `pulumi
 * import` code, `pulumi convert`): the SDKs claim the schema's version (the generators write 0.0.0 otherwise),
 * the npm package has our scope, and both require the Pulumi SDK they were generated for. Both carry a README
 * that says how to get the plugin (plugin/sdk-readme.ts). The Python SDK is described by a `pyproject.toml`,
 * whose `[project.urls]` the release completes (scripts/release-artifacts.sh: the generator writes only
 * `Homepage` and `Repository`).
 */
function languageOptions(): Record<string, object> {
  const major = Number(PULUMI_SDK_FLOOR.split(".")[0]);
  const facts = { version: PLUGIN_VERSION, repository: REPOSITORY };
  return {
    nodejs: {
      packageName: `@pulumi-custody/${PACKAGE}`,
      respectSchemaVersion: true,
      dependencies: { "@pulumi/pulumi": `^${PULUMI_SDK_FLOOR}` },
      readme: sdkReadme("nodejs", facts),
    },
    python: {
      respectSchemaVersion: true,
      pythonRequires: ">=3.9",
      requires: { pulumi: `>=${PULUMI_SDK_FLOOR},<${major + 1}.0.0` },
      readme: sdkReadme("python", facts),
      pyproject: { enabled: true },
    },
    go: goLanguageOptions(),
  };
}

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

function jsonSchema(schema: z.ZodType, io: "input" | "output" = "input"): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
}

function withDescription(type: TypeSpec, node: JsonSchema | undefined): PropertySpec {
  return node?.description ? { ...type, description: node.description } : { ...type };
}

/** The enum and object types the schema declares (`custody:index:VaultType` …), filled as specs are made. */
type EnumTypes = Record<
  string,
  | { type: "string"; enum: { value: string; description?: string }[]; description: string }
  | { type: "object"; properties: Record<string, PropertySpec>; required?: string[]; description: string }
>;

/**
 * Why some enum values are for adoption only, by resource and input: the values are declared (an existing
 * vault of that type can be declared and imported, and the code `pulumi import` generates names them as enum
 * members, which compiles in every language), and `check` refuses a create of them.
 */
const ADOPT_ONLY_VALUES: Record<string, Record<string, Readonly<Record<string, string>>>> = {
  [vaultResource.kind]: { type: ADOPT_ONLY_VAULT_TYPES },
};

/**
 * The type of an input: a string enum of the input schema becomes an enum type named after the resource and
 * the property (`custody:index:VaultKeyType`), so that generated SDKs offer the values. The enum holds every
 * value that an existing object can have, so that an import of any object generates code that compiles.
 */
function inputType(resource: string, name: string, node: JsonSchema, enums: EnumTypes): TypeSpec {
  const values = node.enum;
  if (node.type !== "string" || !values?.every((v): v is string => typeof v === "string"))
    return pulumiType(node);
  const token = `${PACKAGE}:index:${resource}${name[0].toUpperCase()}${name.slice(1)}`;
  const adoptOnly = ADOPT_ONLY_VALUES[resource]?.[name] ?? {};
  enums[token] = {
    type: "string",
    enum: values.map((value) =>
      Object.hasOwn(adoptOnly, value)
        ? { value, description: `${adoptOnly[value]}: adopt an existing one with adoptExisting: true.` }
        : { value },
    ),
    description: `The values a ${resource} accepts for \`${name}\`.`,
  };
  return { $ref: `#/types/${token}` };
}

/** The resource spec of one resource, from its descriptor. */
function resourceSpec(
  resource: ResourceDescriptor,
  enums: EnumTypes,
  /** Types of outputs declared as named types instead (an enum, a field table). */
  outputTypes: Record<string, TypeSpec> = {},
): Record<string, unknown> {
  const options = {
    name: resource.kind,
    enums,
    description: resource.description,
    inputs: resource.inputSchema,
    outputs: resource.outputNames,
    replaceOnChanges: resource.replaceOnChanges,
    // The runtime's interface of the outputs (`VaultOutputs`), whose property types type the outputs.
    outputInterface: `${resource.kind}Outputs`,
    outputTypes,
  };
  const inputSchema = jsonSchema(options.inputs);
  const inputProperties: Record<string, PropertySpec> = {};
  for (const [name, node] of Object.entries(inputSchema.properties ?? {})) {
    inputProperties[name] = withDescription(inputType(options.name, name, node, options.enums), node);
    if (options.replaceOnChanges.includes(name)) inputProperties[name].replaceOnChanges = true;
  }
  const properties: Record<string, PropertySpec> = {};
  const declared = emittedTypes().outputs[options.outputInterface];
  if (!declared)
    throw new Error(`field-types.json has no interface ${options.outputInterface}: ${REGENERATE}`);
  for (const name of options.outputs) {
    const input = inputSchema.properties?.[name];
    const type = declared[name];
    if (!input && !type && !options.outputTypes?.[name])
      throw new Error(
        `output ${name} of ${options.name} is neither an input nor in ${options.outputInterface}`,
      );
    // Outputs show what the API reports, which may be a value no input accepts: enums stay strings there.
    properties[name] = input
      ? withDescription(pulumiType(input), input)
      : (options.outputTypes?.[name] ??
        namedObjects(
          type!,
          `${options.name}${pascal(name)}`,
          `\`${name}\` of a ${options.name}`,
          options.enums,
        ));
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

/**
 * A type as `pulumi-custody/field-types.json` holds it: a Pulumi type, except that an object with fixed fields is
 * inline (`properties`), to be declared as a named type ({@link namedObjects}).
 */
type EmittedType =
  | TypeSpec
  | { type: "array"; items: EmittedType }
  | { type: "object"; additionalProperties: EmittedType }
  | { type: "object"; properties: Record<string, EmittedType>; required: string[] };

/** What the provider's build read from the runtime's TypeScript types (`pulumi-custody/field-types.json`). */
interface EmittedTypes {
  /** The type of each field of each field table, by table name. */
  tables: Record<string, Record<string, EmittedType>>;
  /** The type of each property of each resource output interface, by interface name. */
  outputs: Record<string, Record<string, EmittedType>>;
}

/** What to do when `field-types.json` is missing or stale. */
const REGENERATE = "run `npm run generate -w pulumi-custody`";

let emitted: EmittedTypes | undefined;

function emittedTypes(): EmittedTypes {
  try {
    emitted ??= require("pulumi-custody/field-types.json") as EmittedTypes;
  } catch (cause) {
    throw new Error(`cannot read pulumi-custody/field-types.json: ${REGENERATE}`, { cause });
  }
  return emitted;
}

/** `vaultGroups` → `VaultGroups`. */
function pascal(name: string): string {
  return `${name[0].toUpperCase()}${name.slice(1)}`;
}

/**
 * The Pulumi type of an emitted type: each object with fixed fields becomes a named object type, `name` for the
 * outermost one and `name` + the field's name for those inside (`GetVaultsItemVaultGroupsItem`), so that
 * generated SDKs type nested results instead of leaving them `Any`.
 */
function namedObjects(type: EmittedType, name: string, description: string, types: EnumTypes): TypeSpec {
  if ("properties" in type) {
    const properties: Record<string, PropertySpec> = {};
    for (const [field, child] of Object.entries(type.properties))
      properties[field] = namedObjects(
        child,
        `${name}${pascal(field)}`,
        `\`${field}\` of ${description}`,
        types,
      );
    types[typeToken(name)] = { type: "object", properties, required: type.required, description };
    return { $ref: `#/types/${typeToken(name)}` };
  }
  if ("items" in type)
    return {
      type: "array",
      items: namedObjects(type.items, `${name}Item`, `an item of ${description}`, types),
    };
  if ("additionalProperties" in type)
    return {
      type: "object",
      additionalProperties: namedObjects(
        type.additionalProperties,
        `${name}Value`,
        `a value of ${description}`,
        types,
      ),
    };
  return type;
}

/**
 * The field types of `table`, found by its field names (each table has its own set; the file names tables by
 * their variable's name, which the running code cannot see).
 */
function fieldTypesOf(table: Readonly<Record<string, FieldReader>>): Record<string, EmittedType> {
  const names = JSON.stringify(Object.keys(table).sort());
  const matches = Object.entries(emittedTypes().tables).filter(
    ([, types]) => JSON.stringify(Object.keys(types).sort()) === names,
  );
  if (matches.length !== 1)
    throw new Error(`field-types.json has ${matches.length} tables with the fields ${names}: ${REGENERATE}`);
  return matches[0][1];
}

/** The token of a type of this package (`VaultDetails` → `custody:index:VaultDetails`). */
function typeToken(name: string): string {
  return `${PACKAGE}:index:${name}`;
}

/** Declares an object type from a zod object schema; returns its reference. */
function objectTypeOf(name: string, description: string, schema: z.ZodType, types: EnumTypes): TypeSpec {
  const node = jsonSchema(schema, "output");
  const properties: Record<string, PropertySpec> = {};
  for (const [key, child] of Object.entries(node.properties ?? {}))
    properties[key] = withDescription(pulumiType(child), child);
  types[typeToken(name)] = { type: "object", properties, required: node.required ?? [], description };
  return { $ref: `#/types/${typeToken(name)}` };
}

/** The enum type of a list of string values; returns its reference. */
function enumTypeOf(
  name: string,
  description: string,
  values: readonly string[],
  types: EnumTypes,
): TypeSpec {
  types[typeToken(name)] = { type: "string", enum: values.map((value) => ({ value })), description };
  return { $ref: `#/types/${typeToken(name)}` };
}

/** Declares the object type of a field table; returns its reference. */
function fieldTableType(
  name: string,
  description: string,
  fields: Readonly<Record<string, FieldReader>>,
  types: EnumTypes,
): TypeSpec {
  const found = fieldTypesOf(fields);
  const properties: Record<string, PropertySpec> = {};
  for (const field of Object.keys(fields))
    properties[field] = namedObjects(
      found[field],
      `${name}${pascal(field)}`,
      `\`${field}\` of ${name}`,
      types,
    );
  types[typeToken(name)] = { type: "object", properties, description };
  return { $ref: `#/types/${typeToken(name)}` };
}

/** The function spec of a data source: its arguments as inputs, its result (a list as `items`) as outputs. */
function functionSpec(spec: DataSourceSpec, types: EnumTypes): Record<string, unknown> {
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  for (const [arg, type] of Object.entries(spec.args)) {
    const node = jsonSchema(type, "output");
    properties[arg] = withDescription(pulumiType(node), {
      description: node.description ?? type.description,
    });
    if (!type.safeParse(undefined).success) required.push(arg);
  }
  const suffix = { list: "Item", keyed: "Value", get: "Result" }[spec.kind];
  const typeName = `${pascal(spec.name)}${suffix}`;
  const description = {
    list: `The result of \`${spec.name}\`, one item of its list.`,
    keyed: `The result of \`${spec.name}\`, one value of its object of results by id.`,
    get: `The result of \`${spec.name}\`.`,
  }[spec.kind];
  if (!spec.fields) throw new Error(`function ${spec.name} has no field table to declare its result with`);
  const result = fieldTableType(typeName, description, spec.fields, types);
  let outputs: Record<string, unknown>;
  if (spec.kind === "get") {
    outputs = structuredClone(types[typeToken(typeName)]);
    delete (outputs as { description?: string }).description;
    // The outputs are the result: a named type of the same shape would be a second definition, and in Go its
    // name is the function's own result type (`ExportVaultBalancesResult`), so the Go SDK would not compile.
    delete types[typeToken(typeName)];
  } else {
    // An invoke answers with an object of fixed fields: a list comes back as `{ items: [...] }`, a keyed result
    // as `{ items: { <id>: ... } }` (`plugin/functions.ts`).
    const items =
      spec.kind === "list"
        ? { type: "array", items: result }
        : { type: "object", additionalProperties: result };
    outputs = { type: "object", properties: { items }, required: ["items"] };
  }
  return {
    description: `The \`${spec.name}\` data source of pulumi-custody, served by the provider.`,
    inputs: { type: "object", properties, ...(required.length ? { required } : {}) },
    outputs,
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
  const enums: EnumTypes = {};
  const details = fieldTableType(
    "VaultDetails",
    "The fields of a vault beyond its main ones (`vaultDetailFields` of the runtime).",
    vaultDetailFields,
    enums,
  );
  const outputTypes: Record<string, TypeSpec> = {
    details,
    pendingProposal: objectTypeOf(
      "PendingVaultGroupProposal",
      "A vault-group change proposal that was submitted and is waiting for approval.",
      pendingVaultGroupProposalSchema,
      enums,
    ),
    acquisition: enumTypeOf(
      "VaultAcquisition",
      "How the resource came to manage its vault.",
      VAULT_ACQUISITIONS,
      enums,
    ),
  };
  const vault = resourceSpec(vaultResource, enums, outputTypes);
  const functions: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(FUNCTION_SPECS))
    functions[functionToken(name)] = functionSpec(spec, enums);
  return {
    name: PACKAGE,
    displayName: "Custody",
    version: PLUGIN_VERSION,
    description: "Custody vaults and vault addresses, and read-only data sources of the custody API.",
    keywords: ["pulumi", "custody", "vault", "category/cloud"],
    license: "Apache-2.0",
    homepage: REPOSITORY,
    repository: REPOSITORY,
    // The engine downloads the archive of the version an SDK names from this repository's release of that
    // version (`pulumi-resource-custody-v<version>-<os>-<arch>.tar.gz`), as for Pulumi's own providers.
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    meta: { moduleFormat: "(.*)" },
    language: languageOptions(),
    config: { variables: configVariables(), defaults: [] },
    provider: {
      description: `The ${PACKAGE} provider.`,
      inputProperties: configVariables(),
    },
    resources: {
      [vaultResource.pluginType]: vault,
      [vaultAddressResource.pluginType]: resourceSpec(vaultAddressResource, enums),
    },
    types: enums,
    functions,
  };
}
