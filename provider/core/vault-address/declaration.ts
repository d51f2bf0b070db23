/**
 * The fields of the `VaultAddress` resource, each declared once (../fields/declare.ts says what a declaration
 * holds and what derives from it). To add an input or an output, add its entry here (docs/architecture.md).
 */
import { z } from "zod";
import { type FieldDeclarations, fromRecord, input, output } from "../fields/declare";
import { containsUnknown } from "../host/unknown-values";
import { addressTypeSchema, nameSchema, uuidSchema } from "../inputs/schemas";
import { vaultAddressFields } from "./fields";

/**
 * The name the address must have, or `undefined` when its name is left alone: no name declared, or only the
 * default (the resource name) while the address already has a name of its own. That keeps addresses that an
 * earlier release created without a name, or whose declared name was removed, as they are.
 */
export function nameToApply(olds: Record<string, unknown>, news: Record<string, unknown>): unknown {
  if (news.name === undefined || news.name === null) return undefined;
  if (news.nameIsDefault === true && olds.nameIsDefault !== true) return undefined;
  return news.name;
}

/** The fields of a `VaultAddress`. */
export const vaultAddressDeclaration = {
  /**
   * Id of the UTXO vault that owns the address (e.g. a `Vault`'s `id`). **Changing it replaces the address.**
   */
  vaultId: {
    input: input(uuidSchema(), { required: true, change: "replace" }),
    output: fromRecord(vaultAddressFields.vaultId),
  },
  /**
   * Address name, unique within the vault. Renaming is an in-place update. Default: the Pulumi resource name,
   * so that every address can be found again by name: after a lost create response, and after `destroy`
   * followed by `up` (an address that already has the name is adopted, never duplicated). A default name
   * never renames an address that already has a name of its own (for example one created without a name by
   * an earlier release).
   */
  name: {
    input: input(nameSchema("leave name unset to use the resource name"), {
      change: "update",
      create: (name) => ({ name }),
      differs: (olds, news) => {
        const name = nameToApply(olds, news);
        return containsUnknown(name) || (name !== undefined && olds.name !== name);
      },
      review: { section: "renamed" },
    }),
    output: fromRecord(vaultAddressFields.name),
  },
  /** The address itself (what senders pay to). */
  address: { output: fromRecord(vaultAddressFields.address) },
  /**
   * Address type: `legacy`, `segwit` or `taproot` (`p2sh` cannot be requested); the API's default when unset.
   * **Changing it replaces the address** (the old one cannot be deleted; it is forgotten). As an output, also
   * `p2sh` or `merkleroot` for adopted addresses.
   */
  addressType: {
    input: input(addressTypeSchema, {
      change: "replace",
      // Unset means "whatever the API chose", so it never differs.
      unsetLeavesAlone: true,
      create: (addressType) => ({ address_type: addressType }),
    }),
    output: fromRecord(vaultAddressFields.addressType),
  },
  /** UTXO chain unique id, e.g. `bitcoin_mainnet`. */
  chain: { output: fromRecord(vaultAddressFields.chain) },
  /** BIP-32 derivation path of the address key, e.g. `m/84/0/0/0/3`. */
  derivationPath: { output: fromRecord(vaultAddressFields.derivationPath) },
  /** Base64 public key of the address. */
  publicKeyCompressed: { output: fromRecord(vaultAddressFields.publicKeyCompressed) },
  /** Creation time (ISO-8601). */
  createdAt: { output: fromRecord(vaultAddressFields.createdAt) },
  /** Last modification time (ISO-8601). */
  modifiedAt: { output: fromRecord(vaultAddressFields.modifiedAt) },
  /** Whether the resource created the address or adopted one that had its name. */
  acquisition: { output: output(z.enum(["created", "adopted"])) },
  /**
   * The name is the resource's default (the resource name), not declared by the program: so the default keeps
   * an address's own name, and drift renames back only a declared one.
   */
  nameIsDefault: {
    input: input(z.literal(true).optional(), { change: "none", setByResource: true }),
    output: output(z.literal(true).optional(), { carries: "nameIsDefault" }),
  },
} as const satisfies FieldDeclarations;
