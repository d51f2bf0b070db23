/**
 * Builds the transaction record returned by `POST /transactions` (docs/api-notes.md, "Transactions"): the
 * envelope common to every type, plus chain, parties and amounts for the modelled EVM, Solana and UTXO
 * transfers. Other types keep their request `details` as sent.
 */
import { UUID_PATTERN } from "@pulumi-custody/sdk/schema";
import { preconditionFailed } from "../api-error";
import { findAsset } from "../seed/assets";
import { findChain, findEvmChain } from "../seed/chains";
import type { Store } from "../state/store";
import type { TransactionRecord, VaultRecord } from "../state/types";
import type { Views } from "../state/views";

type Json = Record<string, unknown>;

/** The states a transaction of `type` walks through, following the observed real sequences. */
export function planFor(type: string): string[] {
  const pushable = type.endsWith("_transaction") && type !== "exchange_transaction";
  return pushable
    ? ["waiting_for_approval", "approved", "signed", "pushed_to_blockchain", "mined", "completed"]
    : ["waiting_for_approval", "approved", "signed", "completed"];
}

/** The vault type a transaction type needs (`evm_transaction` → `evm`, `black_box_signature` → `black_box`). */
export function vaultTypeFor(transactionType: string): string {
  if (transactionType === "black_box_signature") return "black_box";
  return transactionType.replace(/_(transaction|message)$/, "");
}

/** A bare vault id, as real clients send it for `to` (docs/api-notes.md, "Transactions"). */
const VAULT_ID = UUID_PATTERN;

/** A resolved recipient: its address, and the vault it belongs to when it names one of ours. */
interface Recipient {
  address: string;
  vault?: Json;
}

function invalidRecipient(detail: string): Error {
  return preconditionFailed("Invalid recipient", detail, "invalid_recipient");
}

function vaultRecipient(store: Store, views: Views, vaultId: string): Recipient {
  const target = store.vaults.get(vaultId.toLowerCase()) ?? store.vaults.get(vaultId);
  const address = target ? views.mainAddress(target) : undefined;
  if (!target || !address) throw invalidRecipient(`Recipient vault ${vaultId} does not exist`);
  return { address, vault: views.vaultRef(target) };
}

/**
 * The recipient `to` names: an object (`hex`/`address`, `vault_id`, `vault_address_id`, `contact_id`), or a bare
 * string, which is the id of the recipient vault when it is a UUID (no chain's address is) and an address
 * otherwise.
 */
function recipientOf(store: Store, views: Views, to: unknown): Recipient {
  if (typeof to === "string") return VAULT_ID.test(to) ? vaultRecipient(store, views, to) : { address: to };
  const r = to as {
    type: string;
    address?: string;
    vault_id?: string;
    vault_address_id?: string;
    contact_id?: string;
  };
  if (r.type === "vault_address_id") {
    const address = store.addresses.get(r.vault_address_id!);
    if (!address) throw invalidRecipient(`Recipient vault address ${r.vault_address_id} does not exist`);
    return { address: address.address };
  }
  if (r.type === "vault_id") return vaultRecipient(store, views, r.vault_id!);
  if (r.type === "contact_id") {
    throw invalidRecipient(`Contact ${r.contact_id} does not exist (the emulator has no address book)`);
  }
  return { address: r.address! };
}

function recipientAddress(store: Store, views: Views, to: unknown): string {
  return recipientOf(store, views, to).address;
}

function chainOf(id: string): Json {
  const chain = findChain(id);
  if (!chain || chain.is_enabled === false) {
    throw preconditionFailed(
      "Chain is not supported",
      `Chain ${id} is not supported`,
      "chain_is_not_supported",
    );
  }
  return chain as unknown as Json;
}

function transferValue(
  store: Store,
  vault: VaultRecord,
  value: { type: string; value?: string },
  assetChain: string,
) {
  if (value.type === "value") return value.value!;
  // "max": the whole available balance of the asset's native coin on that chain.
  const owned = store
    .ownedAssetsOf(vault.id)
    .find((o) => findAsset(o.asset_id)?.chainUniqueId === assetChain);
  return owned?.balances.available_mined ?? "0";
}

/** The type-specific part of the record. */
function typeFields(store: Store, views: Views, vault: VaultRecord, body: Json): Json {
  const details = body.details as Json & { type: string };
  const from = views.mainAddress(vault);
  const vaultRef = views.vaultRef(vault);
  switch (details.type) {
    case "evm_transfer": {
      const asset = details.asset_identifier as {
        details: { type: string; chain?: string; token?: { chain: string; hex_repr: string } };
      };
      const chainId = asset.details.chain ?? asset.details.token!.chain;
      const chain = chainOf(chainId);
      const isToken = asset.details.type !== "native";
      const recipient = recipientOf(store, views, details.to);
      const to = recipient.address;
      return {
        chain,
        from: { type: "evm", address: from, vault: vaultRef },
        // A token transfer calls the token's contract; the recipient is in the type details.
        to: isToken
          ? { type: "evm", address: asset.details.token!.hex_repr }
          : { type: "evm", address: to, ...(recipient.vault ? { vault: recipient.vault } : {}) },
        value: isToken
          ? "0"
          : transferValue(store, vault, details.value as { type: string }, chain.unique_id as string),
        data: "",
        // The published schema requires an object: a native or token transfer calls no method.
        parsed_data: isToken
          ? { method: "transfer", method_arguments: [] }
          : { method: "", method_arguments: [] },
        evm_transaction_type_details: isToken
          ? { type: "token_transfer", direction: "outgoing", recipient: to }
          : { type: "native_transfer", direction: "outgoing", is_internal: false },
        is_cancelation: false,
        is_acceleration: false,
        gas_submitted: gasOf(details.gas, chain.gas_type as string),
        use_mev_protected_node: Boolean(details.use_mev_protected_node),
      };
    }
    case "evm_raw_transaction": {
      const chain = findEvmChain(details.chain as string | number);
      if (!chain) {
        throw preconditionFailed(
          "Chain is not supported",
          `Chain ${String(details.chain)} is not supported`,
          "chain_is_not_supported",
        );
      }
      const data = details.data as { type: string; hex_data?: string; raw_data?: string } | undefined;
      return {
        chain,
        from: { type: "evm", address: from, vault: vaultRef },
        to: details.to ? { type: "evm", address: recipientAddress(store, views, details.to) } : null,
        value: details.value,
        data:
          data?.type === "hex"
            ? Buffer.from((data.hex_data ?? "").replace(/^0[xX]/, ""), "hex").toString("base64")
            : (data?.raw_data ?? ""),
        hex_data: data?.type === "hex" ? data.hex_data : undefined,
        parsed_data: { method: "", method_arguments: [] },
        evm_transaction_type_details: details.to
          ? { type: "contract_call" }
          : { type: "contract_deployment" },
        is_cancelation: false,
        is_acceleration: false,
        gas_submitted: gasOf(details.gas, chain.gas_type as string),
        use_mev_protected_node: false,
      };
    }
    case "solana_transfer": {
      const asset = details.asset_identifier as { details: { chain?: string; token?: { chain: string } } };
      const chain = chainOf(asset.details.chain ?? asset.details.token!.chain);
      return {
        chain,
        from: { type: "solana", address: from, vault: vaultRef },
        to: { type: "solana", address: recipientAddress(store, views, details.to) },
        value: transferValue(store, vault, details.value as { type: string }, chain.unique_id as string),
      };
    }
    case "utxo_transfer": {
      const chain = findChain(vault.utxo!.chain);
      const outputs = ((details.outputs ?? []) as { to: unknown; value: string }[]).map((o) => ({
        address: recipientAddress(store, views, o.to),
        value: o.value,
      }));
      const fixed = outputs.reduce((sum, o) => sum + BigInt(o.value), 0n);
      if (details.send_max_to !== undefined) {
        // Everything the vault holds beyond the fixed outputs goes to `send_max_to`.
        const held = BigInt(transferValue(store, vault, { type: "max" }, chain!.unique_id as string));
        const rest = held > fixed ? held - fixed : 0n;
        outputs.push({
          address: recipientAddress(store, views, details.send_max_to),
          value: rest.toString(),
        });
      }
      if (outputs.length === 0) {
        throw preconditionFailed(
          "Invalid outputs",
          "A UTXO transfer needs at least one output or send_max_to",
          "invalid_outputs",
        );
      }
      return {
        chain,
        inputs: [{ address: from, vault: vaultRef }],
        outputs,
        value: outputs.reduce((sum, o) => sum + BigInt(o.value), 0n).toString(),
      };
    }
    default:
      return { details };
  }
}

function gasOf(gas: unknown, gasType: string): Json {
  const g = gas as { type?: string; priority_level?: string; gas_limit?: string; details?: Json } | undefined;
  const limit = g?.gas_limit ?? "21000";
  if (g?.type === "custom" && g.details) return { ...g.details, priority: "custom", limit };
  const priority = g?.priority_level ?? "medium";
  return gasType === "legacy"
    ? { type: "legacy", price: "100000000", priority, limit }
    : {
        type: "dynamic",
        max_priority_fee_per_gas: "1500000000",
        max_fee_per_gas: "30000000000",
        priority,
        limit,
      };
}

/** A new transaction record in state `approved` (the real create response is already approved). */
export function buildTransaction(
  store: Store,
  views: Views,
  input: { vault: VaultRecord; body: Json; userId: string; idempotenceId?: string; nowMs: number },
): TransactionRecord {
  const { vault, body } = input;
  const id = store.nextId();
  const now = store.now();
  const vaultRef = views.vaultRef(vault);
  const record: TransactionRecord["body"] = {
    id,
    created_at: now,
    modified_at: now,
    type: body.type as string,
    state: "approved",
    direction: "outgoing",
    organization_id: store.organizationId,
    signatures: [],
    ...(body.note !== undefined ? { note: body.note } : {}),
    spam_state: "unset",
    signed_externally: false,
    interacted_vaults: [vaultRef],
    related_transactions: [],
    state_changes: [
      { changed_at: now, new_state: "waiting_for_approval" },
      {
        changed_at: now,
        previous_state: "waiting_for_approval",
        // No `reason`: the published enum of reasons names failures only.
        new_state: "approved",
      },
    ],
    managed_transaction_data: {
      created_by: views.userRef(input.userId),
      signer_type: body.signer_type ?? "initiator",
      risks: [],
      vault: vaultRef,
      ...(input.idempotenceId ? { idempotence_id: input.idempotenceId } : {}),
      has_current_user_vault_permissions: true,
      push_mode: (body.details as Json).push_mode ?? "auto",
      sign_mode: body.sign_mode ?? "auto",
      policy_match: {
        is_default: true,
        rule_id: store.defaultVaultGroupId,
        rule_name: "Default",
        action_type: "allow",
      },
    },
    ...typeFields(store, views, vault, body),
  };
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return {
    id,
    vault_id: vault.id,
    ...(input.idempotenceId ? { idempotence_id: input.idempotenceId } : {}),
    plan: planFor(record.type),
    step: 1,
    stepped_at_ms: input.nowMs,
    body: record,
  };
}
