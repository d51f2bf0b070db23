/** Data sources `getBlockchains` and `getSuggestedFees`. */
import { type ApiRecord, bool, collect, compact, num, obj, str } from "./fields";
import { type DataSourceOptions, dataSourceClient, liftToOutputOptional, named } from "./options";

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
export function toBlockchain(chain: ApiRecord): Blockchain {
  const explorer = obj(chain.blockchain_explorer);
  return compact({
    uniqueId: String(chain.unique_id),
    chainType: String(chain.chain_type),
    name: String(chain.name),
    nativeCurrencySymbol: String(chain.native_currency_symbol),
    nativeCurrencyName: String(chain.native_currency_name),
    isTestnet: chain.is_testnet === true,
    isEnabled: chain.is_enabled === true,
    logoUrl: str(chain.logo_url),
    explorer: explorer
      ? compact({
          transactionUrl: String(explorer.transaction_url),
          addressUrl: String(explorer.address_url),
          rootUrl: String(explorer.root_url),
          transactionFormatUrl: str(explorer.transaction_format_url),
          addressFormatUrl: str(explorer.address_format_url),
          assetFormatUrl: str(explorer.asset_format_url),
        })
      : undefined,
    chainId: num(chain.chain_id),
    namedChainId: str(chain.named_chain_id),
    gasType: str(chain.gas_type),
    source: str(chain.source),
    rpcUrl: str(chain.rpc_url),
    supportsMevProtectedNode: bool(chain.supports_mev_protected_node),
    supports7702: bool(chain.supports_7702),
    baseDenom: str(chain.base_denom),
    bech32Prefix: str(chain.bech32_prefix),
  });
}

/** Lists the blockchains (every page), e.g. to check that a chain is enabled before declaring a vault on it. */
export function getBlockchains(
  args: GetBlockchainsArgs = {},
  options?: DataSourceOptions,
): Promise<Blockchain[]> {
  return named("getBlockchains", async () => {
    const client = dataSourceClient(options);
    const query = compact({
      chain_types: args.chainTypes,
      sources: args.sources,
      include_mainnets: args.includeMainnets,
      include_testnets: args.includeTestnets,
      include_exchanges: args.includeExchanges,
      show_all: args.showAll,
    });
    const chains = client.blockchains.listAll(query as Parameters<typeof client.blockchains.listAll>[0]);
    return (await collect(chains, args.maxItems)).map(toBlockchain);
  });
}

/** {@link getBlockchains} taking Inputs and returning an Output. */
export const getBlockchainsOutput = liftToOutputOptional(getBlockchains);

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

function evmLevel(level: unknown): EvmFeeLevel {
  const l = obj(level);
  return compact({
    price: str(l?.price),
    maxPriorityFeePerGas: str(l?.max_priority_fee_per_gas),
    maxFeePerGas: str(l?.max_fee_per_gas),
  });
}

/** Maps one API fee record to a {@link SuggestedFee}. */
export function toSuggestedFee(fee: ApiRecord): SuggestedFee {
  const evm = obj(fee.fees);
  return compact({
    type: String(fee.type),
    chainUniqueId: String(fee.chain_unique_id),
    low: str(fee.low),
    medium: str(fee.medium),
    high: str(fee.high),
    gasPrice: str(fee.gas_price),
    feePerSignature: num(fee.fee_per_signature),
    evm: evm
      ? {
          pricing: String(evm.type),
          low: evmLevel(evm.low),
          medium: evmLevel(evm.medium),
          high: evmLevel(evm.high),
        }
      : undefined,
  });
}

/** Suggested fees, keyed by chain unique id. */
export function getSuggestedFees(
  args: GetSuggestedFeesArgs = {},
  options?: DataSourceOptions,
): Promise<Record<string, SuggestedFee>> {
  return named("getSuggestedFees", async () => {
    const client = dataSourceClient(options);
    const result = await client.blockchains.suggestedFees(
      compact({ chains: args.chains, chain_types: args.chainTypes }) as Parameters<
        typeof client.blockchains.suggestedFees
      >[0],
    );
    const out: Record<string, SuggestedFee> = {};
    for (const [key, fee] of Object.entries(obj(result)?.suggested_fees ?? {})) {
      const record = obj(fee);
      if (record) out[str(record.chain_unique_id) ?? key] = toSuggestedFee(record);
    }
    return out;
  });
}

/** {@link getSuggestedFees} taking Inputs and returning an Output. */
export const getSuggestedFeesOutput = liftToOutputOptional(getSuggestedFees);
