/** Data sources `getBlockchains` and `getSuggestedFees`. */

import {
  CosmosChain,
  type EnrichedChain,
  EvmChain,
  GetSuggestedFeesQuery,
  ListBlockchainsQuery,
  SuggestedFees,
} from "@pulumi-custody/sdk";
import { z } from "zod";
import { field, type Projected, project, withoutUndefined } from "../core/field-tables";
import { type DataSourceEntry, getDataSource, listDataSource } from "./define";
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

/** The shape of a {@link BlockchainExplorerInfo}. */
const blockchainExplorerInfo = z.object({
  /** URL of a transaction page. */
  transactionUrl: z.string(),
  /** URL of an address page. */
  addressUrl: z.string(),
  /** The explorer's home page. */
  rootUrl: z.string(),
  /** Transaction URL template with a `%s` placeholder. */
  transactionFormatUrl: z.string().optional(),
  /** Address URL template with a `%s` placeholder. */
  addressFormatUrl: z.string().optional(),
  /** Asset URL template with a `%s` placeholder. */
  assetFormatUrl: z.string().optional(),
});

/** A block explorer's URLs. */
export interface BlockchainExplorerInfo extends z.output<typeof blockchainExplorerInfo> {}

/** A chain record with its EVM or Cosmos member picked once (the union's last member takes any type). */
interface ChainView {
  chain: EnrichedChain;
  evm?: z.output<typeof EvmChain>;
  cosmos?: z.output<typeof CosmosChain>;
}

/** What the blockchain data source shows, read from the sdk's record. */
const blockchainFields = {
  /** Chain unique id, e.g. `evm_ethereum_mainnet`, `bitcoin_mainnet`. */
  uniqueId: field(z.string(), ({ chain }: ChainView) => chain.unique_id),
  /** Chain family: `evm`, `utxo`, `solana`, `cosmos`, … */
  chainType: field(z.string(), ({ chain }: ChainView) => chain.chain_type),
  /** Display name. */
  name: field(z.string(), ({ chain }: ChainView) => chain.name),
  /** Symbol of the native currency, e.g. `ETH`. */
  nativeCurrencySymbol: field(z.string(), ({ chain }: ChainView) => chain.native_currency_symbol),
  /** Name of the native currency, e.g. `Ether`. */
  nativeCurrencyName: field(z.string(), ({ chain }: ChainView) => chain.native_currency_name),
  /** Whether it is a testnet. */
  isTestnet: field(z.boolean(), ({ chain }: ChainView) => chain.is_testnet),
  /** Whether it is enabled for the organization. */
  isEnabled: field(z.boolean(), ({ chain }: ChainView) => chain.is_enabled),
  /** Logo URL. */
  logoUrl: field(z.string().optional(), ({ chain }: ChainView) => chain.logo_url),
  /** Block explorer URLs. */
  explorer: field(blockchainExplorerInfo.optional(), ({ chain }: ChainView) => {
    const explorer = chain.blockchain_explorer;
    if (!explorer) return undefined;
    return withoutUndefined({
      transactionUrl: explorer.transaction_url,
      addressUrl: explorer.address_url,
      rootUrl: explorer.root_url,
      transactionFormatUrl: explorer.transaction_format_url,
      addressFormatUrl: explorer.address_format_url,
      assetFormatUrl: explorer.asset_format_url,
    });
  }),
  /** Numeric EVM chain id (evm). */
  chainId: field(z.number().optional(), ({ evm }: ChainView) => evm?.chain_id),
  /** Named EVM chain id, e.g. `arbitrum_mainnet` (evm). */
  namedChainId: field(z.string().optional(), ({ evm }: ChainView) => evm?.named_chain_id),
  /** Gas pricing: `dynamic` or `legacy` (evm). */
  gasType: field(z.string().optional(), ({ evm }: ChainView) => evm?.gas_type),
  /** `default` or `custom` (evm). */
  source: field(z.string().optional(), ({ evm }: ChainView) => evm?.source),
  /** RPC URL of a custom chain (evm). */
  rpcUrl: field(z.string().optional(), ({ evm }: ChainView) => evm?.rpc_url),
  /** Whether MEV-protected submission is available (evm). */
  supportsMevProtectedNode: field(
    z.boolean().optional(),
    ({ evm }: ChainView) => evm?.supports_mev_protected_node,
  ),
  /** Whether EIP-7702 is supported (evm). */
  supports7702: field(z.boolean().optional(), ({ evm }: ChainView) => evm?.supports_7702),
  /** Base denomination (cosmos). */
  baseDenom: field(z.string().optional(), ({ cosmos }: ChainView) => cosmos?.base_denom),
  /** Bech32 address prefix (cosmos). */
  bech32Prefix: field(z.string().optional(), ({ cosmos }: ChainView) => cosmos?.bech32_prefix),
};

/** A blockchain the platform supports (`EnrichedChain`). */
export interface BlockchainInfo extends Projected<typeof blockchainFields> {}

/** Maps one API chain record to a {@link BlockchainInfo}. */
function toBlockchain(chain: EnrichedChain): BlockchainInfo {
  return project(blockchainFields, {
    chain,
    evm: chain.chain_type === "evm" ? asMember(EvmChain, chain) : undefined,
    cosmos: chain.chain_type === "cosmos" ? asMember(CosmosChain, chain) : undefined,
  });
}

const blockchains = listDataSource<GetBlockchainsArgs, typeof ListBlockchainsQuery>(ListBlockchainsQuery)({
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
  fields: blockchainFields,
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

/** The shape of an {@link EvmFeeLevel}. */
const evmFeeLevel = z.object({
  /** Gas price in wei (legacy pricing). */
  price: z.string().optional(),
  /** Priority fee per gas in wei (dynamic pricing). */
  maxPriorityFeePerGas: z.string().optional(),
  /** Maximum fee per gas in wei (dynamic pricing). */
  maxFeePerGas: z.string().optional(),
});

/** One fee level of an EVM chain. */
export interface EvmFeeLevel extends z.output<typeof evmFeeLevel> {}

/** The shape of {@link EvmFees}. */
const evmFeesShape = z.object({
  /** `legacy` (a gas price per level) or `dynamic` (EIP-1559 fees per level). */
  pricing: z.string(),
  /** Fees of the low priority level. */
  low: evmFeeLevel,
  /** Fees of the medium priority level. */
  medium: evmFeeLevel,
  /** Fees of the high priority level. */
  high: evmFeeLevel,
});

/** The EVM fees of one chain: the pricing model and the three levels. */
export interface EvmFees extends z.output<typeof evmFeesShape> {}

/** The modelled members of the sdk's `SuggestedFees` union (its last member takes any `type`). */
const [EvmFeesRecord, PriorityFees, GasPriceFees, CosmosFees] = SuggestedFees.options;

/** A fee record with its members picked once. */
interface FeeView {
  fee: SuggestedFees;
  evm?: z.output<typeof EvmFeesRecord>;
  priority?: z.output<typeof PriorityFees>;
}

/** `read` applied to each of the three fee levels. */
function perLevel<L>(levels: Record<"low" | "medium" | "high", L>, read: (level: L) => EvmFeeLevel) {
  return { low: read(levels.low), medium: read(levels.medium), high: read(levels.high) };
}

/** The fees of an EVM chain: a gas price per level (legacy pricing) or EIP-1559 fees (dynamic pricing). */
function evmFees(fees: z.output<typeof EvmFeesRecord>["fees"]): EvmFees {
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

/** What the suggested-fees data source shows of one chain; which fields are set depends on `type`. */
const suggestedFeeFields = {
  /** Chain family of the fee shape: `evm`, `utxo`, `aptos`, `ton`, `starknet`, `cosmos`, `sui`, … */
  type: field(z.string(), ({ fee }: FeeView) => fee.type),
  /** Chain unique id. */
  chainUniqueId: field(z.string(), ({ fee }: FeeView) => fee.chain_unique_id),
  /** Low fee (utxo: per byte; aptos). */
  low: field(z.string().optional(), ({ priority }: FeeView) => priority?.low),
  /** Medium fee (utxo: per byte; aptos). */
  medium: field(z.string().optional(), ({ priority }: FeeView) => priority?.medium),
  /** High fee (utxo: per byte; aptos). */
  high: field(z.string().optional(), ({ priority }: FeeView) => priority?.high),
  /** Gas price (ton, starknet). */
  gasPrice: field(z.string().optional(), ({ fee }: FeeView) => asMember(GasPriceFees, fee)?.gas_price),
  /** Fee per signature (cosmos). */
  feePerSignature: field(
    z.number().optional(),
    ({ fee }: FeeView) => asMember(CosmosFees, fee)?.fee_per_signature,
  ),
  /** EVM fees: pricing model and the three levels. */
  evm: field(evmFeesShape.optional(), ({ evm }: FeeView) => (evm ? evmFees(evm.fees) : undefined)),
};

/** Suggested network fees of one chain (`SuggestedFees`); which fields are set depends on `type`. */
export interface SuggestedFee extends Projected<typeof suggestedFeeFields> {}

/** Maps one API fee record to a {@link SuggestedFee}. */
function toSuggestedFee(fee: SuggestedFees): SuggestedFee {
  return project(suggestedFeeFields, {
    fee,
    evm: asMember(EvmFeesRecord, fee),
    priority: asMember(PriorityFees, fee),
  });
}

const suggestedFees = getDataSource<GetSuggestedFeesArgs, typeof GetSuggestedFeesQuery>(
  GetSuggestedFeesQuery,
)({
  name: "getSuggestedFees",
  query: { chains: "chains", chainTypes: "chain_types" },
  whenNoArgs: {},
  fields: suggestedFeeFields,
  keyed: true,
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

/** The data sources of this module, for the registry (`./index.ts`). */
export const blockchainDataSources: readonly DataSourceEntry[] = [blockchains, suggestedFees];
