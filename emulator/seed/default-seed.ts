/**
 * The default seed: a small but complete organization. It has users of every type and state (deleted ones
 * included), user groups with members in every membership state, vault groups, and vaults of most types
 * with owned assets, balances and (for UTXO vaults) several addresses. Every id and timestamp is fixed, so
 * tests and docs can rely on them.
 */
import type { UserRole, UserType, VaultType } from "@pulumi-custody/sdk/schema";
import type { Store } from "../state/store";
import type { BalanceRecord, MembershipRecord, UserRecord } from "../state/types";
import { nativeAssetOf, tokenOf } from "./assets";
import { API_USER_ID, DEFAULT_VAULT_GROUP_ID, seedId, seedTimestamp, VIEWER_USER_ID } from "./base-state";
import { buildAddress, buildVault } from "./vault-factory";

// [name, type, state, role, email?]
type UserRow = [string, UserType, string, UserRole | undefined];
const USERS: UserRow[] = [
  ["Alice Admin", "person", "active", "admin"],
  ["Bob Trader", "person", "active", "trader"],
  ["Carol Viewer", "person", "active", "viewer"],
  ["Dan Newhire", "person", "onboarding_pending_code_generation", "trader"],
  ["Erin Analyst", "person", "onboarding_pending_activation", "viewer"],
  ["Frank Ops", "person", "reset_device_pending_code_generation", "trader"],
  ["Grace Security", "person", "reset_device_pending_activation", "admin"],
  ["Heidi Contractor", "person", "pending_approval", "trader"],
  ["Ivan Former", "person", "deleted", "viewer"],
  ["Reporting Bot", "api_user", "active", "viewer"],
  ["Legacy Integration", "api_user", "deleted", "trader"],
  ["API Signer (production)", "api_signer", "active", undefined],
  ["API Signer (staging)", "api_signer", "onboarding_pending_code_generation", undefined],
  ["API Signer (disaster recovery)", "api_signer", "onboarding_pending_activation", undefined],
  ["API Signer (retired)", "api_signer", "deleted", undefined],
  ["System", "system", "active", undefined],
];

const userIdOf = (name: string) => seedId("user", name);

function seedUsers(store: Store): void {
  USERS.forEach(([name, type, state, role], i) => {
    const at = seedTimestamp(10 + i * 7);
    const user: UserRecord = {
      id: userIdOf(name),
      user_type: type,
      name,
      state,
      created_at: at,
      modified_at: at,
    };
    if (role) user.role = role;
    if (type === "person") {
      user.email = `${name.split(" ")[0]!.toLowerCase()}@example.com`;
      user.acknowledged_banners = state === "active" ? ["welcome_message"] : [];
    }
    if (type === "api_user") {
      user.allowed_ip_settings = { allow_type: "ip_list", ip_list: ["10.0.0.0/8"] };
      user.last_active_at = seedTimestamp(5000 + i);
    }
    if (type === "api_signer" && state === "active") user.last_keep_alive_at = seedTimestamp(6000);
    store.users.set(user.id, user);
  });
}

// [group name, state, modifier, members: [user name, membership state]]
type GroupRow = [string, "active" | "deleted", string, [string, MembershipRecord["state"]][]];
const GROUPS: GroupRow[] = [
  [
    "Treasury Approvers",
    "active",
    "Alice Admin",
    [
      ["Alice Admin", "active"],
      ["Bob Trader", "active"],
      ["Grace Security", "pending_addition"],
      ["Carol Viewer", "pending_removal"],
    ],
  ],
  [
    "Trading Desk",
    "active",
    "Bob Trader",
    [
      ["Bob Trader", "active"],
      ["Frank Ops", "active"],
      ["Heidi Contractor", "pending_addition"],
    ],
  ],
  [
    "Auditors",
    "active",
    "Alice Admin",
    [
      ["Carol Viewer", "active"],
      ["Reporting Bot", "active"],
      ["Erin Analyst", "pending_addition"],
    ],
  ],
  ["Former Operations", "deleted", "Grace Security", [["Ivan Former", "active"]]],
];

function seedUserGroups(store: Store): void {
  GROUPS.forEach(([name, state, modifier, members], i) => {
    const id = seedId("user-group", name);
    const created = seedTimestamp(200 + i * 11);
    store.userGroups.set(id, {
      id,
      name,
      state,
      created_at: created,
      modified_at: seedTimestamp(900 + i * 13),
      modified_by: userIdOf(modifier),
    });
    for (const [member, memberState] of members) {
      const userId = member === "Emulator API User" ? API_USER_ID : userIdOf(member);
      store.memberships.push({ user_id: userId, group_id: id, state: memberState });
    }
  });
  store.memberships.push({
    user_id: API_USER_ID,
    group_id: seedId("user-group", "Trading Desk"),
    state: "active",
  });
  store.memberships.push({
    user_id: VIEWER_USER_ID,
    group_id: seedId("user-group", "Auditors"),
    state: "active",
  });
  // The pending additions and removal of "Treasury Approvers" come from one change proposal.
  const approvers = store.userGroups.get(seedId("user-group", "Treasury Approvers"))!;
  approvers.proposed_change = {
    id: seedId("user-group-change", "Treasury Approvers"),
    created_at: seedTimestamp(1000),
    created_by: userIdOf("Alice Admin"),
    added_user_ids: [userIdOf("Grace Security")],
    removed_user_ids: [userIdOf("Carol Viewer")],
  };
}

const VAULT_GROUPS = ["Treasury", "Trading", "Cold Storage"];

/** `10^decimals * whole + fraction`, as a minor-unit decimal string. */
function amount(whole: number, decimals: number): string {
  const [int, frac = ""] = whole.toFixed(Math.min(decimals, 8)).split(".");
  return (
    BigInt(int!) * 10n ** BigInt(decimals) +
    BigInt(frac.padEnd(decimals, "0").slice(0, decimals) || "0")
  ).toString();
}

function balances(total: number, decimals: number, frozenShare = 0, pending = 0): BalanceRecord {
  const totalMinor = BigInt(amount(total, decimals));
  const frozen = BigInt(amount(total * frozenShare, decimals));
  const pendingMinor = amount(pending, decimals);
  return {
    total_mined: totalMinor.toString(),
    total_pending_incoming: pendingMinor,
    available_mined: (totalMinor - frozen).toString(),
    available_pending_incoming: pendingMinor,
    frozen_mined: frozen.toString(),
    frozen_pending_incoming: "0",
  };
}

// [chain, symbol or "native", whole amount, frozen share, pending, hidden]
type Holding = [string, string, number, number?, number?, boolean?];
interface VaultRow {
  name: string;
  type: VaultType;
  groups: string[];
  creator: string;
  holdings?: Holding[];
  chain?: string;
  keyType?: string;
  address?: string;
  exchangeType?: string;
  state?: "archived";
  endUser?: boolean;
  imported?: boolean;
  favorite?: boolean;
  /** Extra UTXO addresses: [name, address type]. */
  addresses?: [string, string][];
}

const VAULTS: VaultRow[] = [
  {
    name: "Treasury ETH",
    type: "evm",
    groups: ["Treasury"],
    creator: "Alice Admin",
    favorite: true,
    holdings: [
      ["evm_ethereum_mainnet", "native", 12.5, 0.1, 0.25],
      ["evm_ethereum_mainnet", "USDC", 1_250_000],
      ["evm_ethereum_mainnet", "USDT", 480_000, 0.05],
      ["evm_ethereum_mainnet", "DAI", 75_000.5],
      ["evm_arbitrum_mainnet", "native", 3.2],
      ["evm_arbitrum_mainnet", "USDC", 220_000],
      ["evm_base_mainnet", "native", 1.05],
      ["evm_base_mainnet", "USDC", 98_500],
      ["evm_ethereum_mainnet", "CLAIM", 1_000_000, 0, 0, true],
    ],
  },
  {
    name: "Trading Hot Wallet",
    type: "evm",
    groups: ["Trading", "Default"],
    creator: "Emulator API User",
    holdings: [
      ["evm_ethereum_mainnet", "native", 4.75],
      ["evm_polygon_mainnet", "native", 15_000],
      ["evm_polygon_mainnet", "USDC", 50_000],
      ["evm_bsc_mainnet", "native", 22.3],
    ],
  },
  {
    name: "Solana Operations",
    type: "solana",
    groups: ["Default"],
    creator: "Bob Trader",
    holdings: [
      ["solana_mainnet", "native", 845.2, 0, 1.5],
      ["solana_mainnet", "USDC", 310_000],
    ],
  },
  {
    name: "BTC Cold Storage",
    type: "utxo",
    chain: "bitcoin_mainnet",
    groups: ["Cold Storage"],
    creator: "Alice Admin",
    holdings: [["bitcoin_mainnet", "native", 42.12345678, 0.5]],
    addresses: [
      ["Deposits", "segwit"],
      ["Taproot Savings", "taproot"],
      ["Legacy Payouts", "legacy"],
    ],
  },
  {
    name: "BTC Testnet Sandbox",
    type: "utxo",
    chain: "bitcoin_testnet",
    groups: ["Default"],
    creator: "Emulator API User",
    holdings: [["bitcoin_testnet", "native", 1.5]],
    addresses: [["Faucet", "segwit"]],
  },
  {
    name: "Dogecoin Tips",
    type: "utxo",
    chain: "dogecoin_mainnet",
    groups: ["Default"],
    creator: "Bob Trader",
    holdings: [["dogecoin_mainnet", "native", 125_000]],
  },
  {
    name: "Cosmos Staking",
    type: "cosmos",
    groups: ["Treasury"],
    creator: "Alice Admin",
    holdings: [
      ["cosmos_cosmoshub-4", "native", 15_250.5, 0.8],
      ["cosmos_osmosis-1", "native", 42_000],
    ],
  },
  {
    name: "Tron Payments",
    type: "tron",
    groups: ["Trading"],
    creator: "Bob Trader",
    holdings: [
      ["tron_mainnet", "native", 250_000],
      ["tron_mainnet", "USDT", 1_800_000],
    ],
  },
  {
    name: "Aptos Lab",
    type: "aptos",
    groups: ["Default"],
    creator: "Bob Trader",
    holdings: [["aptos_mainnet", "native", 540]],
  },
  {
    name: "Sui Lab",
    type: "sui",
    groups: ["Default"],
    creator: "Bob Trader",
    holdings: [["sui_mainnet", "native", 12_500]],
  },
  {
    name: "TON Wallet",
    type: "ton",
    groups: ["Default"],
    creator: "Bob Trader",
    holdings: [["ton_mainnet", "native", 3_300]],
  },
  {
    name: "Stellar Anchor",
    type: "stellar",
    groups: ["Treasury"],
    creator: "Alice Admin",
    holdings: [["stellar_mainnet", "native", 80_000]],
  },
  {
    name: "Starknet Account",
    type: "starknet",
    groups: ["Default"],
    creator: "Bob Trader",
    holdings: [["starknet_mainnet", "native", 9_100]],
  },
  {
    name: "Stacks Vault",
    type: "stacks",
    groups: ["Default"],
    creator: "Bob Trader",
    holdings: [["stacks_mainnet", "native", 18_000]],
  },
  { name: "Canton Party", type: "canton", groups: ["Default"], creator: "Alice Admin" },
  { name: "Arch Vault", type: "arch", groups: ["Default"], creator: "Alice Admin" },
  {
    name: "Black Box Signer",
    type: "black_box",
    keyType: "ecdsa_secp256k1",
    groups: ["Default"],
    creator: "Alice Admin",
  },
  {
    name: "Safe Multisig",
    type: "safe",
    address: "0x8f3c2a1b9d4e5f60718293a4b5c6d7e8f9012345",
    groups: ["Treasury"],
    creator: "Alice Admin",
  },
  {
    name: "Binance Master",
    type: "exchange",
    exchangeType: "binance",
    groups: ["Trading"],
    creator: "Bob Trader",
  },
  {
    name: "Old Payroll",
    type: "evm",
    groups: ["Default"],
    creator: "Alice Admin",
    state: "archived",
    holdings: [["evm_ethereum_mainnet", "native", 0]],
  },
  {
    name: "Customer Wallet 0001",
    type: "evm",
    groups: ["Default"],
    creator: "Emulator API User",
    endUser: true,
  },
  { name: "Imported Legacy EVM", type: "evm", groups: ["Default"], creator: "Alice Admin", imported: true },
];

function seedVaults(store: Store): void {
  const groupId = (name: string) =>
    name === "Default" ? DEFAULT_VAULT_GROUP_ID : seedId("vault-group", name);
  VAULT_GROUPS.forEach((name, i) => {
    store.vaultGroups.set(groupId(name), { id: groupId(name), name, created_at: seedTimestamp(100 + i) });
  });
  VAULTS.forEach((row, i) => {
    const createdAt = seedTimestamp(1440 + i * 97);
    const { vault, defaultAddress } = buildVault(store, {
      id: seedId("vault", row.name),
      name: row.name,
      type: row.type,
      createdBy: row.creator === "Emulator API User" ? API_USER_ID : userIdOf(row.creator),
      vaultGroupIds: row.groups.map(groupId),
      createdAt,
      state: row.state,
      chain: row.chain,
      keyType: row.keyType,
      address: row.address,
      exchangeType: row.exchangeType,
      endUserId: row.endUser ? seedId("end-user", row.name) : undefined,
      importOptions: row.imported ? { origin: "imported_keys", derivation_path: "m/44/60/0/0/7" } : undefined,
      isFavorite: row.favorite,
    });
    store.insertVault(vault);
    if (defaultAddress) {
      store.insertAddress(defaultAddress);
      (row.addresses ?? []).forEach(([name, addressType], j) => {
        const address = buildAddress(store, vault, {
          name,
          addressType,
          createdAt: seedTimestamp(1440 + i * 97 + j + 1),
        });
        store.insertAddress(address);
      });
    }
    for (const [chain, symbol, whole, frozen, pending, hidden] of row.holdings ?? []) {
      const asset = symbol === "native" ? nativeAssetOf(chain) : tokenOf(chain, symbol);
      if (!asset) throw new Error(`seed: no asset ${symbol} on ${chain}`);
      store.ownedAssetsOf(vault.id, true).push({
        vault_id: vault.id,
        asset_id: asset.info.id,
        balances: balances(whole, asset.info.decimals, frozen, pending),
        is_hidden: Boolean(hidden),
      });
    }
  });
}

/** Fills a store that holds only the base state with the default organization. */
export function applyDefaultSeed(store: Store): void {
  seedUsers(store);
  seedUserGroups(store);
  seedVaults(store);
  store.changed();
}
