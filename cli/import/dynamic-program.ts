/**
 * The program of an import on the dynamic provider (`pulumi-custody`'s `Vault` and `VaultAddress`). Dynamic
 * resources cannot be imported (the engine has no import for them), so the program adopts instead: each vault
 * is declared as it is with `adoptExisting: true`, which takes over the active vault of that exact name and
 * kind, and each address by its name in its vault, which a `VaultAddress` adopts. Its first `up` records them
 * and changes nothing on the service; the next preview is clean. What each resource declares, and in which
 * order, comes from its declaration (its inputs, pulumi-custody/core); how it is written, from the language
 * (./languages).
 */
import { inputNames, vaultAddressResource, vaultResource } from "pulumi-custody/core";
import { IMPORT_LANGUAGES, type Language, type ProgramValue } from "./languages";
import type { PlannedAddress, PlannedVault, Selection } from "./select";

export { variableOf } from "./languages/typescript";

/** The inputs of a resource in the order of its declaration, then any other; each a literal but those given. */
function inOrder(
  inputs: Readonly<Record<string, unknown>>,
  order: readonly string[],
  given: Readonly<Record<string, ProgramValue>> = {},
): [string, ProgramValue][] {
  const keys = [
    ...order.filter((k) => k in inputs),
    ...Object.keys(inputs).filter((k) => !order.includes(k)),
  ];
  return keys.map((key) => [key, given[key] ?? { literal: inputs[key] }]);
}

/** The inputs the dynamic program declares a vault with: as it is, adopted by its exact name. */
export function adoptedVaultInputs(planned: PlannedVault): Record<string, unknown> {
  return { ...planned.inputs, adoptExisting: true };
}

/** The program that adopts the selection through the dynamic provider, in `language` (default TypeScript). */
export function dynamicProgram(
  selection: Selection,
  options: { protect: boolean; language?: Language },
): string {
  const language = IMPORT_LANGUAGES[options.language ?? "typescript"];
  const writer = "dynamic" in language ? language.dynamic : undefined;
  if (!writer)
    throw new Error(`the dynamic provider runs Node.js programs; it has no program in ${language.name}`);
  const withAddresses = new Set(selection.addresses.flatMap((a) => (a.vault ? [a.vault.vault.id] : [])));
  const kinds =
    selection.addresses.length > 0 ? [vaultResource.kind, vaultAddressResource.kind] : [vaultResource.kind];
  const lines = [...writer.header(kinds), ""];
  const vaultLine = (p: PlannedVault) =>
    writer.declaration({
      kind: vaultResource.kind,
      name: p.name,
      inputs: inOrder(adoptedVaultInputs(p), inputNames(vaultResource.fields)),
      protect: options.protect,
      ...(withAddresses.has(p.vault.id) ? { variable: writer.variable(p.name) } : {}),
    });
  for (const planned of selection.vaults) lines.push(vaultLine(planned));
  if (selection.addresses.length > 0) lines.push("");
  // An address of a vault a stack manages already names the vault by its id.
  const addressLine = (a: PlannedAddress) => {
    const vaultId: ProgramValue = a.vault
      ? { idOf: writer.variable(a.vault.name) }
      : { literal: a.address.vault.id.toLowerCase() };
    return writer.declaration({
      kind: vaultAddressResource.kind,
      name: a.name,
      inputs: inOrder({ ...a.inputs, vaultId: undefined }, inputNames(vaultAddressResource.fields), {
        vaultId,
      }),
      protect: options.protect,
    });
  };
  for (const address of selection.addresses) lines.push(addressLine(address));
  return `${lines.join("\n")}\n`;
}
