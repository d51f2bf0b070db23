/**
 * `pulumi-custody/core`: the runtime core, shared by the dynamic provider (its serialized shims load this module
 * in the provider process), the provider plugin (`@pulumi-custody/plugin`), the policy pack and the command line
 * (`@pulumi-custody/cli`). It is their only door into this package:
 * - the resources, each declared once ({@link CUSTODY_RESOURCES}): type tokens, fields (each input and output
 *   declared once: {@link vaultDeclaration}, {@link vaultAddressDeclaration}) and what derives from them, and
 *   lifecycle;
 * - the settings ({@link SETTINGS}, {@link connect}; {@link configure} and {@link providerClient} in a provider
 *   process): explicit values, stack config, the environment or a plugin's `Configure` in, a verified client
 *   out, through one door.
 *
 * It must handle every state shape any release ever wrote: outputs are read tolerantly.
 *
 * @packageDocumentation
 */
import { vaultAddressResource, vaultResource } from "./resources";

export { type FieldReader, isTableType } from "./field-tables";
export { type CheckOptions, type CheckResult, checkInputs } from "./fields/check";
export {
  carrierOf,
  type DeclaredInputsOf,
  type DeclaredOutputsOf,
  type FieldDeclarations,
  type FieldSpec,
  type InputChange,
  type InputSpec,
  inputNames,
  inputOf,
  type OnlyWhen,
  type OutputSpec,
  outputNames,
  outputOf,
  type ProgramInputsOf,
  type ReviewSection,
  type ReviewSpec,
  requiredInputs,
  secretInputs,
  secretOutputs,
  type ValueKind,
  valueKindOf,
} from "./fields/declare";
export { changedInputs, sameValue } from "./fields/diff";
export { exitWhenEngineIsGone } from "./host/dynamic-provider-host";
export { maskNotices, type NoticeSink, setNoticeSink } from "./host/notices";
export { recordResourceUrn } from "./host/resource-urns";
export { maskStrings, SECRET_MASK, withErrorsMasked } from "./host/secret-masking";
export { UNKNOWN } from "./host/unknown-values";
export {
  declarableImportInputs,
  importedVaultAddressInputs,
  importedVaultInputs,
} from "./inputs/imported";
export { ADOPT_ONLY_VAULT_TYPES } from "./inputs/schemas";
export { escapeControls, printsAsIs, shownText, shownValue } from "./inputs/shown";
export { PartialCreateError } from "./partial-create-error";
export {
  type ExportedDeployment,
  type ExportedResource,
  type PendingCreateOutcome,
  recoverPendingCreates,
} from "./pending-creates";
export {
  CUSTODY_RESOURCES,
  type CustodyResourceKind,
  custodyResourceKind,
  DYNAMIC_RESOURCE_MODULE,
  PLUGIN_PACKAGE,
  type ResourceCheckFailure,
  type ResourceDescriptor,
  type ResourceLifecycle,
  resourceOfKind,
  resourceOfType,
  typeOfUrn,
  vaultAddressResource,
  vaultResource,
} from "./resources";
export { type CustodyConnection, connect } from "./settings/connect";
export {
  configure,
  disconnect,
  type ProviderConfig,
  providerClient,
  SEE_ANOTHER_RESOURCE,
} from "./settings/provider-process";
export {
  type ConfigLookup,
  type CustodySettings,
  CustodySettingsError,
  checkSetting,
  SETTINGS,
  type SettingOrigin,
  type SettingOrigins,
  type SettingSpec,
  type SettingsSource,
} from "./settings/sources";
export { vaultDeclaration } from "./vault/declaration";
export { vaultDetailFields } from "./vault/fields";
export { VAULT_NAME_IS_SECRET } from "./vault/secret-name";
export { pendingVaultGroupProposalSchema, VAULT_ACQUISITIONS } from "./vault/state-values";
export type * from "./vault/types";
export { vaultAddressDeclaration } from "./vault-address/declaration";
export type * from "./vault-address/types";

/** The Vault provider methods (what the shims of `pulumi-custody/provider-runtime/vault` call). */
export const vault = vaultResource.lifecycle;

/** The VaultAddress provider methods (`pulumi-custody/provider-runtime/vault-address`). */
export const vaultAddress = vaultAddressResource.lifecycle;

/**
 * The first copy of the core loaded in a process is the one the serialized providers use
 * (provider/shims/load-runtime.ts reads this key first). A process can reach the package by two paths, for
 * example a program's relative imports and a provider's `require("pulumi-custody/core")`; without
 * this, each copy would keep its own settings.
 */
const sharedRuntime = globalThis as { [key: symbol]: unknown };
sharedRuntime[Symbol.for("pulumi-custody.runtime")] ??= module.exports;
