/**
 * The program of an import on the dynamic provider (`pulumi-custody`'s `Vault` and `VaultAddress`). Dynamic
 * resources cannot be imported (the engine has no import for them), so the program adopts instead: each vault
 * is declared as it is with `adoptExisting: true`, which takes over the active vault of that exact name and
 * kind, and each address by its name in its vault, which a `VaultAddress` adopts. Its first `up` records them
 * and changes nothing on the service; the next preview is clean.
 */
import type { PlannedAddress, PlannedVault, Selection } from "./select";

/** Words TypeScript does not allow as a variable name. */
const RESERVED_WORDS = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if import in instanceof new null return super switch this throw true try typeof var void " +
    "while with as implements interface let package private protected public static yield await"
  ).split(" "),
);

/**
 * The variable of a resource name: `btc-cold-storage` → `btcColdStorage`, `ops-2` → `ops_2`, a reserved word
 * with a `_` after it. Resource names are lower-case words joined by `-`, so no two get the same variable.
 */
export function variableOf(resourceName: string): string {
  const camel = resourceName
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
    .replace(/-([0-9])/g, "_$1");
  return RESERVED_WORDS.has(camel) ? `${camel}_` : camel;
}

function literal(value: unknown): string {
  return JSON.stringify(value);
}

/** The object literal of some inputs, in a stable order. */
function args(inputs: Readonly<Record<string, unknown>>, order: readonly string[]): string {
  const keys = [
    ...order.filter((k) => k in inputs),
    ...Object.keys(inputs).filter((k) => !order.includes(k)),
  ];
  return `{ ${keys.map((k) => `${k}: ${k === "vaultId" ? String(inputs[k]) : literal(inputs[k])}`).join(", ")} }`;
}

/** The inputs the dynamic program declares a vault with: as it is, adopted by its exact name. */
export function adoptedVaultInputs(planned: PlannedVault): Record<string, unknown> {
  return { ...planned.inputs, adoptExisting: true };
}

/** The TypeScript program that adopts the selection through the dynamic provider. */
export function dynamicProgram(selection: Selection, options: { protect: boolean }): string {
  const opts = options.protect ? ", { protect: true }" : "";
  const withAddresses = new Set(selection.addresses.flatMap((a) => (a.vault ? [a.vault.vault.id] : [])));
  const lines = [
    "// Written by `custody import --provider dynamic`: the vaults (and addresses) below exist already; each is",
    "// declared as it is and adopted by its exact name, so the first `pulumi up` takes them over and changes nothing.",
    `import { ${selection.addresses.length > 0 ? "Vault, VaultAddress" : "Vault"} } from "pulumi-custody";`,
    "",
  ];
  const vaultLine = (p: PlannedVault) => {
    const inputs = adoptedVaultInputs(p);
    const statement = `new Vault(${literal(p.name)}, ${args(inputs, ["name", "type", "chain", "keyType", "endUserId", "vaultGroupIds", "adoptExisting"])}${opts});`;
    return withAddresses.has(p.vault.id) ? `const ${variableOf(p.name)} = ${statement}` : statement;
  };
  for (const planned of selection.vaults) lines.push(vaultLine(planned));
  if (selection.addresses.length > 0) lines.push("");
  // An address of a vault a stack manages already names the vault by its id.
  const addressLine = (a: PlannedAddress) => {
    const vaultId = a.vault ? `${variableOf(a.vault.name)}.id` : literal(a.address.vault.id.toLowerCase());
    return `new VaultAddress(${literal(a.name)}, ${args({ ...a.inputs, vaultId }, ["vaultId", "name", "addressType"])}${opts});`;
  };
  for (const address of selection.addresses) lines.push(addressLine(address));
  return `${lines.join("\n")}\n`;
}
