/**
 * Large data sets for benchmarks and paging tests (`POST /__emulator/seed/large`): many users and vaults,
 * drawn from a seeded generator so two runs with the same counts produce the same data.
 */
import type { UserRole, UserState, VaultType } from "@pulumi-custody/sdk/schema";
import { Prng } from "../prng";
import type { Store } from "../state/store";
import { nativeAssetOf } from "./assets";
import { buildVault, zeroBalances } from "./vault-factory";

/** How many records to add. */
export interface LargeSeedRequest {
  users?: number;
  vaults?: number;
}

/** The largest counts one call accepts (keeps a mistaken call from exhausting memory). */
export const LARGE_SEED_LIMITS = { users: 100_000, vaults: 50_000 };

const USER_STATES: UserState[] = [
  "active",
  "active",
  "active",
  "onboarding_pending_code_generation",
  "onboarding_pending_activation",
  "deleted",
];
const ROLES: UserRole[] = ["admin", "trader", "trader", "viewer"];
const VAULT_TYPES: [VaultType, string | undefined][] = [
  ["evm", "evm_ethereum_mainnet"],
  ["evm", "evm_arbitrum_mainnet"],
  ["solana", "solana_mainnet"],
  ["tron", "tron_mainnet"],
  ["aptos", "aptos_mainnet"],
  ["sui", "sui_mainnet"],
  ["stellar", "stellar_mainnet"],
  ["utxo", "bitcoin_testnet"],
];

function pad(n: number): string {
  return String(n).padStart(6, "0");
}

/** Adds the requested users and vaults; returns how many of each were added. */
export function applyLargeSeed(store: Store, request: LargeSeedRequest): { users: number; vaults: number } {
  const prng = new Prng(`large-seed/${store.users.size}/${store.vaults.size}`);
  const now = store.now();
  let userIndex = store.users.size;
  for (let i = 0; i < (request.users ?? 0); i++) {
    userIndex += 1;
    const id = store.nextId();
    const apiUser = prng.int(10) === 0;
    store.users.set(id, {
      id,
      user_type: apiUser ? "api_user" : "person",
      name: `${apiUser ? "Load API User" : "Load User"} ${pad(userIndex)}`,
      ...(apiUser ? {} : { email: `load.user.${pad(userIndex)}@example.com` }),
      state: apiUser ? prng.pick(["active", "active", "deleted"]) : prng.pick(USER_STATES),
      role: prng.pick(ROLES),
      created_at: now,
      modified_at: now,
      ...(apiUser ? { allowed_ip_settings: { allow_type: "allow_all" as const } } : {}),
    });
  }
  let vaultIndex = 0;
  let added = 0;
  while (added < (request.vaults ?? 0)) {
    vaultIndex += 1;
    const name = `Load Vault ${pad(vaultIndex)}`;
    if (store.vaultIdByName(name)) continue;
    const [type, chain] = prng.pick(VAULT_TYPES);
    const { vault, defaultAddress } = buildVault(store, {
      name,
      type,
      chain: type === "utxo" ? chain : undefined,
      createdBy: store.apiUserId,
      vaultGroupIds: [store.defaultVaultGroupId],
    });
    store.insertVault(vault);
    if (defaultAddress) store.insertAddress(defaultAddress);
    const asset = chain ? nativeAssetOf(chain) : undefined;
    if (asset) {
      const total = BigInt(prng.between(0, 1_000_000)) * 10n ** BigInt(Math.max(0, asset.info.decimals - 3));
      store.ownedAssetsOf(vault.id, true).push({
        vault_id: vault.id,
        asset_id: asset.info.id,
        balances: { ...zeroBalances(), total_mined: total.toString(), available_mined: total.toString() },
        is_hidden: false,
      });
    }
    added += 1;
  }
  store.changed();
  return { users: request.users ?? 0, vaults: added };
}
