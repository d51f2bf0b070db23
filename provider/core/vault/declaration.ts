/**
 * The fields of the `Vault` resource, each declared once: its inputs and outputs, what each one is, how it
 * maps to the API and what a change of it does (../fields/declare.ts says what a declaration holds and what
 * derives from it). To add an input or an output, add its entry here, in the order a program declares it
 * (docs/architecture.md, "Adding an input").
 */
import type { Vault as VaultRecord } from "@pulumi-custody/sdk";
import { z } from "zod";
import { tableType } from "../field-tables";
import { type FieldDeclarations, fromRecord, input, output } from "../fields/declare";
import { containsUnknown, isUnknown } from "../host/unknown-values";
import {
  ADOPT_ONLY_VAULT_TYPES,
  booleanSchema,
  type CheckFailure,
  isAdoptOnlyVaultType,
  keyTypeSchema,
  nameSchema,
  utxoChainSchema,
  uuidSchema,
  uuidSetSchema,
  vaultTypeSchema,
} from "../inputs/schemas";
import { keyHolder, readVaultDetails, vaultDetailFields, vaultFields } from "./fields";
import { effectiveVaultGroupIds, sameIdSet } from "./group-ids";
import { pendingVaultGroupProposalSchema, VAULT_ACQUISITIONS } from "./state-values";

type Props = Record<string, unknown>;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The user that holds the key, when it is an end user (the API reports no `end_user_id`). */
function endUserOf(vault: VaultRecord): string | undefined {
  const holder = keyHolder(vault);
  return holder?.user_type === "end_user" ? holder.id : undefined;
}

/** The fields of a `Vault`. */
export const vaultDeclaration = {
  /**
   * Vault name. Names are unique among the organization's vaults that are not archived. Renaming is an
   * in-place update (`PUT /vaults/{id}/name`). As an output, the vault's current name.
   */
  name: {
    input: input(nameSchema("a vault needs a name"), {
      required: true,
      change: "update",
      create: (name) => ({ name }),
      review: { section: "renamed" },
    }),
    output: fromRecord(vaultFields.name),
  },
  /**
   * Vault type: `aptos`, `arch`, `black_box`, `canton`, `cosmos`, `evm`, `safe`, `solana`, `stacks`,
   * `starknet`, `stellar`, `sui`, `ton`, `tron`, `utxo` or `exchange`.
   * **Changing it replaces the vault: the old one is archived, not deleted.** `safe` and `exchange` vaults
   * can only be adopted (`adoptExisting: true`): the API cannot create exchange vaults, and a Safe vault
   * imports a Safe account that exists outside the platform.
   */
  type: {
    input: input(vaultTypeSchema, {
      required: true,
      change: "replace",
      // The values are declared (an existing vault of that type can be declared and imported, and the code
      // `pulumi import` generates names them as enum members), and `check` refuses a create of them.
      valueNotes: Object.fromEntries(
        Object.entries(ADOPT_ONLY_VAULT_TYPES).map(([type, why]) => [
          type,
          `${why}: adopt an existing one with adoptExisting: true.`,
        ]),
      ),
      create: (type) => ({ type }),
      mismatch: (vault: VaultRecord, declared) =>
        vault.type !== declared.type
          ? `its type is "${vault.type}", not "${String(declared.type)}"`
          : undefined,
    }),
    output: fromRecord(vaultFields.type),
  },
  /** Lifecycle state: `active`, or `archived` after a destroy or an out-of-band archive. */
  state: { output: fromRecord(vaultFields.state) },
  /**
   * The vault's main address, for types that have one: the account address (evm, solana, aptos, sui,
   * starknet, stellar, stacks, tron, canton, safe), the raw account for ton, the main address for cosmos, the
   * Arch address for arch, and the default address for utxo. Undefined for black_box.
   */
  address: { output: fromRecord(vaultFields.address) },
  /**
   * UTXO chain, e.g. `bitcoin_mainnet`: required for `utxo` vaults, not allowed for other types.
   * **Changing it replaces the vault (the old one is archived).**
   */
  chain: {
    input: input(utxoChainSchema, {
      change: "replace",
      onlyWhen: { input: "type", is: ["utxo"], required: true, example: '"bitcoin_mainnet"' },
      create: (chain) => ({ chain }),
      mismatch: (vault: VaultRecord, declared) => {
        const chain = vaultFields.chain(vault);
        return declared.type === "utxo" && chain !== declared.chain
          ? `its chain is "${String(chain)}", not "${String(declared.chain)}"`
          : undefined;
      },
    }),
    output: fromRecord(vaultFields.chain),
  },
  /**
   * Key type of a `black_box` vault (`ecdsa_stark`, `ecdsa_secp256k1`, `eddsa_ed25519`, `schnorr_secp256k1`):
   * required for `black_box`, not allowed for other types. **Changing it replaces the vault.**
   */
  keyType: {
    input: input(keyTypeSchema, {
      change: "replace",
      onlyWhen: { input: "type", is: ["black_box"], required: true, example: '"ecdsa_secp256k1"' },
      create: (keyType) => ({ key_type: keyType }),
      mismatch: (vault: VaultRecord, declared) => {
        const keyType = vaultFields.keyType(vault);
        return declared.type === "black_box" && keyType !== declared.keyType
          ? `its key type is "${String(keyType)}", not "${String(declared.keyType)}"`
          : undefined;
      },
    }),
    output: fromRecord(vaultFields.keyType),
  },
  /**
   * The vault's other fields: `createdAt`, `modifiedAt`, key material (`publicKeyCompressed`,
   * `derivationPath`, `originType`) and those of particular vault types (utxo `defaultAddressId`,
   * `defaultAddressName`, `nextAddressName`; cosmos `evmAddress`, `chainAddresses`; ton `bounceableAddress`,
   * `nonBounceableAddress`; starknet `activationState`). A field that does not apply is absent.
   */
  details: {
    output: output(tableType(vaultDetailFields), {
      read: readVaultDetails,
      named: {
        name: "VaultDetails",
        description: "The fields of a vault beyond its main ones (`vaultDetailFields` of the runtime).",
      },
    }),
  },
  /**
   * Vault groups. As an input, the groups the vault should belong to (at least one, no duplicates): a new vault
   * is created in the first group; every other change is submitted as one change proposal that an approver
   * must accept in the console. While it waits, the outputs show it (`pendingProposal`,
   * `pendingVaultGroupIds`) and it is not submitted again. Leave it unset to leave membership alone. As an
   * output, the groups the vault belongs to now (approved membership).
   */
  vaultGroupIds: {
    input: input(uuidSetSchema("vault group"), {
      change: "update",
      unsetLeavesAlone: true,
      create: (ids) => (ids[0] !== undefined ? { vault_group_id: ids[0] } : {}),
      // Compared with the membership once everything pending is approved, as sets.
      differs: (olds, news) => {
        const desired = news.vaultGroupIds;
        if (desired === undefined || desired === null) return false;
        if (containsUnknown(desired) || !Array.isArray(desired)) return true;
        return !sameIdSet(strings(desired), effectiveVaultGroupIds(olds));
      },
      // Declared: the membership once what is pending is approved; undeclared, membership is left alone.
      live: (outputs) => {
        if (outputs.declaredVaultGroupIds === undefined) return undefined;
        const current = strings(outputs.vaultGroupIds);
        const removing = new Set(strings(outputs.pendingRemovalVaultGroupIds));
        return [
          ...current.filter((id) => !removing.has(id)),
          ...strings(outputs.pendingVaultGroupIds).filter((id) => !current.includes(id)),
        ];
      },
      review: { section: "groups" },
    }),
    output: output(z.array(z.string())),
  },
  /** Groups a pending proposal adds the vault to; empty when nothing waits for approval. */
  pendingVaultGroupIds: { output: output(z.array(z.string())) },
  /** Groups a pending proposal removes the vault from; empty when nothing waits for approval. */
  pendingRemovalVaultGroupIds: { output: output(z.array(z.string())) },
  /** The submitted, not yet approved vault-group proposal, if any. It is not submitted again while pending. */
  pendingProposal: {
    output: output(pendingVaultGroupProposalSchema.optional(), {
      named: {
        name: "PendingVaultGroupProposal",
        description: "A vault-group change proposal that was submitted and is waiting for approval.",
      },
    }),
  },
  /** The vault groups the program declares (`vaultGroupIds` input); absent when groups are left alone. */
  declaredVaultGroupIds: { output: output(z.array(z.string()).optional(), { carries: "vaultGroupIds" }) },
  /** End user (consumer wallet) that holds the key. **Changing it replaces the vault.** */
  endUserId: {
    input: input(uuidSchema(), {
      change: "replace",
      create: (id) => ({ end_user_id: id }),
      mismatch: (vault: VaultRecord, declared) => {
        const holder = keyHolder(vault);
        return declared.endUserId !== undefined &&
          holder?.user_type === "end_user" &&
          holder.id !== declared.endUserId
          ? `its key is held by end user ${holder.id}, not ${String(declared.endUserId)}`
          : undefined;
      },
    }),
    output: output(z.string().optional(), { carries: "endUserId", read: endUserOf }),
  },
  /**
   * The `archived` input, as declared; absent when the program leaves it out. A refresh reports `archived`
   * only when it was declared, so that neither `archived: false` nor its absence shows as a difference.
   */
  declaredArchived: { output: output(z.boolean().optional(), { carries: "archived" }) },
  /**
   * Take over an active vault that already has this name (and the same type, chain and key type) instead of
   * failing: the substitute for `pulumi import`, which dynamic resources do not support. Changing it alone
   * changes nothing. Archived vaults of the same name and kind are always restored and reused.
   */
  adoptExisting: {
    input: input(booleanSchema, {
      change: "none",
      default: false,
      review: {
        section: "safety",
        whenTrue:
          "changes nothing now; should this vault ever be created again (a replacement), an active vault of the same name is taken over instead of failing",
      },
    }),
    output: output(z.boolean(), { carries: "adoptExisting" }),
  },
  /**
   * Archive the vault and keep it in the stack: the reviewed way to retire a vault (docs/policy.md, "Retiring a
   * vault"). `true` archives it on the next `up`; `false` (or unset) restores it. Either is an update of the same
   * vault, never a replacement: it keeps its id, its address and whatever it holds.
   */
  archived: {
    input: input(booleanSchema, {
      change: "update",
      // Compared with the vault's state: declared archived and live active (or the reverse) is an update.
      differs: (olds, news) =>
        containsUnknown(news.archived) || (news.archived === true) !== (olds.state === "archived"),
      live: (outputs) =>
        outputs.state === "archived" ? true : outputs.declaredArchived !== undefined ? false : undefined,
      review: { section: "archive" },
    }),
  },
  /** Whether the resource created the vault, restored an archived one, or adopted an active one. */
  acquisition: {
    output: output(z.enum(VAULT_ACQUISITIONS), {
      named: { name: "VaultAcquisition", description: "How the resource came to manage its vault." },
    }),
  },
} as const satisfies FieldDeclarations;

/**
 * The rule of a `Vault` between inputs that no one field declares: a type the resource can only adopt (safe,
 * exchange) needs `adoptExisting: true`. Skipped while the type or `adoptExisting` is not known.
 */
export function vaultInputRules(declared: Props): CheckFailure[] {
  const { type, adoptExisting } = declared;
  if (typeof type !== "string" || isUnknown(type) || !vaultTypeSchema.safeParse(type).success) return [];
  if (!isAdoptOnlyVaultType(type) || adoptExisting === true || isUnknown(adoptExisting)) return [];
  return [
    {
      property: "type",
      reason: `${ADOPT_ONLY_VAULT_TYPES[type]}; set adoptExisting: true to manage a "${type}" vault that already exists`,
    },
  ];
}
