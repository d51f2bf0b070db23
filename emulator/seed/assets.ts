/**
 * The asset catalogue: the native asset of every chain plus a few well-known tokens, with prices in USD
 * (docs/api-notes.md, "Assets and balances"). Ids are derived from the asset identity, so they are the same
 * on every run.
 */
import type { AssetInfo } from "@pulumi-custody/sdk/schema";
import { deterministicUuid } from "../prng";
import { CHAINS, type ChainRecord, findChain } from "./chains";

/** A catalogue entry: the `AssetInfo` and its USD price (absent when the asset has no market price). */
export interface CatalogAsset {
  info: AssetInfo;
  chainUniqueId: string;
  chainType: string;
  /** USD price as a decimal string, e.g. `"3245.67"`. */
  priceUsd?: string;
}

const DECIMALS: Record<string, number> = {
  BTC: 8,
  DOGE: 8,
  BCH: 8,
  PRL: 8,
  SOL: 9,
  FOGO: 9,
  SUI: 9,
  TON: 9,
  TRX: 6,
  ATOM: 6,
  APT: 8,
  MOVE: 8,
  XLM: 7,
  STX: 6,
  USDC: 6,
  USDT: 6,
  USD: 6,
  CC: 10,
  ARCH: 9,
  OSMO: 6,
  TIA: 6,
  INJ: 18,
  DYDX: 18,
};
const PRICES: Record<string, string> = {
  ETH: "3245.67",
  BTC: "97250.12",
  SOL: "187.45",
  USDC: "1.00",
  USDT: "1.00",
  TRX: "0.245",
  ATOM: "6.85",
  APT: "8.95",
  SUI: "3.72",
  TON: "5.43",
  XLM: "0.41",
  STRK: "0.58",
  POL: "0.52",
  BNB: "645.30",
  AVAX: "35.20",
  DOGE: "0.32",
  BCH: "452.10",
  STX: "1.85",
  OSMO: "0.55",
  MATIC: "0.52",
  FTM: "0.71",
  MNT: "1.12",
  HYPE: "24.80",
  TIA: "5.10",
  INJ: "21.40",
  DAI: "1.00",
  XDAI: "1.00",
};

function nativeEntry(chain: ChainRecord): CatalogAsset {
  const symbol = chain.native_currency_symbol;
  const id = deterministicUuid("asset", "native", chain.unique_id);
  return {
    chainUniqueId: chain.unique_id,
    chainType: chain.chain_type,
    priceUsd: chain.is_testnet ? undefined : PRICES[symbol],
    info: {
      id,
      asset_identifier: {
        type: chain.chain_type,
        details: { type: "native", chain: chain.unique_id },
        // The enriched chain, with the fields the published schema requires.
        chain,
      },
      name: chain.native_currency_name,
      symbol,
      decimals: DECIMALS[symbol] ?? 18,
      verified: true,
      is_spam: false,
      logo_url: `https://logos.custody-emulator.invalid/assets/${symbol.toLowerCase()}.svg`,
      explorer_url: chain.blockchain_explorer?.root_url,
    },
  };
}

// [chain, token type, contract/mint, name, symbol, decimals, spam]
type TokenRow = [string, string, string, string, string, number, boolean?];
const TOKENS: TokenRow[] = [
  ["evm_ethereum_mainnet", "erc20", "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", "USD Coin", "USDC", 6],
  ["evm_ethereum_mainnet", "erc20", "0xdac17f958d2ee523a2206206994597c13d831ec7", "Tether USD", "USDT", 6],
  [
    "evm_ethereum_mainnet",
    "erc20",
    "0x6b175474e89094c44da98b954eedeac495271d0f",
    "Dai Stablecoin",
    "DAI",
    18,
  ],
  ["evm_arbitrum_mainnet", "erc20", "0xaf88d065e77c8cc2239327c5edb3a432268e5831", "USD Coin", "USDC", 6],
  ["evm_base_mainnet", "erc20", "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", "USD Coin", "USDC", 6],
  ["evm_polygon_mainnet", "erc20", "0x3c499c542cef5e3811e1192ce70d8cc03d5c3359", "USD Coin", "USDC", 6],
  [
    "evm_ethereum_mainnet",
    "erc20",
    "0x5e4f3d2c1b0a99887766554433221100ffeeddcc",
    "Free Airdrop Claim",
    "CLAIM",
    18,
    true,
  ],
  ["solana_mainnet", "spl_token", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "USD Coin", "USDC", 6],
  ["tron_mainnet", "trc20", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "Tether USD", "USDT", 6],
];

function tokenEntry([chainId, type, contract, name, symbol, decimals, spam]: TokenRow): CatalogAsset {
  const chain = findChain(chainId)!;
  // The published identifiers: ERC-20 `token: {chain, hex_repr}`, SPL `token: {chain, base58_repr}`, TRC-20
  // `trc20: {chain, base58_repr}` (a TRON contract address is base58, and the key is named after the type).
  const details =
    type === "trc20"
      ? { type, trc20: { chain: chainId, base58_repr: contract } }
      : type === "spl_token"
        ? { type, token: { chain: chainId, base58_repr: contract } }
        : { type, token: { chain: chainId, hex_repr: contract } };
  return {
    chainUniqueId: chainId,
    chainType: chain.chain_type,
    priceUsd: spam ? undefined : PRICES[symbol],
    info: {
      id: deterministicUuid("asset", type, chainId, contract),
      asset_identifier: {
        type: chain.chain_type,
        details,
        chain,
      },
      name,
      symbol,
      decimals,
      verified: !spam,
      is_spam: Boolean(spam),
      logo_url: `https://logos.custody-emulator.invalid/assets/${symbol.toLowerCase()}.svg`,
      explorer_url: chain.blockchain_explorer?.asset_format_url
        ? `${chain.blockchain_explorer.asset_format_url}${contract}`
        : undefined,
    },
  };
}

/** Every catalogue asset: natives of all non-exchange chains, then tokens. */
export const ASSETS: readonly CatalogAsset[] = Object.freeze([
  ...CHAINS.filter((c) => c.chain_type !== "exchange").map(nativeEntry),
  ...TOKENS.map(tokenEntry),
]);

const byId = new Map(ASSETS.map((a) => [a.info.id, a]));

export function findAsset(id: string): CatalogAsset | undefined {
  return byId.get(id);
}

/** The native asset of a chain (unique id or numeric EVM alias). */
export function nativeAssetOf(chainUniqueId: string): CatalogAsset | undefined {
  const chain = findChain(chainUniqueId);
  return chain ? byId.get(deterministicUuid("asset", "native", chain.unique_id)) : undefined;
}

/** A catalogue token by chain and symbol, e.g. `tokenOf("evm_ethereum_mainnet", "USDC")`. */
export function tokenOf(chainUniqueId: string, symbol: string): CatalogAsset | undefined {
  return ASSETS.find(
    (a) =>
      a.chainUniqueId === chainUniqueId &&
      a.info.symbol === symbol &&
      a.info.asset_identifier.details?.type !== "native",
  );
}
