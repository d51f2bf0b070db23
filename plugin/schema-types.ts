/**
 * The types of the plugin's schema, from the runtime's zod schemas (through their JSON Schema, `z.toJSONSchema`):
 * primitives, lists, maps, objects with fixed fields (each a named type of the schema, named after where it
 * stands: `GetVaultsItem`, then `GetVaultsItemVaultGroupsItem` for the items of its `vaultGroups`), enums, and
 * unions (a `oneOf` of its members; a union of objects on a discriminator names each member after its value).
 * What no Pulumi type can say is an error that names the field, never a silent `Any`.
 */
import { z } from "zod";
import { PACKAGE } from "./tokens";

/** A JSON Schema node, as `z.toJSONSchema` writes it. */
export type JsonSchema = {
  type?: string | string[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
};

/** A Pulumi type spec (`pulumi.json` `$defs/typeSpec`) without unions. */
export type TypeSpec =
  | { type: "string" | "boolean" | "integer" | "number" }
  | { type: "array"; items: TypeSpec }
  | { type: "object"; additionalProperties: TypeSpec }
  | { $ref: string };

/** A Pulumi union type spec: a value of one of several types, told apart by a discriminator where it has one. */
export type UnionTypeSpec = {
  oneOf: AnyTypeSpec[];
  discriminator?: { propertyName: string; mapping: Record<string, string> };
};

/** Any Pulumi type spec, unions included, at any depth. */
export type AnyTypeSpec =
  | TypeSpec
  | UnionTypeSpec
  | { type: "array"; items: AnyTypeSpec }
  | { type: "object"; additionalProperties: AnyTypeSpec };

/** A Pulumi property spec. */
export type PropertySpec = AnyTypeSpec & {
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
};

/** A type the schema declares under `types`: an enum of strings, or an object with fixed fields. */
export type DeclaredType =
  | { type: "string"; enum: { value: string; description?: string }[]; description: string }
  | { type: "object"; properties: Record<string, PropertySpec>; required?: string[]; description: string };

/** The JSON Schema of a zod schema, as the program gives a value (`input`) or as it comes back (`output`). */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "output"): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
}

/** `vaultGroups` → `VaultGroups`. */
export function pascal(name: string): string {
  return `${name[0]!.toUpperCase()}${name.slice(1)}`;
}

/** The token of a type of this package (`VaultDetails` → `custody:index:VaultDetails`). */
export function typeToken(name: string): string {
  return `${PACKAGE}:index:${name}`;
}

const PRIMITIVES = new Set(["string", "boolean", "integer", "number"]);

/** The property spec of a type, with the node's description when it has one. */
export function withDescription(type: AnyTypeSpec, node: JsonSchema | undefined): PropertySpec {
  return node?.description ? { ...type, description: node.description } : { ...type };
}

/** A value's type could not be said in a Pulumi schema. */
export class UntypedFieldError extends Error {}

/** The named types of a schema, filled as fields are typed. */
export class SchemaTypes {
  /** Every type declared so far, by token. */
  readonly declared: Record<string, DeclaredType> = {};

  /** Declares an enum of strings; returns its reference. */
  enumType(
    name: string,
    description: string,
    values: readonly string[],
    notes: Readonly<Record<string, string>> = {},
  ): AnyTypeSpec {
    this.declared[typeToken(name)] = {
      type: "string",
      enum: values.map((value) =>
        Object.hasOwn(notes, value) ? { value, description: notes[value] } : { value },
      ),
      description,
    };
    return { $ref: `#/types/${typeToken(name)}` };
  }

  /**
   * Declares an object type with these fields; returns its reference. A result at the top (a function's, a
   * resource output's) is `topLevel`: its fields are described as fields of its name, and it lists no required
   * fields when it is the result of a field table (whose readers may leave any field out).
   */
  objectType(
    name: string,
    description: string,
    node: JsonSchema,
    options: { topLevel?: boolean; listRequired?: boolean } = {},
  ): AnyTypeSpec {
    const properties: Record<string, PropertySpec> = {};
    const of = options.topLevel ? name : description;
    for (const [field, child] of Object.entries(node.properties ?? {}))
      properties[field] = withDescription(
        this.typeOf(child, `${name}${pascal(field)}`, `\`${field}\` of ${of}`, `${name}.${field}`),
        child,
      );
    const listRequired = options.listRequired ?? true;
    this.declared[typeToken(name)] = {
      type: "object",
      properties,
      ...(listRequired ? { required: node.required ?? [] } : {}),
      description,
    };
    return { $ref: `#/types/${typeToken(name)}` };
  }

  /**
   * The Pulumi type of a JSON Schema node. `name` names the object types it holds (`name` for itself, `name` +
   * `Item` for a list's items, `name` + `Value` for a map's values, `name` + the field for the objects inside);
   * `description` describes it; `where` names it in an error.
   */
  typeOf(node: JsonSchema, name: string, description: string, where: string = name): AnyTypeSpec {
    if (node.allOf?.length === 1) return this.typeOf(node.allOf[0]!, name, description, where);
    const members = node.anyOf ?? node.oneOf;
    if (members) return this.unionOf(members, name, description, where);
    if (Array.isArray(node.type))
      return this.unionOf(
        node.type.map((type) => ({ type })),
        name,
        description,
        where,
      );
    const type = node.type ?? (node.const !== undefined ? typeof node.const : undefined);
    if (type !== undefined && PRIMITIVES.has(type)) return { type } as TypeSpec;
    if (type === "array") {
      if (!node.items) throw new UntypedFieldError(`${where}: a list whose items have no type`);
      return {
        type: "array",
        items: this.typeOf(node.items, `${name}Item`, `an item of ${description}`, `${where}[]`),
      };
    }
    if (type === "object") {
      if (node.properties) return this.objectType(name, description, node);
      if (typeof node.additionalProperties === "object")
        return {
          type: "object",
          additionalProperties: this.typeOf(
            node.additionalProperties,
            `${name}Value`,
            `a value of ${description}`,
            `${where}{}`,
          ),
        };
    }
    throw new UntypedFieldError(
      `${where}: its type (${JSON.stringify(node)}) has no Pulumi type; give it one a schema can declare`,
    );
  }

  /**
   * A union: the one type of its members when they all have it (`string | undefined`); a `oneOf` otherwise, its
   * object members named after their value of a shared discriminator (`…ImportedKeys`) or else by position.
   */
  private unionOf(members: JsonSchema[], name: string, description: string, where: string): AnyTypeSpec {
    const discriminator = discriminatorOf(members);
    const types = members.map((member, index) => {
      const suffix = discriminator
        ? pascalCase(String(member.properties![discriminator]!.const))
        : `${index + 1}`;
      return this.typeOf(member, `${name}${suffix}`, `${description} (${suffix})`, where);
    });
    const first = JSON.stringify(types[0]);
    if (types.every((t) => JSON.stringify(t) === first)) return types[0]!;
    if (!discriminator) return { oneOf: types };
    const mapping = Object.fromEntries(
      members.map((member, index) => [
        String(member.properties![discriminator]!.const),
        (types[index] as { $ref: string }).$ref,
      ]),
    );
    return { oneOf: types, discriminator: { propertyName: discriminator, mapping } };
  }
}

/** `imported_keys` → `ImportedKeys`. */
function pascalCase(value: string): string {
  return value
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(pascal)
    .join("");
}

/** The property every member of a union of objects has as a constant string, if one does. */
function discriminatorOf(members: JsonSchema[]): string | undefined {
  if (!members.every((m) => m.type === "object" && m.properties)) return undefined;
  const [first, ...rest] = members;
  return Object.keys(first!.properties!).find((key) =>
    [first!, ...rest].every((m) => typeof m.properties?.[key]?.const === "string"),
  );
}
