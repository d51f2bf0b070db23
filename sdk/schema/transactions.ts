/**
 * Transactions (docs/api-notes.md, "Transactions" and "Request signing").
 *
 * The create body is a union on `type`, and `details` a union on its own `type`. EVM transfer and raw
 * transaction, Solana transfer and UTXO transfer are modelled field by field; every other transaction type
 * passes with only its envelope (`vault_id`, `type`, `details.type`) checked, so new service features keep
 * working without a client release.
 */
import { z } from "zod";
import { ChainUniqueId, DateTime, DecimalString, UUID_PATTERN, Uuid } from "./common";
import { PushableTransactionState, SignerType, TransactionType } from "./enums";
import { openEnum, openLiteral, openUnion, parseNested } from "./open";
import { VaultRef } from "./refs";

/** Validates `value` against `variants[value.type]` when that type is modelled; otherwise passes it. */
function typedByType(variants: Record<string, z.ZodType>) {
  return z
    .looseObject({ type: z.string().min(1, { message: "must not be empty" }) })
    .superRefine((value, ctx) => {
      const schema = variants[value.type];
      if (!schema) return;
      const result = parseNested(schema, value);
      if (result.success) return;
      for (const issue of result.error.issues) {
        ctx.addIssue({ code: "custom", message: issue.message, path: issue.path as PropertyKey[] });
      }
    });
}

// The published schema's own rule: 42 characters, `0x` or `0X`, then hex.
const EvmAddress = z
  .string()
  .regex(/^0[xX][a-fA-F0-9]{40}$/, { message: "must be a 0x-prefixed 20-byte hex address" });
/**
 * A bare recipient, as real clients send it and the service accepts (docs/api-notes.md, "Transactions"): a hex
 * address, or the id of the recipient vault. One pattern, so that a wrong value gets one message naming both.
 */
const BareEvmRecipient = z
  .string()
  .regex(new RegExp(`^(?:0[xX][a-fA-F0-9]{40}|${UUID_PATTERN.source.slice(1, -1)})$`), {
    message: "must be a 0x-prefixed 20-byte hex address or a vault id (a UUID)",
  });
/** A recipient: a hex address object, another vault, a contact, or (as real clients send) a bare string. */
const EvmRecipient = z.union([
  BareEvmRecipient,
  openUnion("type", [
    z.object({ type: z.literal("hex"), address: EvmAddress }),
    z.object({ type: z.literal("vault_id"), vault_id: Uuid }),
    z.object({ type: z.literal("contact_id"), contact_id: Uuid }),
  ]),
]);
const TransferValue = openUnion("type", [
  z.object({ type: z.literal("value"), value: DecimalString }),
  z.object({ type: z.literal("max") }),
]);
const Priority = openEnum(["low", "medium", "high"]);
const EvmGas = openUnion("type", [
  z.object({ type: z.literal("priority"), priority_level: Priority, gas_limit: DecimalString.optional() }),
  z.object({
    type: z.literal("custom"),
    gas_limit: DecimalString.optional(),
    details: openUnion("type", [
      z.object({ type: z.literal("legacy"), price: DecimalString }),
      z.object({
        type: z.literal("dynamic"),
        max_priority_fee_per_gas: DecimalString,
        max_fee_per_gas: DecimalString,
      }),
    ]),
  }),
]);
const EvmAssetIdentifier = z.object({
  type: openLiteral("evm"),
  details: typedByType({
    native: z.object({ type: z.literal("native"), chain: ChainUniqueId }),
    erc20: z.object({
      type: z.literal("erc20"),
      token: z.object({ chain: ChainUniqueId, hex_repr: EvmAddress }),
    }),
  }),
});
const pushOptions = {
  push_mode: openEnum(["auto", "manual", "deferred"]).optional(),
  fee_payer: z.looseObject({ type: openLiteral("vault"), vault_id: Uuid }).optional(),
};

/**
 * `details` of an EVM transfer (`details.type: "evm_transfer"`): recipient, asset (native or ERC-20), amount
 * in the asset's minor unit, and gas.
 */
export const EvmTransferDetails = z.object({
  type: z.literal("evm_transfer"),
  to: EvmRecipient,
  asset_identifier: EvmAssetIdentifier,
  value: TransferValue,
  gas: EvmGas.optional(),
  fail_on_prediction_failure: z.boolean().optional(),
  skip_prediction: z.boolean().optional(),
  use_mev_protected_node: z.boolean().optional(),
  custom_nonce: z.union([z.number().int(), DecimalString]).optional(),
  ...pushOptions,
});
/**
 * `details` of a raw EVM transaction (`details.type: "evm_raw_transaction"`): chain, recipient, value in wei,
 * call data (hex or base64), and gas.
 */
export const EvmRawTransactionDetails = z.object({
  type: z.literal("evm_raw_transaction"),
  /** An EVM chain name, numeric chain id, or unique id. */
  chain: z.union([ChainUniqueId, z.number().int().positive()]),
  to: EvmRecipient.optional(),
  value: DecimalString,
  data: typedByType({
    hex: z.object({ type: z.literal("hex"), hex_data: z.string().regex(/^(0[xX])?[0-9a-fA-F]*$/) }),
    base64: z.object({ type: z.literal("base64"), raw_data: z.string() }),
  }).optional(),
  gas: EvmGas.optional(),
  skip_prediction: z.boolean().optional(),
  custom_nonce: z.union([z.number().int(), DecimalString]).optional(),
  ...pushOptions,
});

/**
 * `details` of a Solana transfer (`details.type: "solana_transfer"`): recipient, asset (SOL or an SPL token),
 * amount in the asset's minor unit.
 */
export const SolanaTransferDetails = z.object({
  type: z.literal("solana_transfer"),
  to: z.union([
    z.string().min(32).max(44),
    openUnion("type", [
      z.object({ type: z.literal("address"), address: z.string().min(32).max(44) }),
      // Older clients sent `hex`; kept so that their bodies stay valid.
      z.object({ type: z.literal("hex"), address: z.string().min(32).max(44) }),
      z.object({ type: z.literal("vault_id"), vault_id: Uuid }),
      z.object({ type: z.literal("contact_id"), contact_id: Uuid }),
    ]),
  ]),
  asset_identifier: z.object({
    type: openLiteral("solana"),
    details: typedByType({
      native: z.object({ type: z.literal("native"), chain: ChainUniqueId }),
      spl_token: z.object({
        type: z.literal("spl_token"),
        token: z.object({ chain: ChainUniqueId, base58_repr: z.string() }),
      }),
    }),
  }),
  value: TransferValue,
  fee: z.looseObject({ type: z.string() }).optional(),
  ...pushOptions,
});

const UtxoRecipient = z.union([
  z.string().min(14).max(74),
  openUnion("type", [
    z.object({ type: z.literal("address"), address: z.string().min(14).max(74) }),
    z.object({ type: z.literal("vault_address_id"), vault_address_id: Uuid }),
    z.object({ type: z.literal("vault_id"), vault_id: Uuid }),
    z.object({ type: z.literal("contact_id"), contact_id: Uuid }),
  ]),
]);
/**
 * `details` of a UTXO transfer (`details.type: "utxo_transfer"`): outputs, each a recipient and an amount in
 * satoshi (or the chain's minor unit), and/or `send_max_to`, which receives everything left.
 */
export const UtxoTransferDetails = z.object({
  type: z.literal("utxo_transfer"),
  outputs: z.array(z.object({ to: UtxoRecipient, value: DecimalString })).optional(),
  send_max_to: UtxoRecipient.optional(),
  fee_per_byte: z.looseObject({ type: z.string() }).optional(),
  memos: z.array(z.string()).optional(),
  ...pushOptions,
});

const envelope = {
  /** The vault that signs. */
  vault_id: Uuid,
  /** Free-text note shown to approvers. */
  note: z.string().optional(),
  /** Who signs; default `initiator`. */
  signer_type: SignerType.optional(),
  /** `auto` signs at once; `triggered` waits for a signing trigger. */
  sign_mode: openEnum(["auto", "triggered"]).optional(),
  /** The dapp that asked for the transaction. */
  dapp_info: z.object({ url: z.string(), name: z.string() }).optional(),
};

const modelledTransactions: Record<string, z.ZodType> = {
  evm_transaction: z.looseObject({
    ...envelope,
    type: z.literal("evm_transaction"),
    details: typedByType({ evm_transfer: EvmTransferDetails, evm_raw_transaction: EvmRawTransactionDetails }),
  }),
  solana_transaction: z.looseObject({
    ...envelope,
    type: z.literal("solana_transaction"),
    details: typedByType({ solana_transfer: SolanaTransferDetails }),
  }),
  utxo_transaction: z.looseObject({
    ...envelope,
    type: z.literal("utxo_transaction"),
    details: typedByType({ utxo_transfer: UtxoTransferDetails }),
  }),
};

/** `CreateTransactionRequest`. */
export const CreateTransactionRequest = z
  .looseObject({ ...envelope, type: TransactionType, details: z.looseObject({}) })
  .superRefine((value, ctx) => {
    const schema = modelledTransactions[value.type];
    if (!schema) return;
    const result = parseNested(schema, value);
    if (result.success) return;
    for (const issue of result.error.issues) {
      ctx.addIssue({ code: "custom", message: issue.message, path: issue.path as PropertyKey[] });
    }
  });

/**
 * A transfer recipient: `{type: "hex", address}`, another vault, an address-book contact, or a bare string: an
 * address, or (EVM) the id of the recipient vault, as real clients send them (docs/api-notes.md, "Transactions").
 */
type Recipient =
  | string
  | { type: "hex"; address: string }
  | { type: "vault_id"; vault_id: string }
  | { type: "contact_id"; contact_id: string };
/** EVM transfer details (`details.type = "evm_transfer"`). */
export type EvmTransferDetails = z.input<typeof EvmTransferDetails>;
/** EVM raw transaction details. */
export type EvmRawTransactionDetails = z.input<typeof EvmRawTransactionDetails>;
/** Solana transfer details. */
export type SolanaTransferDetails = z.input<typeof SolanaTransferDetails>;
/** UTXO transfer details. */
export type UtxoTransferDetails = z.input<typeof UtxoTransferDetails>;
interface TransactionEnvelope {
  /** The vault that signs. */
  vault_id: string;
  /** Free-text note shown to approvers. */
  note?: string;
  /** Who signs; default `initiator`. */
  signer_type?: z.infer<typeof SignerType>;
  /** `auto` signs at once; `triggered` waits for a signing trigger. */
  sign_mode?: "auto" | "triggered";
  /** The dapp that asked for the transaction. */
  dapp_info?: { url: string; name: string };
}
/** A create-transaction body: typed for the modelled variants, open for the rest. */
export type CreateTransactionRequest = TransactionEnvelope &
  (
    | { type: "evm_transaction"; details: EvmTransferDetails | EvmRawTransactionDetails }
    | { type: "solana_transaction"; details: SolanaTransferDetails }
    | { type: "utxo_transaction"; details: UtxoTransferDetails }
    | {
        type: Exclude<TransactionType, "evm_transaction" | "solana_transaction" | "utxo_transaction">;
        details: { type: string; [k: string]: unknown };
      }
  );
export type { Recipient as TransferRecipient };

/**
 * The signing vault of a transaction (`managed_transaction_data.vault`). Real `createTransaction` answers send
 * it as `{id, name, state}` only, without the `type` the published `VaultRef` requires (docs/api-notes.md,
 * "Transactions"), so `type` is optional here.
 */
const SigningVaultRef = VaultRef.extend({ type: VaultRef.shape.type.optional() });

/** A transaction record; lenient, since its union has many variants. */
export const Transaction = z.looseObject({
  id: Uuid,
  created_at: DateTime,
  modified_at: DateTime,
  type: TransactionType.or(z.string()),
  state: PushableTransactionState.or(z.string()),
  direction: z.enum(["outgoing", "incoming"]).or(z.string()).optional(),
  organization_id: z.string().optional(),
  signatures: z.array(z.looseObject({ data: z.string() })).optional(),
  note: z.string().optional(),
  interacted_vaults: z.array(VaultRef).optional(),
  state_changes: z
    .array(
      z.looseObject({
        changed_at: DateTime,
        previous_state: z.string().optional(),
        new_state: z.string(),
        reason: z.string().optional(),
      }),
    )
    .optional(),
  managed_transaction_data: z
    .looseObject({
      idempotence_id: z.string().optional(),
      signer_type: z.string().optional(),
      vault: SigningVaultRef.optional(),
    })
    .optional(),
});
export type Transaction = z.infer<typeof Transaction>;
