/**
 * The one in-memory store of the emulator. Every mutation goes through it, and each mutation is a
 * synchronous read-check-write: Node runs one handler at a time, so two concurrent requests can never both
 * pass a uniqueness check (vault names, address names, idempotency ids) and lose a write.
 */
import { alreadyExists } from "../api-error";
import type { Clock } from "../clock";
import { jwtShapedToken } from "../credentials";
import { deterministicUuid } from "../prng";
import type {
  AddressRecord,
  AuditEntryRecord,
  EmulatorState,
  MembershipRecord,
  OwnedAssetRecord,
  ProposalRecord,
  TransactionRecord,
  UserGroupRecord,
  UserRecord,
  VaultGroupRecord,
  VaultRecord,
  WebhookEndpointRecord,
} from "./types";

/** How many audit-log records are kept; older ones are dropped (the log is for tests, not compliance). */
export const AUDIT_LOG_LIMIT = 10_000;

/** What the store reports to its listeners (persistence, webhooks). */
export type StoreEvent =
  | { kind: "changed" }
  | { kind: "audit"; record: AuditEntryRecord }
  | { kind: "transaction"; record: TransactionRecord; created: boolean };

export class Store {
  users = new Map<string, UserRecord>();
  memberships: MembershipRecord[] = [];
  userGroups = new Map<string, UserGroupRecord>();
  vaultGroups = new Map<string, VaultGroupRecord>();
  vaults = new Map<string, VaultRecord>();
  addresses = new Map<string, AddressRecord>();
  /** Owned assets per vault, in the order they were added. */
  ownedAssets = new Map<string, OwnedAssetRecord[]>();
  proposals = new Map<string, ProposalRecord>();
  transactions = new Map<string, TransactionRecord>();
  auditLog = new Map<string, AuditEntryRecord>();
  webhookEndpoints = new Map<string, WebhookEndpointRecord>();
  /** Bumped on every mutation; caches of derived values key on it. */
  revision = 0;

  private meta!: Omit<
    EmulatorState,
    | "users"
    | "memberships"
    | "user_groups"
    | "vault_groups"
    | "vaults"
    | "addresses"
    | "owned_assets"
    | "proposals"
    | "transactions"
    | "audit_log"
    | "webhook_endpoints"
  >;
  /** Non-archived and archived vault names (archived names stay reserved): name → vault id. */
  private vaultNames = new Map<string, string>();
  /** Vaults per vault group, kept up to date by every mutation that moves a vault. */
  private vaultCounts = new Map<string, number>();
  /** Address names per vault: vault id → (name → address id). */
  private addressNames = new Map<string, Map<string, string>>();
  /** Addresses per vault in creation order (renames reorder `addressNames`, never this). */
  private addressIdsByVault = new Map<string, string[]>();
  private idempotency = new Map<string, string>();
  /** Pending proposal per vault: vault id → proposal id. */
  private pendingProposals = new Map<string, string>();
  private readonly listeners = new Set<(event: StoreEvent) => void>();

  constructor(
    readonly clock: Clock,
    state: EmulatorState,
  ) {
    this.load(state);
  }

  // ---- whole-state operations ----------------------------------------------------------------------------

  /** Replaces everything (reset, seed, load from file). */
  load(state: EmulatorState): void {
    const {
      users,
      memberships,
      user_groups,
      vault_groups,
      vaults,
      addresses,
      owned_assets,
      proposals,
      transactions,
      audit_log,
      webhook_endpoints,
      ...meta
    } = state;
    this.meta = meta;
    this.users = new Map(users.map((u) => [u.id, u]));
    this.memberships = [...memberships];
    this.userGroups = new Map(user_groups.map((g) => [g.id, g]));
    this.vaultGroups = new Map(vault_groups.map((g) => [g.id, g]));
    this.vaults = new Map(vaults.map((v) => [v.id, v]));
    this.addresses = new Map(addresses.map((a) => [a.id, a]));
    this.ownedAssets = new Map();
    for (const owned of owned_assets) this.ownedAssetsOf(owned.vault_id, true).push(owned);
    this.proposals = new Map(proposals.map((p) => [p.id, p]));
    this.transactions = new Map(transactions.map((t) => [t.id, t]));
    this.auditLog = new Map(audit_log.map((r) => [r.id, r]));
    this.webhookEndpoints = new Map(webhook_endpoints.map((w) => [w.id, w]));
    this.vaultNames = new Map([...this.vaults.values()].map((v) => [v.name, v.id]));
    this.vaultCounts = new Map();
    for (const v of this.vaults.values()) this.countGroups(v.vault_group_ids, 1);
    this.addressNames = new Map();
    this.addressIdsByVault = new Map();
    for (const a of this.addresses.values()) {
      this.addressNamesOf(a.vault_id).set(a.name, a.id);
      this.addressIdsOf(a.vault_id).push(a.id);
    }
    this.pendingProposals = new Map();
    for (const p of this.proposals.values())
      if (p.state === "pending") this.pendingProposals.set(p.vault_id, p.id);
    this.idempotency = new Map();
    for (const t of this.transactions.values())
      if (t.idempotence_id) this.idempotency.set(t.idempotence_id, t.id);
    this.changed();
  }

  /** The persisted form; arrays keep the insertion (creation) order. */
  snapshot(): EmulatorState {
    return {
      ...this.meta,
      users: [...this.users.values()],
      memberships: this.memberships,
      user_groups: [...this.userGroups.values()],
      vault_groups: [...this.vaultGroups.values()],
      vaults: [...this.vaults.values()],
      addresses: [...this.addresses.values()],
      owned_assets: [...this.ownedAssets.values()].flat(),
      proposals: [...this.proposals.values()],
      transactions: [...this.transactions.values()],
      audit_log: [...this.auditLog.values()],
      webhook_endpoints: [...this.webhookEndpoints.values()],
    };
  }

  get organizationId(): string {
    return this.meta.organization_id;
  }
  get apiUserId(): string {
    return this.meta.api_user_id;
  }
  get viewerUserId(): string {
    return this.meta.viewer_user_id;
  }
  get defaultVaultGroupId(): string {
    return this.meta.default_vault_group_id;
  }
  get credentials(): EmulatorState["credentials"] {
    return this.meta.credentials;
  }

  /**
   * Issues a new access token for the API user (`access`) or the read-only viewer (`viewer`); the old one
   * is refused from now on, as after a rotation in the real service.
   */
  rotateToken(which: "access" | "viewer"): string {
    const token = jwtShapedToken(which === "access" ? this.apiUserId : this.viewerUserId);
    if (which === "access") this.meta.credentials.accessToken = token;
    else this.meta.credentials.viewerAccessToken = token;
    this.changed();
    return token;
  }

  /** A new record id: deterministic for a given seed and sequence of creations. */
  nextId(): string {
    this.meta.id_counter += 1;
    return deterministicUuid(this.meta.id_seed, this.meta.id_counter);
  }

  /** Emulator time, ISO-8601 with microseconds. */
  now(): string {
    return this.clock.isoNow();
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Marks the state as changed: invalidates caches and schedules a save. */
  changed(): void {
    this.revision += 1;
    this.emit({ kind: "changed" });
  }

  private emit(event: StoreEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  // ---- vaults --------------------------------------------------------------------------------------------

  /** The vault that holds `name`, archived vaults included (their names stay reserved). */
  vaultIdByName(name: string): string | undefined {
    return this.vaultNames.get(name);
  }

  /** Inserts a new vault; 409 when its name is taken. */
  insertVault(vault: VaultRecord): void {
    this.assertVaultNameFree(vault.name);
    this.vaults.set(vault.id, vault);
    this.vaultNames.set(vault.name, vault.id);
    this.countGroups(vault.vault_group_ids, 1);
    this.changed();
  }

  /** Renames a vault; renaming to its own name is a no-op, another vault's name is a 409. */
  renameVault(vault: VaultRecord, name: string): boolean {
    if (vault.name === name) return false;
    this.assertVaultNameFree(name);
    this.vaultNames.delete(vault.name);
    vault.name = name;
    vault.modified_at = this.now();
    this.vaultNames.set(name, vault.id);
    this.changed();
    return true;
  }

  /** Throws the 409 of a taken vault name (archived vaults keep their names reserved). */
  assertVaultNameFree(name: string): void {
    if (this.vaultNames.has(name)) {
      throw alreadyExists("vault", `A vault named '${name}' already exists`);
    }
  }

  /** Archives or restores; returns whether the state changed. */
  setVaultState(vault: VaultRecord, state: VaultRecord["state"]): boolean {
    if (vault.state === state) return false;
    vault.state = state;
    vault.modified_at = this.now();
    this.changed();
    return true;
  }

  setVaultGroups(vault: VaultRecord, groupIds: string[]): void {
    this.countGroups(vault.vault_group_ids, -1);
    this.countGroups(groupIds, 1);
    vault.vault_group_ids = groupIds;
    vault.modified_at = this.now();
    this.changed();
  }

  /** How many vaults are in a vault group (`VaultGroupRef.vaults_count`). */
  vaultCountOf(groupId: string): number {
    return this.vaultCounts.get(groupId) ?? 0;
  }

  private countGroups(groupIds: readonly string[], delta: number): void {
    for (const g of groupIds) this.vaultCounts.set(g, (this.vaultCounts.get(g) ?? 0) + delta);
  }

  ownedAssetsOf(vaultId: string, create = false): OwnedAssetRecord[] {
    let list = this.ownedAssets.get(vaultId);
    if (!list) {
      list = [];
      if (create) this.ownedAssets.set(vaultId, list);
    }
    return list;
  }

  // ---- addresses -----------------------------------------------------------------------------------------

  private addressNamesOf(vaultId: string): Map<string, string> {
    let names = this.addressNames.get(vaultId);
    if (!names) {
      names = new Map();
      this.addressNames.set(vaultId, names);
    }
    return names;
  }

  addressNameTaken(vaultId: string, name: string): boolean {
    return this.addressNamesOf(vaultId).has(name);
  }

  /**
   * Inserts an address of a UTXO vault; 409 when the name is taken in its vault. The vault's next
   * derivation index moves past it and the address joins the vault's account addresses.
   */
  insertAddress(address: AddressRecord): void {
    this.assertAddressNameFree(address.vault_id, address.name);
    const vault = this.vaults.get(address.vault_id);
    if (vault?.utxo) {
      vault.utxo.next_address_index += 1;
      vault.account_addresses.push(address.address);
    }
    this.addresses.set(address.id, address);
    this.addressNamesOf(address.vault_id).set(address.name, address.id);
    this.addressIdsOf(address.vault_id).push(address.id);
    this.changed();
  }

  /** Renames an address; its own name is a no-op, another address's name in the same vault is a 409. */
  renameAddress(address: AddressRecord, name: string): boolean {
    if (address.name === name) return false;
    this.assertAddressNameFree(address.vault_id, name);
    const names = this.addressNamesOf(address.vault_id);
    names.delete(address.name);
    address.name = name;
    address.modified_at = this.now();
    names.set(name, address.id);
    this.changed();
    return true;
  }

  /** Throws the 409 of an address name taken in the vault. */
  assertAddressNameFree(vaultId: string, name: string): void {
    if (this.addressNamesOf(vaultId).has(name)) {
      const vault = this.vaults.get(vaultId);
      throw alreadyExists(
        "vault_address",
        `An address named '${name}' already exists in vault '${vault?.name ?? vaultId}'`,
      );
    }
  }

  private addressIdsOf(vaultId: string): string[] {
    let ids = this.addressIdsByVault.get(vaultId);
    if (!ids) {
      ids = [];
      this.addressIdsByVault.set(vaultId, ids);
    }
    return ids;
  }

  /** The addresses of a vault in creation order. */
  addressesOf(vaultId: string): AddressRecord[] {
    return (this.addressIdsByVault.get(vaultId) ?? []).map((id) => this.addresses.get(id)!);
  }

  // ---- proposals -----------------------------------------------------------------------------------------

  /** Records a pending proposal; the vault's previous pending proposal, if any, is superseded. */
  insertProposal(proposal: ProposalRecord): void {
    const previous = this.pendingProposalOf(proposal.vault_id);
    if (previous) {
      previous.state = "superseded";
      previous.decided_at = this.now();
    }
    this.proposals.set(proposal.id, proposal);
    this.pendingProposals.set(proposal.vault_id, proposal.id);
    this.changed();
  }

  /** The pending proposal of a vault, if any. */
  pendingProposalOf(vaultId: string): ProposalRecord | undefined {
    const id = this.pendingProposals.get(vaultId);
    return id ? this.proposals.get(id) : undefined;
  }

  /**
   * Approves (the vault-group diff is applied) or aborts a pending proposal. Groups deleted since the
   * proposal are skipped, and a vault is never left without a group.
   */
  decideProposal(proposal: ProposalRecord, outcome: "approved" | "aborted"): void {
    proposal.state = outcome;
    proposal.decided_at = this.now();
    this.pendingProposals.delete(proposal.vault_id);
    const vault = this.vaults.get(proposal.vault_id);
    if (outcome === "approved" && vault) {
      const groups = vault.vault_group_ids.filter((g) => !proposal.removed_vault_group_ids.includes(g));
      for (const g of proposal.added_vault_group_ids) {
        if (!groups.includes(g) && this.vaultGroups.has(g)) groups.push(g);
      }
      if (groups.length > 0) this.setVaultGroups(vault, groups);
    }
    this.changed();
  }

  // ---- transactions --------------------------------------------------------------------------------------

  transactionByIdempotenceId(idempotenceId: string): TransactionRecord | undefined {
    const id = this.idempotency.get(idempotenceId);
    return id ? this.transactions.get(id) : undefined;
  }

  insertTransaction(tx: TransactionRecord): void {
    this.transactions.set(tx.id, tx);
    if (tx.idempotence_id) this.idempotency.set(tx.idempotence_id, tx.id);
    this.changed();
    this.emit({ kind: "transaction", record: tx, created: true });
  }

  /** Reports a state change of a transaction (after its record was updated in place). */
  transactionChanged(tx: TransactionRecord): void {
    this.changed();
    this.emit({ kind: "transaction", record: tx, created: false });
  }

  // ---- webhook endpoints --------------------------------------------------------------------------------

  putWebhookEndpoint(endpoint: WebhookEndpointRecord): void {
    this.webhookEndpoints.set(endpoint.id, endpoint);
    this.changed();
  }

  deleteWebhookEndpoint(id: string): void {
    this.webhookEndpoints.delete(id);
    this.changed();
  }

  // ---- audit log -----------------------------------------------------------------------------------------

  /** Records an action in the audit log (and triggers `audit_log` webhooks). */
  audit(
    action: string,
    userId: string,
    resourceType: string,
    resourceId: string,
    details?: Record<string, unknown>,
  ): AuditEntryRecord {
    const record: AuditEntryRecord = {
      id: this.nextId(),
      created_at: this.now(),
      action,
      user_id: userId,
      resource_type: resourceType,
      resource_id: resourceId,
      ...(details ? { details } : {}),
    };
    this.auditLog.set(record.id, record);
    if (this.auditLog.size > AUDIT_LOG_LIMIT) {
      const oldest = this.auditLog.keys().next().value as string;
      this.auditLog.delete(oldest);
    }
    this.changed();
    this.emit({ kind: "audit", record });
    return record;
  }
}
