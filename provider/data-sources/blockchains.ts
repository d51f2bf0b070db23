/** Data sources `getBlockchains` and `getSuggestedFees`. */
import type { z } from "zod";
import {
  CosmosChain,
  type EnrichedChain,
  EvmChain,
  type GetSuggestedFeesQuery,
  type ListBlockchainsQuery,
  SuggestedFees,
} from "../../sdk";
import { withoutUndefined } from "../runtime/projection";
import { getDataSource, listDataSource } from "./define";
import { asMember } from "./fields";

/** Filters of {@link getBlockchains} (`GET /blockchains`). */
export interface GetBlockchainsArgs {
  /** Only chains of these types (`evm`, `utxo`, `solana`, …). */
  chainTypes?: string[];
  /** Only `default` (built-in) or `custom` (added by the organization) chains. */
  sources?: ("default" | "custom")[];
  /** Include mainnets; the API's default is true. */
  includeMainnets?: boolean;
  /** Include testnets; the API's default is true. */
  includeTestnets?: boolean;
  /** Include exchange pseudo-chains; the API's default is false. */
  includeExchanges?: boolean;
  /** Include every chain, enabled or not; the API's default is false. */
  showAll?: boolean;
  /** Stop after this many chains; all of them when unset. */
  maxItems?: number;
}

/** A block explorer's URLs. */
export interface BlockchainExplorer {
  /** URL of a transaction page. */
  transactionUrl: string;
  /** URL of an address page. */
  addressUrl: string;
  /** The explorer's home page. */
  rootUrl: string;
  /** Transaction URL template with a `%s` placeholder. */
  transactionFormatUrl?: string;
  /** Address URL template with a `%s` placeholder. */
  addressFormatUrl?: string;
  /** Asset URL template with a `%s` placeholder. */
  assetFormatUrl?: string;
}

/** A blockchain the platform supports (`EnrichedChain`). */
export interface Blockchain {
  /** Chain unique id, e.g. `evm_ethereum_mainnet`, `bitcoin_mainnet`. */
  uniqueId: string;
  /** Chain family: `evm`, `utxo`, `solana`, `cosmos`, … */
  chainType: string;
  /** Display name. */
  name: string;
  /** Symbol of the native currency, e.g. `ETH`. */
  nativeCurrencySymbol: string;
  /** Name of the native currency, e.g. `Ether`. */
  nativeCurrencyName: string;
  /** Whether it is a testnet. */
  isTestnet: boolean;
  /** Whether it is enabled for the organization. */
  isEnabled: boolean;
  /** Logo URL. */
  logoUrl?: string;
  /** Block explorer URLs. */
  explorer?: BlockchainExplorer;
  /** Numeric EVM chain id (evm). */
  chainId?: number;
  /** Named EVM chain id, e.g. `arbitrum_mainnet` (evm). */
  namedChainId?: string;
  /** Gas pricing: `dynamic` or `legacy` (evm). */
  gasType?: string;
  /** `default` or `custom` (evm). */
  source?: string;
  /** RPC URL of a custom chain (evm). */
  rpcUrl?: string;
  /** Whether MEV-protected submission is available (evm). */
  supportsMevProtectedNode?: boolean;
  /** Whether EIP-7702 is supported (evm). */
  supports7702?: boolean;
  /** Base denomination (cosmos). */
  baseDenom?: string;
  /** Bech32 address prefix (cosmos). */
  bech32Prefix?: string;
}

/** Maps one API chain record to a {@link Blockchain}. */
export function toBlockchain(chain: EnrichedChain): Blockchain {
  const evm = chain.chain_type === "evm" ? asMember(EvmChain, chain) : undefined;
  const cosmos = chain.chain_type === "cosmos" ? asMember(CosmosChain, chain) : undefined;
  const explorer = chain.blockchain_explorer;
  return withoutUndefined({
    uniqueId: chain.unique_id,
    chainType: chain.chain_type,
    name: chain.name,
    nativeCurrencySymbol: chain.native_currency_symbol,
    nativeCurrencyName: chain.native_currency_name,
    isTestnet: chain.is_testnet,
    isEnabled: chain.is_enabled,
    logoUrl: chain.logo_url,
    explorer: explorer
      ? withoutUndefined({
          transactionUrl: explorer.transaction_url,
          addressUrl: explorer.address_url,
          rootUrl: explorer.root_url,
          transactionFormatUrl: explorer.transaction_format_url,
          addressFormatUrl: explorer.address_format_url,
          assetFormatUrl: explorer.asset_format_url,
        })
      : undefined,
    chainId: evm?.chain_id,
    namedChainId: evm?.named_chain_id,
    gasType: evm?.gas_type,
    source: evm?.source,
    rpcUrl: evm?.rpc_url,
    supportsMevProtectedNode: evm?.supports_mev_protected_node,
    supports7702: evm?.supports_7702,
    baseDenom: cosmos?.base_denom,
    bech32Prefix: cosmos?.bech32_prefix,
  });
}

const blockchains = listDataSource<GetBlockchainsArgs, typeof ListBlockchainsQuery>()({
  name: "getBlockchains",
  query: {
    chainTypes: "chain_types",
    sources: "sources",
    includeMainnets: "include_mainnets",
    includeTestnets: "include_testnets",
    includeExchanges: "include_exchanges",
    showAll: "show_all",
  },
  whenNoArgs: {},
  list: (client, { query }) => client.blockchains.listAll(query),
  map: toBlockchain,
});

/**
 * Lists the blockchains (every page), e.g. to check that a chain is enabled before declaring a vault on it.
 * @function
 */
export const getBlockchains = blockchains.run;

/** {@link getBlockchains} taking Inputs and returning an Output. */
export const getBlockchainsOutput = blockchains.output;

/** Filters of {@link getSuggestedFees} (`GET /blockchains/suggested-fees`). */
export interface GetSuggestedFeesArgs {
  /** Chain unique ids to get fees for. */
  chains?: string[];
  /** Chain types to get fees for. */
  chainTypes?: string[];
}

/** One fee level of an EVM chain. */
export interface EvmFeeLevel {
  /** Gas price in wei (legacy pricing). */
  price?: string;
  /** Priority fee per gas in wei (dynamic pricing). */
  maxPriorityFeePerGas?: string;
  /** Maximum fee per gas in wei (dynamic pricing). */
  maxFeePerGas?: string;
}

/** Suggested network fees of one chain; which fields are set depends on `type`. */
export interface SuggestedFee {
  /** Chain family of the fee shape: `evm`, `utxo`, `aptos`, `ton`, `starknet`, `cosmos`, `sui`, … */
  type: string;
  /** Chain unique id. */
  chainUniqueId: string;
  /** Low fee (utxo: per byte; aptos). */
  low?: string;
  /** Medium fee (utxo: per byte; aptos). */
  medium?: string;
  /** High fee (utxo: per byte; aptos). */
  high?: string;
  /** Gas price (ton, starknet). */
  gasPrice?: string;
  /** Fee per signature (cosmos). */
  feePerSignature?: number;
  /** EVM fees: pricing model and the three levels. */
  evm?: {
    /** `legacy` (a gas price per level) or `dynamic` (EIP-1559 fees per level). */
    pricing: string;
    /** Fees of the low priority level. */
    low: EvmFeeLevel;
    /** Fees of the medium priority level. */
    medium: EvmFeeLevel;
    /** Fees of the high priority level. */
    high: EvmFeeLevel;
  };
}

/** The modelled members of the sdk's `SuggestedFees` union (its last member takes any `type`). */
const [EvmFees, PriorityFees, GasPriceFees, CosmosFees] = SuggestedFees.options;

/** `read` applied to each of the three fee levels. */
function perLevel<L>(levels: Record<"low" | "medium" | "high", L>, read: (level: L) => EvmFeeLevel) {
  return { low: read(levels.low), medium: read(levels.medium), high: read(levels.high) };
}

/** The fees of an EVM chain: a gas price per level (legacy pricing) or EIP-1559 fees (dynamic pricing). */
function evmFees(fees: z.output<typeof EvmFees>["fees"]): NonNullable<SuggestedFee["evm"]> {
  const pricing = fees.type;
  if (fees.type === "legacy") return { pricing, ...perLevel(fees, (level) => ({ price: level.price })) };
  return {
    pricing,
    ...perLevel(fees, (level) => ({
      maxPriorityFeePerGas: level.max_priority_fee_per_gas,
      maxFeePerGas: level.max_fee_per_gas,
    })),
  };
}

/** Maps one API fee record to a {@link SuggestedFee}. */
export function toSuggestedFee(fee: SuggestedFees): SuggestedFee {
  const evm = asMember(EvmFees, fee);
  const priority = asMember(PriorityFees, fee);
  return withoutUndefined({
    type: fee.type,
    chainUniqueId: fee.chain_unique_id,
    low: priority?.low,
    medium: priority?.medium,
    high: priority?.high,
    gasPrice: asMember(GasPriceFees, fee)?.gas_price,
    feePerSignature: asMember(CosmosFees, fee)?.fee_per_signature,
    evm: evm ? evmFees(evm.fees) : undefined,
  });
}

const suggestedFees = getDataSource<GetSuggestedFeesArgs, typeof GetSuggestedFeesQuery>()({
  name: "getSuggestedFees",
  query: { chains: "chains", chainTypes: "chain_types" },
  whenNoArgs: {},
  get: (client, { query }) => client.blockchains.suggestedFees(query),
  map: (response): Record<string, SuggestedFee> =>
    Object.fromEntries(
      Object.values(response.suggested_fees).map((fee) => [fee.chain_unique_id, toSuggestedFee(fee)]),
    ),
});

/** Suggested fees, keyed by chain unique id. @function */
export const getSuggestedFees = suggestedFees.run;

/** {@link getSuggestedFees} taking Inputs and returning an Output. */
export const getSuggestedFeesOutput = suggestedFees.output;
