/**
 * The Pulumi package schema of the `custody` provider, generated at run time from what the provider already
 * declares, with no build step: each resource's inputs and outputs from its field declarations (the descriptors'
 * `fields`: each field's zod type, whether it is required, replaces on change or is secret, and the name of an
 * output type that has one), the configuration from the runtime's `SETTINGS`, and the functions from the data
 * sources' specs (`DataSourceSpec` of `provider/data-sources/define.ts`: the arguments' zod types and the
 * result's field table, whose readers carry their types). Nothing here lists a property by hand; the types
 * come from the zod schemas through ./schema-types.ts, which never writes `Any`.
 *
 * Descriptions come from the zod schemas' `.describe()` where there is one.
 */
import {
  CUSTODY_RESOURCES,
  type FieldDeclarations,
  type FieldReader,
  inputNames,
  inputOf,
  isTableType,
  outputNames,
  outputOf,
  type ResourceDescriptor,
  requiredInputs,
  SETTINGS,
  secretInputs,
  secretOutputs,
} from "pulumi-custody/core";
import type { DataSourceSpec } from "pulumi-custody/data-sources";
import { z } from "zod";
import { FUNCTION_SPECS, functionToken } from "./functions";
import { goLanguageOptions } from "./go-sdk";
import {
  type AnyTypeSpec,
  type DeclaredType,
  type JsonSchema,
  jsonSchemaOf,
  type PropertySpec,
  pascal,
  SchemaTypes,
  type TypeSpec,
  typeToken,
  withDescription,
} from "./schema-types";
import { sdkReadme } from "./sdk-readme";
import { PACKAGE } from "./tokens";

export type { AnyTypeSpec, PropertySpec, TypeSpec, UnionTypeSpec } from "./schema-types";

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

/**
 * The type of an input: a string enum becomes an enum type named after the resource and the input
 * (`custody:index:VaultKeyType`), so that generated SDKs offer the values, with the notes the declaration gives
 * some values. The enum holds every value that an existing object can have, so that an import of any object
 * generates code that compiles.
 */
function inputType(
  resource: ResourceDescriptor,
  name: string,
  node: JsonSchema,
  notes: Readonly<Record<string, string>> | undefined,
  types: SchemaTypes,
): AnyTypeSpec {
  const values = node.enum;
  const typeName = `${resource.kind}${pascal(name)}`;
  if (node.type !== "string" || !values?.every((v): v is string => typeof v === "string"))
    return types.typeOf(node, typeName, `\`${name}\` of a ${resource.kind}`, `${resource.kind}.${name}`);
  return types.enumType(typeName, `The values a ${resource.kind} accepts for \`${name}\`.`, values, notes);
}

/**
 * The type of an output: a named type where the declaration names it (an enum, an object, or the result of a
 * field table, which lists no required fields), otherwise its type as it stands. Outputs show what the API
 * reports, which may be a value no input accepts: an input's enum is a string there.
 */
function outputType(
  resource: ResourceDescriptor,
  name: string,
  type: z.ZodType,
  types: SchemaTypes,
): AnyTypeSpec {
  const spec = outputOf(resource.fields, name)!;
  const inner = type instanceof z.ZodOptional ? (type.unwrap() as z.ZodType) : type;
  const node = jsonSchemaOf(inner);
  if (spec.named) {
    const { name: typeName, description } = spec.named;
    if (inner instanceof z.ZodEnum) return types.enumType(typeName, description, inner.options as string[]);
    return types.objectType(typeName, description, node, {
      topLevel: true,
      listRequired: !isTableType(inner),
    });
  }
  return types.typeOf(
    node,
    `${resource.kind}${pascal(name)}`,
    `\`${name}\` of a ${resource.kind}`,
    `${resource.kind}.${name}`,
  );
}

/** The resource spec of one resource, from its field declarations. */
function resourceSpec(resource: ResourceDescriptor, types: SchemaTypes): Record<string, unknown> {
  const fields: FieldDeclarations = resource.fields;
  const required = requiredInputs(fields);
  const secretIn = secretInputs(fields);
  const secretOut = secretOutputs(fields);
  const inputProperties: Record<string, PropertySpec> = {};
  for (const name of inputNames(fields)) {
    const spec = inputOf(fields, name)!;
    // An input the dynamic resource class sets itself (a VaultAddress's nameIsDefault) is not the program's.
    if (spec.setByResource) continue;
    const node = jsonSchemaOf(spec.type, "input");
    const property = withDescription(inputType(resource, name, node, spec.valueNotes, types), node);
    if (spec.change === "replace") property.replaceOnChanges = true;
    if (secretIn.includes(name)) property.secret = true;
    inputProperties[name] = property;
  }
  const properties: Record<string, PropertySpec> = {};
  for (const name of outputNames(fields)) {
    const spec = outputOf(fields, name)!;
    const property: PropertySpec = { ...outputType(resource, name, spec.type, types) };
    if (secretOut.includes(name)) property.secret = true;
    properties[name] = property;
  }
  return {
    description: resource.description,
    inputProperties,
    requiredInputs: required,
    properties,
    // Outputs always present: the required inputs (a read reports them from the live object).
    required: outputNames(fields).filter((name) => required.includes(name)),
  };
}

/** Declares the object type of a field table's results; returns its reference. */
function fieldTableType(
  name: string,
  description: string,
  fields: Readonly<Record<string, FieldReader>>,
  types: SchemaTypes,
): AnyTypeSpec {
  const shape = Object.fromEntries(Object.entries(fields).map(([field, reader]) => [field, reader.type]));
  return types.objectType(name, description, jsonSchemaOf(z.object(shape)), {
    topLevel: true,
    listRequired: false,
  });
}

/** The function spec of a data source: its arguments as inputs, its result (a list as `items`) as outputs. */
function functionSpec(spec: DataSourceSpec, types: SchemaTypes): Record<string, unknown> {
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  for (const [arg, type] of Object.entries(spec.args)) {
    const node = jsonSchemaOf(type, "output");
    properties[arg] = withDescription(
      types.typeOf(
        node,
        `${pascal(spec.name)}Args${pascal(arg)}`,
        `\`${arg}\` of \`${spec.name}\``,
        `${spec.name}(${arg})`,
      ),
      { description: node.description ?? type.description },
    );
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
    outputs = structuredClone(types.declared[typeToken(typeName)]) as Record<string, unknown>;
    delete (outputs as { description?: string }).description;
    // The outputs are the result: a named type of the same shape would be a second definition, and in Go its
    // name is the function's own result type (`ExportVaultBalancesResult`), so the Go SDK would not compile.
    delete types.declared[typeToken(typeName)];
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
  const types = new SchemaTypes();
  const resources = Object.fromEntries(
    CUSTODY_RESOURCES.map((resource) => [resource.pluginType, resourceSpec(resource, types)]),
  );
  const functions: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(FUNCTION_SPECS))
    functions[functionToken(name)] = functionSpec(spec, types);
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
    resources,
    types: types.declared as Record<string, DeclaredType>,
    functions,
  };
}
