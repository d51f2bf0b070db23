/**
 * Renders store records as the API shapes of vaults, addresses, users, groups and owned assets. Derived
 * values (member counts, group arrays) are computed here from the records, so they can never disagree with
 * them.
 */
import { findAsset } from "../seed/assets";
import { findChain } from "../seed/chains";
import type { Store } from "./store";
import type {
  AddressRecord,
  AuditEntryRecord,
  OwnedAssetRecord,
  TransactionRecord,
  UserGroupRecord,
  UserRecord,
  VaultRecord,
} from "./types";

type Json = Record<string, unknown>;

export class Views {
  /** Membership-derived values, recomputed when the memberships change (load or seed). */
  private membershipsSeen: { list: unknown; length: number } | undefined;
  private groupMembers = new Map<string, { users: number; admins: number }>();
  private userGroupsOfUser = new Map<string, Map<string, string[]>>();

  constructor(private readonly store: Store) {}

  private refresh(): void {
    const list = this.store.memberships;
    if (this.membershipsSeen?.list === list && this.membershipsSeen.length === list.length) return;
    this.membershipsSeen = { list, length: list.length };
    this.groupMembers = new Map();
    this.userGroupsOfUser = new Map();
    for (const m of list) {
      const byState = this.userGroupsOfUser.get(m.user_id) ?? new Map<string, string[]>();
      this.userGroupsOfUser.set(m.user_id, byState);
      byState.set(m.state, [...(byState.get(m.state) ?? []), m.group_id]);
      // A member pending removal is still a member; one pending addition is not yet.
      if (m.state === "pending_addition") continue;
      const counts = this.groupMembers.get(m.group_id) ?? { users: 0, admins: 0 };
      counts.users += 1;
      if (this.store.users.get(m.user_id)?.role === "admin") counts.admins += 1;
      this.groupMembers.set(m.group_id, counts);
    }
  }

  // ---- users ---------------------------------------------------------------------------------------------

  /** `UserRef`: PersonRef, ApiUserRef, ApiSignerRef or SystemUserRef. */
  userRef(userId: string): Json {
    const u = this.store.users.get(userId);
    if (!u) return { id: userId, user_type: "system", name: "Deleted user" };
    switch (u.user_type) {
      case "person":
        return {
          id: u.id,
          user_type: u.user_type,
          name: u.name,
          email: u.email,
          state: u.state,
          role: u.role,
        };
      case "api_user":
        return { id: u.id, user_type: u.user_type, name: u.name, state: u.state, role: u.role };
      case "api_signer":
        return { id: u.id, user_type: u.user_type, name: u.name, state: u.state };
      default:
        return { id: u.id, user_type: u.user_type, name: u.name };
    }
  }

  /** `User` (the union on `user_type`). */
  user(u: UserRecord): Json {
    this.refresh();
    const { ...fields } = u as unknown as Json;
    for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
    // Required for persons by the published schema, whatever seeded the record.
    if (u.user_type === "person") fields.acknowledged_banners ??= [];
    if (u.user_type === "person" || u.user_type === "api_user") {
      const byState = this.userGroupsOfUser.get(u.id);
      const refs = (state: string) => (byState?.get(state) ?? []).map((id) => this.userGroupRef(id));
      fields.user_groups = refs("active");
      fields.pending_addition_to_user_groups = refs("pending_addition");
      fields.pending_removal_from_user_groups = refs("pending_removal");
    }
    return fields;
  }

  /** Group ids of a user in the given membership states. */
  groupIdsOfUser(userId: string, states: readonly string[]): string[] {
    this.refresh();
    const byState = this.userGroupsOfUser.get(userId);
    if (!byState) return [];
    return states.flatMap((s) => byState.get(s) ?? []);
  }

  memberCounts(groupId: string): { users: number; admins: number } {
    this.refresh();
    return this.groupMembers.get(groupId) ?? { users: 0, admins: 0 };
  }

  userGroupRef(groupId: string): Json {
    const g = this.store.userGroups.get(groupId)!;
    const counts = this.memberCounts(groupId);
    return { id: g.id, name: g.name, users_count: counts.users, admins_count: counts.admins, state: g.state };
  }

  /** `UserGroup`. */
  userGroup(g: UserGroupRecord): Json {
    const counts = this.memberCounts(g.id);
    const out: Json = {
      id: g.id,
      created_at: g.created_at,
      modified_at: g.modified_at,
      name: g.name,
      users_count: counts.users,
      admins_count: counts.admins,
      state: g.state,
      modified_by: this.userRef(g.modified_by),
    };
    if (g.proposed_change) {
      const c = g.proposed_change;
      out.proposed_change = {
        id: c.id,
        created_at: c.created_at,
        created_by: this.userRef(c.created_by),
        ...(c.new_name ? { new_name: c.new_name } : {}),
        added_users: c.added_user_ids.map((id) => this.userRef(id)),
        removed_users: c.removed_user_ids.map((id) => this.userRef(id)),
      };
    }
    return out;
  }

  // ---- vaults --------------------------------------------------------------------------------------------

  /** `VaultGroupRef` with the published `vaults_count: {count, has_more}` shape. */
  vaultGroupRef(groupId: string): Json {
    const g = this.store.vaultGroups.get(groupId);
    return {
      id: groupId,
      name: g?.name ?? "Unknown",
      vaults_count: { count: this.store.vaultCountOf(groupId), has_more: false },
      can_current_user_create_or_edit_vaults: true,
    };
  }

  /** The main address of a vault, as `VaultRef.address` and filters see it. */
  mainAddress(v: VaultRecord): string | undefined {
    if (v.type === "utxo") return this.store.addresses.get(v.utxo!.default_address_id)?.address.toString();
    const f = v.fields;
    return (f.address ?? f.main_address ?? f.raw_account ?? f.arch_address) as string | undefined;
  }

  /** `VaultRef`. */
  vaultRef(v: VaultRecord): Json {
    const address = this.mainAddress(v);
    return {
      id: v.id,
      name: v.name,
      vault_group_id: v.vault_group_ids[0],
      vault_group_ids: v.vault_group_ids,
      ...(address ? { address } : {}),
      state: v.state,
      type: v.type,
      is_external_signer: v.is_external_signer,
    };
  }

  /**
   * `Vault` (the union on `type`). `nativeChains` fills `native_assets` (the `positive_native_balance_chain_ids`
   * filter). Only properties the published schema defines: a pending change proposal is visible through the
   * `vault_group_ids` list filter, and in full through the control API (`GET /__emulator/proposals`).
   */
  vault(v: VaultRecord, nativeChains?: readonly string[]): Json {
    const out: Json = {
      id: v.id,
      created_at: v.created_at,
      modified_at: v.modified_at,
      name: v.name,
      created_by: this.userRef(v.created_by),
      vault_group: this.vaultGroupRef(v.vault_group_ids[0] ?? this.store.defaultVaultGroupId),
      vault_groups: v.vault_group_ids.map((id) => this.vaultGroupRef(id)),
      is_external_signer: v.is_external_signer,
      // Required by the published schema (though not among its properties).
      are_all_chains_disabled: false,
      state: v.state,
      type: v.type,
    };
    if (v.key) {
      out.derivation_path = v.key.derivation_path;
      out.public_key_compressed = v.key.public_key_compressed;
      out.derivation_info = {
        derivation_path: v.key.derivation_path,
        master_public_key: { id: v.key.master_public_key_id, xpub: v.key.xpub },
      };
      out.origin_type = v.origin_type;
    }
    if (v.key_holder) {
      out.key_holder = {
        id: v.key_holder.id,
        user_type: "end_user",
        external_id: v.key_holder.external_id,
        state: "active",
      };
    }
    Object.assign(out, v.fields);
    if (v.type === "utxo" && v.utxo) {
      out.chain = findChain(v.utxo.chain);
      out.default_address = this.address(this.store.addresses.get(v.utxo.default_address_id)!);
      out.default_next_address_name = this.nextAddressName(v);
    }
    if (nativeChains) {
      out.native_assets = this.store
        .ownedAssetsOf(v.id)
        .filter((o) => {
          const asset = findAsset(o.asset_id);
          return (
            asset &&
            asset.info.asset_identifier.details?.type === "native" &&
            nativeChains.some((c) => findChain(c)?.unique_id === asset.chainUniqueId) &&
            BigInt(o.balances.total_mined) > 0n
          );
        })
        .map((o) => this.ownedAsset(o));
    }
    return out;
  }

  /** The name a new address gets when none is given: `Address <n>`, skipping names already taken. */
  nextAddressName(v: VaultRecord): string {
    let n = v.utxo?.next_address_index ?? 1;
    while (this.store.addressNameTaken(v.id, `Address ${n}`)) n += 1;
    return `Address ${n}`;
  }

  // ---- addresses and assets ------------------------------------------------------------------------------

  /** `UtxoVaultAddress`. */
  address(a: AddressRecord): Json {
    const vault = this.store.vaults.get(a.vault_id)!;
    return {
      id: a.id,
      created_at: a.created_at,
      modified_at: a.modified_at,
      vault: this.vaultRef(vault),
      name: a.name,
      public_key_compressed: a.public_key_compressed,
      derivation_path: a.derivation_path,
      type: "utxo",
      address: {
        type: "utxo",
        address: a.address,
        address_type: a.address_type,
        chain: { chain_type: "utxo", unique_id: a.chain },
      },
    };
  }

  /** `OwnedAsset` with the six-field `balances` and the deprecated `balance`. */
  ownedAsset(o: OwnedAssetRecord): Json {
    const asset = findAsset(o.asset_id)!;
    const priced: Json = { type: "asset_price", asset_info: asset.info };
    if (asset.priceUsd) {
      priced.price = {
        // Minor units of the fiat currency: 4 decimals keep sub-cent prices exact.
        price: String(Math.round(Number(asset.priceUsd) * 10_000)),
        price_float: asset.priceUsd,
        is_negative: false,
        fiat_currency: { currency_symbol: "usd", decimals: 4 },
      };
    }
    return { priced_asset: priced, balances: { ...o.balances }, balance: o.balances.total_mined };
  }

  // ---- transactions and audit log ------------------------------------------------------------------------

  /** A transaction as the API returns it: a copy, so later state changes do not alter sent events. */
  transaction(t: TransactionRecord): Json {
    return structuredClone(t.body);
  }

  /** A transaction as it was when created (the "create" event the trigger endpoint resends). */
  transactionAsCreated(t: TransactionRecord): Json {
    const body = structuredClone(t.body) as unknown as Json & { state_changes: { new_state: string }[] };
    const initial = body.state_changes.slice(0, 2);
    body.state = initial.at(-1)?.new_state ?? body.state;
    body.state_changes = initial;
    body.modified_at = body.created_at;
    body.signatures = [];
    for (const key of ["hash", "block", "explorer_url", "mined_result_status"]) delete body[key];
    return body;
  }

  /** An audit-log record (`AuditLogRecord`, whose payload the API leaves open). */
  auditLogRecord(r: AuditEntryRecord): Json {
    return {
      id: r.id,
      created_at: r.created_at,
      action: r.action,
      user: this.userRef(r.user_id),
      resource: { type: r.resource_type, id: r.resource_id },
      ...(r.details ? { details: r.details } : {}),
    };
  }
}
