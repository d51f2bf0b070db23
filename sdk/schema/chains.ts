/** Blockchains and suggested fees (docs/api-notes.md, "Chains"). */
import { z } from "zod";
import { ChainUniqueId, listEnvelope, pagingQuery, queryArray, queryBool } from "./common";
import { CHAIN_TYPES, ChainSource, ChainType, GasType } from "./enums";
import { openEnum } from "./open";

/**
 * `BlockchainExplorer`: a chain's block explorer. The `*_format_url` fields are templates with a `%s`
 * placeholder for a transaction hash, an address or an asset.
 */
export const BlockchainExplorer = z.looseObject({
  transaction_url: z.string(),
  address_url: z.string(),
  root_url: z.string(),
  transaction_format_url: z.string().optional(),
  address_format_url: z.string().optional(),
  asset_format_url: z.string().optional(),
});

const chainCommon = {
  unique_id: ChainUniqueId,
  name: z.string(),
  native_currency_symbol: z.string(),
  native_currency_name: z.string(),
  blockchain_explorer: BlockchainExplorer.optional(),
  logo_url: z.string(),
  is_testnet: z.boolean(),
  is_enabled: z.boolean(),
};

/**
 * An EVM chain (`chain_type: "evm"`): numeric `chain_id`, fee model `gas_type`, and `source` (`custom` chains
 * carry their `rpc_url`).
 */
export const EvmChain = z.looseObject({
  ...chainCommon,
  chain_type: z.literal("evm"),
  chain_id: z.number().int(),
  named_chain_id: z.string().optional(),
  gas_type: GasType,
  source: ChainSource,
  rpc_url: z.string().optional(),
  supports_secure_node: z.boolean().optional(),
  supports_mev_protected_node: z.boolean().optional(),
  supports_7702: z.boolean().optional(),
});
/** A Cosmos chain (`chain_type: "cosmos"`), with its base denomination and bech32 address prefix. */
export const CosmosChain = z.looseObject({
  ...chainCommon,
  chain_type: z.literal("cosmos"),
  base_denom: z.string(),
  bech32_prefix: z.string(),
});
const otherChainTypes = CHAIN_TYPES.filter((t) => t !== "evm" && t !== "cosmos");
const OtherChain = z.looseObject({
  ...chainCommon,
  chain_type: openEnum(otherChainTypes as [string, ...string[]]),
});

/** `EnrichedChain`, a union on `chain_type`. */
export const EnrichedChain = z.union([EvmChain, CosmosChain, OtherChain]);
/** A chain record, as `GET /blockchains` lists it. */
export type EnrichedChain = z.infer<typeof EnrichedChain>;

/** A chain as embedded in other records; only `chain_type` and `unique_id` are certain. */
export const ChainRef = z.looseObject({ chain_type: ChainType.or(z.string()), unique_id: ChainUniqueId });

/**
 * Query of `GET /blockchains`: paging and filters by type, source, mainnet/testnet and exchange.
 */
export const ListBlockchainsQuery = z.object({
  ...pagingQuery(),
  /** Only chains of these types. */
  chain_types: queryArray(ChainType),
  /** Only chains of these sources (`default` built-in, `custom` user-added). */
  sources: queryArray(ChainSource),
  /** Include mainnets; default true. */
  include_mainnets: queryBool(),
  /** Include testnets; default true. */
  include_testnets: queryBool(),
  /** Include exchange pseudo-chains; default false. */
  include_exchanges: queryBool(),
  /** Include every chain, enabled or not; default false. */
  show_all: queryBool(),
});
/** Query parameters of `GET /blockchains`, as the client accepts them. */
export type ListBlockchainsQuery = z.input<typeof ListBlockchainsQuery>;
/** `ListBlockchainsResponse`: one page of chains, `{ total, page, size, chains }`. */
export const ListBlockchainsResponse = listEnvelope("chains", EnrichedChain);
/** One page of `GET /blockchains`. */
export type ListBlockchainsResponse = z.infer<typeof ListBlockchainsResponse>;

const feeLevel = z.string();
/**
 * `SuggestedFees` of one chain, a union on `type`: EVM gas prices (legacy or EIP-1559) per priority, UTXO and
 * Aptos fees per priority (UTXO: per byte), TON and Starknet gas price, Cosmos fee per signature. Fees are
 * numeric strings in the chain's minor unit (EVM: wei), except Cosmos's number.
 */
export const SuggestedFees = z.union([
  z.looseObject({
    type: z.literal("evm"),
    chain_unique_id: ChainUniqueId,
    fees: z.union([
      z.looseObject({
        type: z.literal("legacy"),
        low: z.looseObject({ price: z.string() }),
        medium: z.looseObject({ price: z.string() }),
        high: z.looseObject({ price: z.string() }),
      }),
      z.looseObject({
        type: z.literal("dynamic"),
        low: z.looseObject({ max_priority_fee_per_gas: z.string(), max_fee_per_gas: z.string() }),
        medium: z.looseObject({ max_priority_fee_per_gas: z.string(), max_fee_per_gas: z.string() }),
        high: z.looseObject({ max_priority_fee_per_gas: z.string(), max_fee_per_gas: z.string() }),
      }),
    ]),
  }),
  z.looseObject({
    type: z.enum(["utxo", "aptos"]),
    chain_unique_id: ChainUniqueId,
    low: feeLevel,
    medium: feeLevel,
    high: feeLevel,
  }),
  z.looseObject({ type: z.enum(["ton", "starknet"]), chain_unique_id: ChainUniqueId, gas_price: z.string() }),
  z.looseObject({
    type: z.literal("cosmos"),
    chain_unique_id: ChainUniqueId,
    fee_per_signature: z.number().optional(),
  }),
  z.looseObject({ type: z.string(), chain_unique_id: ChainUniqueId }),
]);
/** Suggested fees of one chain. */
export type SuggestedFees = z.infer<typeof SuggestedFees>;

/** Query of `GET /blockchains/suggested-fees`: the chains, by unique id or by type. */
export const GetSuggestedFeesQuery = z.object({
  /** Chain unique ids to get fees for. */
  chains: queryArray(ChainUniqueId),
  /** Chain types to get fees for. */
  chain_types: queryArray(ChainType),
});
/** Query parameters of `GET /blockchains/suggested-fees`. */
export type GetSuggestedFeesQuery = z.input<typeof GetSuggestedFeesQuery>;
/** Keyed by chain unique id (inferred; no source confirms the key). */
export const GetSuggestedFeesResponse = z.looseObject({
  suggested_fees: z.record(z.string(), SuggestedFees),
});
/** The suggested fees of each requested chain. */
export type GetSuggestedFeesResponse = z.infer<typeof GetSuggestedFeesResponse>;
