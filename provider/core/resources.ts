/**
 * The custody resources, each declared once. A descriptor holds what every layer needs of a resource: its
 * type tokens on both paths, its fields (each input and output declared once, ./vault/declaration.ts and
 * ./vault-address/declaration.ts) and what derives from them (the input schema, the outputs it declares, the
 * inputs whose change replaces it), and its lifecycle. Everything else derives from these two declarations:
 * - the dynamic resource classes (`provider/resources`) and their serialized shims (`provider/shims`);
 * - the provider plugin's schema and method table (`@pulumi-custody/plugin`);
 * - the resource type lists of the policy pack and of `custody review`.
 */
import type { z } from "zod";
import { shownMessage } from "./api-errors";
import {
  type FieldDeclarations,
  inputNames,
  inputsSchema,
  outputNames,
  replaceOnChanges,
} from "./fields/declare";
import { engineSafeFailures } from "./inputs/schemas";
import { refusedInProgram } from "./inputs/well-formed";
import type { ResourceLifecycle } from "./lifecycle";
import { providerClient } from "./settings/provider-process";
import { checkedVaultInputs, checkVault } from "./vault/check";
import { createVault } from "./vault/create";
import { vaultDeclaration } from "./vault/declaration";
import { diffVault } from "./vault/diff";
import { deleteVault, readVault, updateVault } from "./vault/lifecycle";
import { withSecretNames } from "./vault/secret-name";
import { checkedVaultAddressInputs, checkVaultAddress, diffVaultAddress } from "./vault-address/check-diff";
import { vaultAddressDeclaration } from "./vault-address/declaration";
import {
  createVaultAddress,
  deleteVaultAddress,
  readVaultAddress,
  updateVaultAddress,
} from "./vault-address/lifecycle";

export type { ResourceCheckFailure, ResourceLifecycle } from "./lifecycle";

/** The kinds of custody resources, by their type name. */
export type CustodyResourceKind = "Vault" | "VaultAddress";

/** The module of the dynamic resources (the `custody` in `pulumi-nodejs:dynamic/custody:Vault`). */
export const DYNAMIC_RESOURCE_MODULE = "custody";

/** The package name of the provider plugin: config keys are `custody:<key>`, tokens `custody:index:<Name>`. */
export const PLUGIN_PACKAGE = "custody";

/** One custody resource, declared once. */
export interface ResourceDescriptor {
  /** The type name (`Vault`). */
  readonly kind: CustodyResourceKind;
  /** Its type token on the dynamic provider (`pulumi-nodejs:dynamic/custody:Vault`). */
  readonly dynamicType: string;
  /** Its type token on the provider plugin (`custody:index:Vault`). */
  readonly pluginType: string;
  /** What it is and what destroying it does, for the plugin's schema. */
  readonly description: string;
  /** Its fields: each input and output, declared once. */
  readonly fields: FieldDeclarations;
  /** The inputs it accepts, in declaration order. */
  readonly inputNames: readonly string[];
  /**
   * The zod schema of the inputs a program declares: the plugin's schema declares them, and `check` validates
   * them (with the resource class's own inputs).
   */
  readonly inputSchema: z.ZodType;
  /** Every output it declares. */
  readonly outputNames: readonly string[];
  /** The inputs whose change replaces the object. */
  readonly replaceOnChanges: readonly string[];
  /** The provider methods. */
  readonly lifecycle: ResourceLifecycle;
}

/**
 * `check` runs during `preview` too: once the inputs are valid, the settings are shown to work (one call per
 * process), so wrong credentials fail the preview rather than the `up`.
 */
async function checked<T extends { failures?: unknown[] }>(result: T): Promise<T> {
  if (!result.failures?.length) await providerClient();
  return result;
}

function descriptor(
  kind: CustodyResourceKind,
  rest: Pick<ResourceDescriptor, "description" | "fields" | "lifecycle">,
): ResourceDescriptor {
  const { check } = rest.lifecycle;
  return {
    kind,
    dynamicType: `pulumi-nodejs:dynamic/${DYNAMIC_RESOURCE_MODULE}:${kind}`,
    pluginType: `${PLUGIN_PACKAGE}:index:${kind}`,
    ...rest,
    inputNames: inputNames(rest.fields),
    inputSchema: inputsSchema(rest.fields),
    outputNames: outputNames(rest.fields),
    replaceOnChanges: replaceOnChanges(rest.fields),
    lifecycle: withMessagesShown({
      ...rest.lifecycle,
      // An input the program refused once it resolved arrives as its reason (./inputs/well-formed.ts): it fails
      // here, as any bad input does, and is not validated further.
      check: async (olds, news) => {
        const refused = refusedInProgram(news);
        if (refused.length === 0) return check(olds, news);
        // The reason came through the program: it is escaped as every reason is.
        return {
          inputs: news,
          failures: engineSafeFailures(
            news,
            refused.map((reason) => ({ property: "", reason })),
          ),
        };
      },
    }),
  };
}

/**
 * The lifecycle with every error it throws shown by the one rule ({@link shownMessage}): whatever a message
 * quotes (the service's title or detail, a name the service holds, a value of the program) reaches the engine,
 * and so the terminal and the CI log, escaped and bounded. Both paths (the dynamic provider and the plugin) call
 * the lifecycle of the descriptors.
 */
function withMessagesShown(lifecycle: ResourceLifecycle): ResourceLifecycle {
  const guarded = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(lifecycle) as [
    string,
    (...args: unknown[]) => Promise<unknown>,
  ][]) {
    guarded[name] = async (...args: unknown[]) => {
      try {
        return await method(...args);
      } catch (err) {
        throw errorShown(err);
      }
    };
  }
  return guarded as unknown as ResourceLifecycle;
}

/**
 * `err` with its message (and a partly failed create's reasons) shown by {@link shownMessage}. An error whose
 * message needs no escape keeps its message and stack; otherwise its stack, which repeats the message, is cut
 * to its first line, and an empty one (an error that must not be printed twice) stays empty.
 */
function errorShown(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const shown = shownMessage(err.message);
  if (shown !== err.message) {
    err.message = shown;
    if (err.stack) err.stack = `${err.name}: ${shown}`;
  }
  const partial = err as { reasons?: unknown };
  if (Array.isArray(partial.reasons))
    partial.reasons = partial.reasons.map((r) => (typeof r === "string" ? shownMessage(r) : r));
  return err;
}

/** A custody vault. */
export const vaultResource: ResourceDescriptor = descriptor("Vault", {
  description:
    "A custody vault. Destroying it archives the vault (the API cannot delete vaults); creating it again restores it.",
  fields: vaultDeclaration,
  // A secret name is kept out of notices and errors (./vault/secret-name.ts).
  lifecycle: withSecretNames({
    check: async (olds, news) => checked(checkVault(olds, news)),
    diff: (id, olds, news) => diffVault(id, olds, news),
    create: (inputs) => createVault(checkedVaultInputs(inputs)),
    read: (id, props) => readVault(id, props),
    update: (id, olds, news) => updateVault(id, olds, checkedVaultInputs(news)),
    delete: (id, props) => deleteVault(id, props),
  }),
});

/** An address of a UTXO vault. */
export const vaultAddressResource: ResourceDescriptor = descriptor("VaultAddress", {
  description:
    "An address of a UTXO vault. Destroying it only forgets it (the API cannot delete addresses). Import id: `<vault id>/<address id>`.",
  fields: vaultAddressDeclaration,
  lifecycle: {
    check: async (olds, news) => checked(checkVaultAddress(olds, news)),
    diff: (id, olds, news) => diffVaultAddress(id, olds, news),
    create: (inputs) => createVaultAddress(checkedVaultAddressInputs(inputs)),
    read: (id, props) => readVaultAddress(id, props),
    update: (id, olds, news) => updateVaultAddress(id, olds, checkedVaultAddressInputs(news)),
    delete: (id, props) => deleteVaultAddress(id, props),
  },
});

/** Every custody resource. */
export const CUSTODY_RESOURCES: readonly ResourceDescriptor[] = [vaultResource, vaultAddressResource];

/** The descriptor of a kind. */
export function resourceOfKind(kind: CustodyResourceKind): ResourceDescriptor {
  return kind === "Vault" ? vaultResource : vaultAddressResource;
}

/** The descriptor a type token names, on either path; `undefined` for any other type. */
export function resourceOfType(type: string | undefined): ResourceDescriptor | undefined {
  return CUSTODY_RESOURCES.find((r) => r.dynamicType === type || r.pluginType === type);
}

/** The kind of custody resource a type token names, on either path; `undefined` for any other type. */
export function custodyResourceKind(type: string | undefined): CustodyResourceKind | undefined {
  return resourceOfType(type)?.kind;
}

/** The resource type of a URN (`urn:pulumi:stack::project::custody:index:Vault::name` → `custody:index:Vault`). */
export function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  // The type part may be a chain of parent types (`a$b`); the resource's own type is the last one.
  const qualified = parts[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}
