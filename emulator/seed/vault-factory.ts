/**
 * Builds new vault and address records with realistic per-type fields (docs/api-notes.md, "Vaults"): the same
 * code serves `POST /vaults`, `POST /vaults/{id}/addresses` and the seed data, so seeded and created
 * vaults look alike.
 */
import type { VaultType } from "@pulumi-custody/sdk/schema";
import {
  archAddress,
  COIN_TYPES,
  cosmosAddress,
  defaultUtxoAddressType,
  ecdsaPublicKey,
  eddsaPublicKey,
  evmAddress,
  hex32Address,
  keySeed,
  solanaAddress,
  stacksAddress,
  starknetAddress,
  stellarAddress,
  tonAccount,
  tronAddress,
  utxoAddress,
  xpub,
} from "../crypto/derive-keys";
import { deterministicUuid } from "../prng";
import type { Store } from "../state/store";
import type { AddressRecord, VaultKey, VaultRecord } from "../state/types";
import { nativeAssetOf } from "./assets";
import { CHAINS } from "./chains";

const EDDSA_TYPES = new Set(["solana", "aptos", "sui", "ton", "stellar", "canton"]);

/** What a new vault needs; everything else is derived. */
export interface NewVault {
  name: string;
  type: VaultType;
  createdBy: string;
  vaultGroupIds: string[];
  /** Fixed id (seed data); a fresh store id otherwise. */
  id?: string;
  createdAt?: string;
  state?: VaultRecord["state"];
  /** UTXO chain (utxo vaults). */
  chain?: string;
  /** Key type (black_box vaults). */
  keyType?: string;
  /** Safe address (safe vaults). */
  address?: string;
  /** Exchange (exchange vaults, seed only). */
  exchangeType?: string;
  endUserId?: string;
  importOptions?: { origin: string; derivation_path?: string; public_key_compressed?: string };
  isFavorite?: boolean;
}

/**
 * A vault record and, for UTXO vaults, its default address. The caller inserts both, the vault first
 * (`store.insertAddress` then moves the vault's next address index and account addresses).
 */
export function buildVault(
  store: Store,
  input: NewVault,
): { vault: VaultRecord; defaultAddress?: AddressRecord } {
  const id = input.id ?? store.nextId();
  const now = input.createdAt ?? store.now();
  const seed = keySeed("vault-key", id);
  const eddsa = EDDSA_TYPES.has(input.type) || input.keyType === "eddsa_ed25519";
  const external = input.importOptions?.origin === "external_signer";
  const publicKey = external
    ? Buffer.from(input.importOptions!.public_key_compressed!, "base64")
    : eddsa
      ? eddsaPublicKey(seed)
      : ecdsaPublicKey(seed);
  const vault: VaultRecord = {
    id,
    name: input.name,
    type: input.type,
    state: input.state ?? "active",
    created_at: now,
    modified_at: now,
    created_by: input.createdBy,
    vault_group_ids: input.vaultGroupIds,
    origin_type: input.importOptions ? "imported" : "native",
    is_external_signer: external,
    is_favorite: input.isFavorite ?? false,
    fields: {},
    account_addresses: [],
  };
  if (input.endUserId) {
    vault.key_holder = { id: input.endUserId, external_id: `end-user-${input.endUserId.slice(0, 8)}` };
  }
  if (input.type !== "exchange" && input.type !== "safe") {
    vault.key = vaultKey(store, input, seed, publicKey, eddsa);
  }
  let defaultAddress: AddressRecord | undefined;
  const f = vault.fields;
  switch (input.type) {
    case "evm":
      f.address = evmAddress(publicKey);
      break;
    case "solana":
      f.address = solanaAddress(publicKey);
      break;
    case "aptos":
      f.address = hex32Address(publicKey, 0);
      break;
    case "sui":
      f.address = hex32Address(publicKey, 0);
      break;
    case "starknet":
      f.address = starknetAddress(publicKey);
      // A new Starknet account must be deployed before use (StarknetVaultState).
      f.activation_state = input.createdAt ? "active" : "inactive";
      break;
    case "stellar":
      f.address = stellarAddress(publicKey);
      break;
    case "stacks":
      f.address = stacksAddress(publicKey);
      break;
    case "tron":
      f.address = tronAddress(publicKey);
      f.energy_and_bandwidth_data_map = {
        tron: { energy_used: 0, energy_limit: 0, bandwidth_used: 0, bandwidth_limit: 600 },
      };
      break;
    case "ton": {
      const account = tonAccount(publicKey);
      f.raw_account = account.raw;
      f.base64_url_bounceable_account = account.bounceable;
      f.base64_url_non_bounceable_account = account.nonBounceable;
      f.state_init = keySeed("ton-state-init", id).toString("base64");
      break;
    }
    case "cosmos": {
      f.main_address = publicKey.subarray(1, 21).toString("hex");
      // The published schema: hex without 0x, and secp256k1 (ethsecp256k1 is for ethermint chains).
      f.evm_address = evmAddress(publicKey).slice(2);
      f.chains_addresses = CHAINS.filter((c) => c.chain_type === "cosmos").map((c) => ({
        type: "cosmos",
        chain: c.unique_id,
        address: cosmosAddress((c as { bech32_prefix: string }).bech32_prefix, publicKey),
        hex_repr: publicKey.subarray(1, 21).toString("hex").toUpperCase(),
        key_type: "secp256k1",
        enriched_chain: c,
      }));
      break;
    }
    case "canton":
      f.address = `emulator-${id.slice(0, 8)}::1220${keySeed("canton", id).toString("hex")}`;
      f.chain_state_map = { canton_mainnet: { registration_state: "registered" } };
      break;
    case "arch": {
      f.arch_address = archAddress(publicKey);
      for (const [key, chain] of [
        ["arch_mainnet_deposit_address", "bitcoin_mainnet"],
        ["arch_testnet_deposit_address", "bitcoin_testnet"],
        ["bitcoin_mainnet_address", "bitcoin_mainnet"],
        ["bitcoin_testnet_address", "bitcoin_testnet"],
      ] as const) {
        const address = utxoAddress(chain, "taproot", publicKey, 0).address;
        // `UtxoAddressBalance` in the published schema: the address object, its balances, its priced asset.
        const native = nativeAssetOf(chain);
        f[key] = {
          address: {
            type: "utxo",
            address,
            address_type: "taproot",
            chain: { chain_type: "utxo", unique_id: chain },
          },
          balances: zeroBalances(),
          priced_asset: { type: "asset_price", asset_info: native?.info },
        };
        vault.account_addresses.push(address);
      }
      break;
    }
    case "black_box":
      f.details =
        input.keyType === "ecdsa_stark"
          ? {
              type: "ecdsa_stark",
              stark_key: starknetAddress(publicKey),
              public_key: publicKey.toString("base64"),
            }
          : { type: input.keyType ?? "ecdsa_secp256k1" };
      break;
    case "safe":
      f.address = input.address;
      f.logo_url = "https://logos.custody-emulator.invalid/vaults/safe.svg";
      // Required (a string) by the published schema: the change request that connected the vault.
      f.change_request_id = deterministicUuid("change-request", id);
      break;
    case "exchange":
      f.exchange_type = input.exchangeType ?? "binance";
      f.logo_url = `https://logos.custody-emulator.invalid/exchanges/${f.exchange_type}.svg`;
      f.is_balance_data_outdated = false;
      f.account = { type: "master", api_key: `emu-${id.slice(0, 8)}` };
      f.change_request_id = deterministicUuid("change-request", id);
      break;
    case "utxo": {
      const chain = input.chain ?? "bitcoin_mainnet";
      vault.utxo = { chain, default_address_id: "", next_address_index: 1 };
      defaultAddress = buildAddress(store, vault, { name: "Address 1", createdAt: now });
      vault.utxo.default_address_id = defaultAddress.id;
      f.taproot_key_public_compressed = ecdsaPublicKey(keySeed("taproot", id)).toString("base64");
      break;
    }
  }
  for (const key of ["address", "main_address", "evm_address", "raw_account", "arch_address"]) {
    if (typeof f[key] === "string") vault.account_addresses.push(f[key] as string);
  }
  return { vault, defaultAddress };
}

function vaultKey(store: Store, input: NewVault, seed: Buffer, publicKey: Buffer, eddsa: boolean): VaultKey {
  const coinType = input.type === "utxo" ? utxoCoinType(input.chain) : (COIN_TYPES[input.type] ?? 60);
  const account = store.vaults.size + 1;
  const derivationPath =
    input.type === "black_box"
      ? "m"
      : (input.importOptions?.derivation_path ?? `m/44/${coinType}/${account}/0/0`);
  return {
    derivation_path: derivationPath,
    public_key_compressed: publicKey.toString("base64"),
    master_public_key_id: deterministicUuid(store.organizationId, "master-key", eddsa ? "eddsa" : "ecdsa"),
    xpub: xpub(seed),
  };
}

function utxoCoinType(chain?: string): number {
  if (!chain || chain === "bitcoin_mainnet") return 0;
  if (chain === "dogecoin_mainnet") return 3;
  if (chain === "bitcoin_cash_mainnet") return 145;
  if (chain === "pearl_mainnet") return 1863;
  return 1;
}

export function zeroBalances() {
  return {
    total_mined: "0",
    total_pending_incoming: "0",
    available_mined: "0",
    available_pending_incoming: "0",
    frozen_mined: "0",
    frozen_pending_incoming: "0",
  };
}

/** A new address of a UTXO vault at its next index (or at an imported derivation path). */
export function buildAddress(
  store: Store,
  vault: VaultRecord,
  opts: { name: string; addressType?: string; derivationPath?: string; createdAt?: string },
): AddressRecord {
  const utxo = vault.utxo!;
  const index = utxo.next_address_index;
  const chain = utxo.chain;
  const addressType = opts.addressType ?? defaultUtxoAddressType(chain);
  const publicKey = ecdsaPublicKey(keySeed("address-key", vault.id, opts.derivationPath ?? index));
  const derived = utxoAddress(chain, addressType, publicKey, index);
  const now = opts.createdAt ?? store.now();
  return {
    id: store.nextId(),
    vault_id: vault.id,
    name: opts.name,
    created_at: now,
    modified_at: now,
    address: derived.address,
    address_type: addressType,
    chain,
    derivation_path: opts.derivationPath ?? derived.derivationPath,
    public_key_compressed: publicKey.toString("base64"),
  };
}
