/**
 * The chain catalogue: one realistic `EnrichedChain` record for every default chain unique id
 * (docs/api-notes.md, "Chains").
 *
 * EVM chains are listed under their named unique id (`evm_arbitrum_mainnet`), as the real service returns
 * them; the numeric ids (`evm_42161`) are aliases of the same records and are
 * accepted wherever a chain id is. The ripple ids have no record: `ChainType` has no value for
 * them in v0.2.0, so a record could not be parsed by any client (see the README, "Known gaps").
 */
import type { EnrichedChain } from "@pulumi-custody/sdk/schema";

type Explorer = NonNullable<EnrichedChain["blockchain_explorer"]>;

/** An EnrichedChain as the emulator serves it. */
export type ChainRecord = EnrichedChain & { chain_type: string; unique_id: string };

function explorer(root: string, tx = "tx", address = "address", asset = "token"): Explorer {
  const base = root.replace(/\/$/, "");
  return {
    transaction_url: `${base}/${tx}`,
    address_url: `${base}/${address}`,
    root_url: `${base}/`,
    // The published schema types these as URIs: the prefix the id is appended to ("%s" is not a valid URI).
    transaction_format_url: `${base}/${tx}/`,
    address_format_url: `${base}/${address}/`,
    asset_format_url: `${base}/${asset}/`,
  };
}

function logo(chainType: string, id: string | number): string {
  return `https://logos.custody-emulator.invalid/chains/${chainType}/default/${id}.svg`;
}

// [named id, chain id, name, currency symbol, currency name, explorer root, testnet, gas type, enabled]
type EvmRow = [string, number, string, string, string, string, boolean, "dynamic" | "legacy", boolean?];
const EVM: EvmRow[] = [
  ["ethereum_mainnet", 1, "Ethereum", "ETH", "Ether", "https://etherscan.io", false, "dynamic"],
  [
    "ethereum_goerli",
    5,
    "Ethereum Goerli",
    "ETH",
    "Goerli Ether",
    "https://goerli.etherscan.io",
    true,
    "dynamic",
    false,
  ],
  ["optimism_mainnet", 10, "Optimism", "ETH", "Ether", "https://optimistic.etherscan.io", false, "dynamic"],
  ["flare_mainnet", 14, "Flare", "FLR", "Flare", "https://flare-explorer.flare.network", false, "dynamic"],
  [
    "flare_testnet",
    16,
    "Flare Coston",
    "CFLR",
    "Coston Flare",
    "https://coston-explorer.flare.network",
    true,
    "dynamic",
  ],
  [
    "rootstock_mainnet",
    30,
    "Rootstock",
    "RBTC",
    "Smart Bitcoin",
    "https://explorer.rootstock.io",
    false,
    "legacy",
  ],
  ["bsc_mainnet", 56, "BNB Chain", "BNB", "BNB", "https://bscscan.com", false, "legacy"],
  ["gnosis_mainnet", 100, "Gnosis", "XDAI", "xDAI", "https://gnosisscan.io", false, "dynamic"],
  ["unichain_mainnet", 130, "Unichain", "ETH", "Ether", "https://uniscan.xyz", false, "dynamic"],
  [
    "polygon_mainnet",
    137,
    "Polygon",
    "POL",
    "Polygon Ecosystem Token",
    "https://polygonscan.com",
    false,
    "dynamic",
  ],
  ["monad_mainnet", 143, "Monad", "MON", "Monad", "https://monadscan.com", false, "dynamic"],
  ["sonic_mainnet", 146, "Sonic", "S", "Sonic", "https://sonicscan.org", false, "dynamic"],
  [
    "manta_pacific_mainnet",
    169,
    "Manta Pacific",
    "ETH",
    "Ether",
    "https://pacific-explorer.manta.network",
    false,
    "dynamic",
  ],
  ["x_layer_mainnet", 196, "X Layer", "OKB", "OKB", "https://www.oklink.com/xlayer", false, "legacy"],
  ["fantom_mainnet", 250, "Fantom", "FTM", "Fantom", "https://ftmscan.com", false, "dynamic"],
  ["zksync_era_mainnet", 324, "zkSync Era", "ETH", "Ether", "https://explorer.zksync.io", false, "dynamic"],
  ["hyperevm_mainnet", 999, "HyperEVM", "HYPE", "Hype", "https://hyperevmscan.io", false, "dynamic"],
  [
    "conflux_mainnet",
    1030,
    "Conflux eSpace",
    "CFX",
    "Conflux",
    "https://evm.confluxscan.io",
    false,
    "legacy",
  ],
  ["dymension_mainnet", 1100, "Dymension", "DYM", "Dymension", "https://dym.fyi", false, "dynamic"],
  [
    "polygon_zkevm_mainnet",
    1101,
    "Polygon zkEVM",
    "ETH",
    "Ether",
    "https://zkevm.polygonscan.com",
    false,
    "legacy",
  ],
  ["sei_mainnet", 1329, "Sei", "SEI", "Sei", "https://seitrace.com", false, "dynamic"],
  [
    "hypercore_mainnet",
    1337,
    "HyperCore",
    "HYPE",
    "Hype",
    "https://app.hyperliquid.xyz/explorer",
    false,
    "legacy",
  ],
  ["aster_mainnet", 1666, "Aster Chain", "ASTER", "Aster", "https://explorer.asterdex.com", false, "dynamic"],
  ["pharos_mainnet", 1672, "Pharos", "PHRS", "Pharos", "https://pharosscan.xyz", false, "dynamic"],
  ["reya_mainnet", 1729, "Reya", "ETH", "Ether", "https://explorer.reya.network", false, "dynamic"],
  ["kava_mainnet", 2222, "Kava EVM", "KAVA", "Kava", "https://kavascan.com", false, "legacy"],
  ["merlin_mainnet", 4200, "Merlin", "BTC", "Bitcoin", "https://scan.merlinchain.io", false, "legacy"],
  ["tempo_mainnet", 4217, "Tempo", "USD", "US Dollar", "https://explore.tempo.xyz", false, "dynamic"],
  [
    "robinhood_mainnet",
    4663,
    "Robinhood Chain",
    "ETH",
    "Ether",
    "https://explorer.robinhood.com",
    false,
    "dynamic",
  ],
  ["mantle_mainnet", 5000, "Mantle", "MNT", "Mantle", "https://mantlescan.xyz", false, "dynamic"],
  ["zeta_mainnet", 7000, "ZetaChain", "ZETA", "Zeta", "https://explorer.zetachain.com", false, "dynamic"],
  ["canto_mainnet", 7700, "Canto", "CANTO", "Canto", "https://tuber.build", false, "dynamic"],
  ["base_mainnet", 8453, "Base", "ETH", "Ether", "https://basescan.org", false, "dynamic"],
  ["clink_mainnet", 8818, "Clink", "CLINK", "Clink", "https://explorer.clink.network", false, "dynamic"],
  [
    "clink_testnet",
    8819,
    "Clink Testnet",
    "CLINK",
    "Clink",
    "https://testnet-explorer.clink.network",
    true,
    "dynamic",
  ],
  ["plasma_mainnet", 9745, "Plasma", "XPL", "Plasma", "https://plasmascan.to", false, "dynamic"],
  ["zero_gravity_mainnet", 16661, "0G", "0G", "0G", "https://chainscan.0g.ai", false, "dynamic"],
  [
    "ethereum_holesky",
    17000,
    "Ethereum Holesky",
    "ETH",
    "Holesky Ether",
    "https://holesky.etherscan.io",
    true,
    "dynamic",
  ],
  ["arbitrum_mainnet", 42161, "Arbitrum One", "ETH", "Ether", "https://arbiscan.io", false, "legacy"],
  [
    "avalanche_fuji",
    43113,
    "Avalanche Fuji",
    "AVAX",
    "Avalanche",
    "https://testnet.snowtrace.io",
    true,
    "dynamic",
  ],
  [
    "avalanche_chain",
    43114,
    "Avalanche C-Chain",
    "AVAX",
    "Avalanche",
    "https://snowtrace.io",
    false,
    "dynamic",
  ],
  ["ink_mainnet", 57073, "Ink", "ETH", "Ether", "https://explorer.inkonchain.com", false, "dynamic"],
  ["linea_mainnet", 59144, "Linea", "ETH", "Ether", "https://lineascan.build", false, "dynamic"],
  [
    "polygon_mumbai",
    80001,
    "Polygon Mumbai",
    "MATIC",
    "Matic",
    "https://mumbai.polygonscan.com",
    true,
    "dynamic",
    false,
  ],
  ["berachain_mainnet", 80094, "Berachain", "BERA", "Bera", "https://berascan.com", false, "dynamic"],
  ["blast_mainnet", 81457, "Blast", "ETH", "Ether", "https://blastscan.io", false, "dynamic"],
  [
    "arbitrum_sepolia",
    421614,
    "Arbitrum Sepolia",
    "ETH",
    "Sepolia Ether",
    "https://sepolia.arbiscan.io",
    true,
    "legacy",
  ],
  ["scroll_mainnet", 534352, "Scroll", "ETH", "Ether", "https://scrollscan.com", false, "dynamic"],
  ["xai_mainnet", 660279, "Xai", "XAI", "Xai", "https://explorer.xai-chain.net", false, "legacy"],
  ["katana_mainnet", 747474, "Katana", "ETH", "Ether", "https://katanascan.com", false, "dynamic"],
  [
    "zklink_nova_mainnet",
    810180,
    "zkLink Nova",
    "ETH",
    "Ether",
    "https://explorer.zklink.io",
    false,
    "legacy",
  ],
  [
    "ethereum_sepolia",
    11155111,
    "Ethereum Sepolia",
    "ETH",
    "Sepolia Ether",
    "https://sepolia.etherscan.io",
    true,
    "dynamic",
  ],
];

// [unique id, chain type, name, symbol, currency name, explorer root, testnet, extra fields]
type OtherRow = [string, string, string, string, string, string, boolean, Record<string, unknown>?];
const OTHER: OtherRow[] = [
  ["aptos_mainnet", "aptos", "Aptos", "APT", "Aptos", "https://explorer.aptoslabs.com", false],
  [
    "aptos_testnet",
    "aptos",
    "Aptos Testnet",
    "APT",
    "Aptos",
    "https://explorer.aptoslabs.com/?network=testnet",
    true,
  ],
  [
    "aptos_movement_mainnet",
    "aptos",
    "Movement",
    "MOVE",
    "Move",
    "https://explorer.movementnetwork.xyz",
    false,
  ],
  [
    "aptos_movement_testnet",
    "aptos",
    "Movement Testnet",
    "MOVE",
    "Move",
    "https://explorer.movementnetwork.xyz/?network=testnet",
    true,
  ],
  ["arch_mainnet", "arch", "Arch", "ARCH", "Arch", "https://explorer.arch.network", false],
  ["arch_testnet", "arch", "Arch Testnet", "ARCH", "Arch", "https://explorer.arch.network/testnet", true],
  ["canton_mainnet", "canton", "Canton", "CC", "Canton Coin", "https://lighthouse.cantonloop.com", false],
  ["solana_mainnet", "solana", "Solana", "SOL", "Solana", "https://explorer.solana.com", false],
  [
    "solana_devnet",
    "solana",
    "Solana Devnet",
    "SOL",
    "Solana",
    "https://explorer.solana.com/?cluster=devnet",
    true,
  ],
  ["solana_eclipse_mainnet", "solana", "Eclipse", "ETH", "Ether", "https://eclipsescan.xyz", false],
  ["solana_fogo_mainnet", "solana", "Fogo", "FOGO", "Fogo", "https://fogoscan.com", false],
  [
    "solana_fogo_testnet",
    "solana",
    "Fogo Testnet",
    "FOGO",
    "Fogo",
    "https://fogoscan.com/?cluster=testnet",
    true,
  ],
  ["stacks_mainnet", "stacks", "Stacks", "STX", "Stacks", "https://explorer.hiro.so", false],
  ["starknet_mainnet", "starknet", "Starknet", "STRK", "Starknet Token", "https://voyager.online", false],
  ["stellar_mainnet", "stellar", "Stellar", "XLM", "Lumen", "https://stellar.expert/explorer/public", false],
  ["sui_mainnet", "sui", "Sui", "SUI", "Sui", "https://suiscan.xyz/mainnet", false],
  ["sui_testnet", "sui", "Sui Testnet", "SUI", "Sui", "https://suiscan.xyz/testnet", true],
  ["ton_mainnet", "ton", "TON", "TON", "Toncoin", "https://tonviewer.com", false],
  ["tron_mainnet", "tron", "Tron", "TRX", "Tronix", "https://tronscan.org/#", false],
  ["tron_shasta", "tron", "Tron Shasta", "TRX", "Tronix", "https://shasta.tronscan.org/#", true],
  ["bitcoin_mainnet", "utxo", "Bitcoin", "BTC", "Bitcoin", "https://mempool.space", false],
  ["bitcoin_testnet", "utxo", "Bitcoin Testnet", "BTC", "Bitcoin", "https://mempool.space/testnet", true],
  [
    "bitcoin_testnet_v4",
    "utxo",
    "Bitcoin Testnet4",
    "BTC",
    "Bitcoin",
    "https://mempool.space/testnet4",
    true,
  ],
  ["dogecoin_mainnet", "utxo", "Dogecoin", "DOGE", "Dogecoin", "https://blockchair.com/dogecoin", false],
  [
    "bitcoin_cash_mainnet",
    "utxo",
    "Bitcoin Cash",
    "BCH",
    "Bitcoin Cash",
    "https://blockchair.com/bitcoin-cash",
    false,
  ],
  ["pearl_mainnet", "utxo", "Pearl", "PRL", "Pearl", "https://explorer.pearl.invalid", false],
  ["pearl_testnet", "utxo", "Pearl Testnet", "PRL", "Pearl", "https://testnet.explorer.pearl.invalid", true],
];

// [cosmos chain id, name, symbol, base denom, bech32 prefix, testnet]
type CosmosRow = [string, string, string, string, string, boolean];
const COSMOS: CosmosRow[] = [
  ["agoric-3", "Agoric", "BLD", "ubld", "agoric", false],
  ["akashnet-2", "Akash", "AKT", "uakt", "akash", false],
  ["archway-1", "Archway", "ARCH", "aarch", "archway", false],
  ["axelar-dojo-1", "Axelar", "AXL", "uaxl", "axelar", false],
  ["bbn-1", "Babylon Genesis", "BABY", "ubbn", "bbn", false],
  ["celestia", "Celestia", "TIA", "utia", "celestia", false],
  ["cosmoshub-4", "Cosmos Hub", "ATOM", "uatom", "cosmos", false],
  ["dydx-mainnet-1", "dYdX", "DYDX", "adydx", "dydx", false],
  ["dydx-testnet-4", "dYdX Testnet", "DV4TNT", "adv4tnt", "dydx", true],
  ["dymension_1100-1", "Dymension Hub", "DYM", "adym", "dym", false],
  ["injective-1", "Injective", "INJ", "inj", "inj", false],
  ["neutron-1", "Neutron", "NTRN", "untrn", "neutron", false],
  ["nillion-1", "Nillion", "NIL", "unil", "nillion", false],
  ["noble-1", "Noble", "USDC", "uusdc", "noble", false],
  ["osmosis-1", "Osmosis", "OSMO", "uosmo", "osmo", false],
  ["provider", "Cosmos ICS Provider Testnet", "ATOM", "uatom", "cosmos", true],
  ["ssc-1", "Saga", "SAGA", "usaga", "saga", false],
  ["pacific-1", "Sei Cosmos", "SEI", "usei", "sei", false],
  ["stride-1", "Stride", "STRD", "ustrd", "stride", false],
  ["thorchain-1", "THORChain", "RUNE", "rune", "thor", false],
  ["mantra-1", "MANTRA", "OM", "uom", "mantra", false],
];

/** The exchange pseudo-chains (`exchange_<name>`): shown only with `include_exchanges=true`. */
const EXCHANGES: [string, string][] = [
  ["binance", "Binance"],
  ["bybit", "Bybit"],
  ["coinbase_international", "Coinbase International"],
  ["coinbase_us", "Coinbase"],
  ["okx", "OKX"],
  ["kraken", "Kraken"],
];

function buildCatalogue(): ChainRecord[] {
  const chains: ChainRecord[] = [];
  for (const [named, chainId, name, symbol, currency, root, testnet, gasType, enabled] of EVM) {
    chains.push({
      chain_type: "evm",
      named_chain_id: named,
      chain_id: chainId,
      unique_id: `evm_${named}`,
      name,
      native_currency_symbol: symbol,
      native_currency_name: currency,
      blockchain_explorer: explorer(root),
      logo_url: logo("evm", chainId),
      is_testnet: testnet,
      is_enabled: enabled ?? true,
      gas_type: gasType,
      supports_secure_node: false,
      supports_mev_protected_node: chainId === 1,
      supports_7702: chainId === 1 || chainId === 8453,
      source: "default",
    } as ChainRecord);
  }
  // One custom chain (`evm_<chain id>`, as for chains added by the organization), for the `sources` filter.
  chains.push({
    chain_type: "evm",
    chain_id: 7777777,
    unique_id: "evm_7777777",
    name: "Zora (custom)",
    native_currency_symbol: "ETH",
    native_currency_name: "Ether",
    blockchain_explorer: explorer("https://explorer.zora.energy"),
    logo_url: logo("evm", 7777777),
    is_testnet: false,
    is_enabled: true,
    gas_type: "dynamic",
    source: "custom",
    rpc_url: "https://rpc.zora.energy",
    supports_mev_protected_node: false,
    supports_7702: false,
  } as ChainRecord);
  for (const [uniqueId, chainType, name, symbol, currency, root, testnet] of OTHER) {
    const tx =
      chainType === "utxo" || chainType === "stellar" ? "tx" : chainType === "sui" ? "tx" : "transaction";
    chains.push({
      chain_type: chainType,
      unique_id: uniqueId,
      name,
      native_currency_symbol: symbol,
      native_currency_name: currency,
      blockchain_explorer: explorer(
        root,
        chainType === "aptos" ? "txn" : tx,
        chainType === "aptos" ? "account" : "address",
      ),
      logo_url: logo(chainType, uniqueId),
      is_testnet: testnet,
      is_enabled: true,
    } as ChainRecord);
  }
  for (const [chainId, name, symbol, denom, prefix, testnet] of COSMOS) {
    chains.push({
      chain_type: "cosmos",
      unique_id: `cosmos_${chainId}`,
      name,
      native_currency_symbol: symbol,
      native_currency_name: name,
      blockchain_explorer: explorer(`https://www.mintscan.io/${prefix}`, "tx", "address"),
      logo_url: logo("cosmos", chainId),
      is_testnet: testnet,
      is_enabled: true,
      base_denom: denom,
      bech32_prefix: prefix,
    } as ChainRecord);
  }
  for (const [exchange, name] of EXCHANGES) {
    chains.push({
      chain_type: "exchange",
      unique_id: `exchange_${exchange}`,
      name,
      native_currency_symbol: "USD",
      native_currency_name: "US Dollar",
      logo_url: logo("exchange", exchange),
      is_testnet: false,
      is_enabled: true,
    } as ChainRecord);
  }
  return chains;
}

/** Every chain record, in a fixed order (EVM by chain id, then the other families). */
export const CHAINS: readonly ChainRecord[] = Object.freeze(buildCatalogue());

const byUniqueId = new Map<string, ChainRecord>();
for (const chain of CHAINS) {
  byUniqueId.set(chain.unique_id, chain);
  if (chain.chain_type === "evm") byUniqueId.set(`evm_${(chain as { chain_id: number }).chain_id}`, chain);
}

/** The chain record for a unique id or a numeric EVM alias (`evm_42161`); undefined when unknown. */
export function findChain(uniqueId: string): ChainRecord | undefined {
  return byUniqueId.get(uniqueId);
}

/** The EVM chain with this numeric chain id or name (`arbitrum_mainnet`), for raw EVM transactions. */
export function findEvmChain(ref: string | number): ChainRecord | undefined {
  if (typeof ref === "number") return byUniqueId.get(`evm_${ref}`);
  return byUniqueId.get(ref) ?? byUniqueId.get(`evm_${ref}`);
}
