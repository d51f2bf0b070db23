/**
 * The emulator's records: what the store holds and what the state file persists. API shapes are rendered
 * from them by `views.ts`; derived values (vault counts, group membership arrays) are never stored.
 */
import type { UserRole, UserType, VaultType, WebhookEventType } from "@pulumi-custody/sdk/schema";

/** Bumped whenever a persisted field changes meaning; a state file of another version is refused. */
export const STATE_FORMAT_VERSION = 1;

/** Secrets and key pairs; persisted so a restart keeps the same credentials. */
export interface Credentials {
  accessToken: string;
  viewerAccessToken: string;
  controlToken: string;
  apiUserPrivateKeyPem: string;
  apiUserPublicKeyPem: string;
  webhookPrivateKeyPem: string;
  webhookPublicKeyPem: string;
}

export interface UserRecord {
  id: string;
  user_type: UserType;
  name?: string;
  email?: string;
  state: string;
  role?: UserRole;
  created_at: string;
  modified_at: string;
  last_active_at?: string;
  last_keep_alive_at?: string;
  allowed_ip_settings?: { allow_type: "allow_all" | "ip_list"; ip_list?: string[] };
  acknowledged_banners?: string[];
}

export interface MembershipRecord {
  user_id: string;
  group_id: string;
  state: "active" | "pending_addition" | "pending_removal";
}

export interface UserGroupRecord {
  id: string;
  name: string;
  state: "active" | "deleted";
  created_at: string;
  modified_at: string;
  modified_by: string;
  proposed_change?: {
    id: string;
    created_at: string;
    created_by: string;
    new_name?: string;
    added_user_ids: string[];
    removed_user_ids: string[];
  };
}

export interface VaultGroupRecord {
  id: string;
  name: string;
  created_at: string;
}

/** MPC key material (all vault types but exchange and safe). */
export interface VaultKey {
  derivation_path: string;
  public_key_compressed: string;
  master_public_key_id: string;
  xpub: string;
}

export interface VaultRecord {
  id: string;
  name: string;
  type: VaultType;
  state: "active" | "archived";
  created_at: string;
  modified_at: string;
  /** The user that created the vault. */
  created_by: string;
  vault_group_ids: string[];
  origin_type: "native" | "imported";
  is_external_signer: boolean;
  is_favorite: boolean;
  /** End user holding the key (consumer-wallet vaults); end users are not modelled beyond their ref. */
  key_holder?: { id: string; external_id: string };
  key?: VaultKey;
  /** Type-specific API fields, rendered as they are (`address`, `raw_account`, `details`, …). */
  fields: Record<string, unknown>;
  /** Every address of the vault's account, for the `account_addresses` filter. */
  account_addresses: string[];
  /** UTXO vaults only. */
  utxo?: { chain: string; default_address_id: string; next_address_index: number };
}

export interface AddressRecord {
  id: string;
  vault_id: string;
  name: string;
  created_at: string;
  modified_at: string;
  address: string;
  address_type: string;
  chain: string;
  derivation_path: string;
  public_key_compressed: string;
}

/** Six-field `Balances`, minor units. */
export interface BalanceRecord {
  total_mined: string;
  total_pending_incoming: string;
  available_mined: string;
  available_pending_incoming: string;
  frozen_mined: string;
  frozen_pending_incoming: string;
}

export interface OwnedAssetRecord {
  vault_id: string;
  asset_id: string;
  balances: BalanceRecord;
  is_hidden: boolean;
}

/**
 * A vault change proposal, submitted by `POST /vaults/{id}/proposals` and decided through the
 * control API, which stands in for the service's separate user-actions interface.
 */
export interface ProposalRecord {
  /** Proposal id. */
  id: string;
  /** The vault whose vault groups change. */
  vault_id: string;
  /** `pending` until approved or aborted; a newer proposal for the same vault makes it `superseded`. */
  state: "pending" | "approved" | "aborted" | "superseded";
  /** Emulator time of the submission, ISO-8601. */
  created_at: string;
  /** Id of the user who submitted it. */
  created_by: string;
  /** Vault groups the vault joins on approval. */
  added_vault_group_ids: string[];
  /** Vault groups the vault leaves on approval. */
  removed_vault_group_ids: string[];
  /** Emulator time it was approved, aborted or superseded, ISO-8601. */
  decided_at?: string;
}

export interface TransactionRecord {
  id: string;
  vault_id: string;
  idempotence_id?: string;
  /** The states this transaction walks through, first to last (`waiting_for_approval` … `completed`). */
  plan: string[];
  /** Index in `plan` of the current state. */
  step: number;
  /** Emulator time (ms) of the last state change, for `clock` progression. */
  stepped_at_ms: number;
  /** The API record, kept up to date on every state change. */
  body: Record<string, unknown> & { id: string; state: string; type: string };
}

/** An audit-log entry as stored; rendered as the API's `AuditLogRecord` by `Views.auditLogRecord`. */
export interface AuditEntryRecord {
  id: string;
  created_at: string;
  action: string;
  user_id: string;
  resource_type: string;
  resource_id: string;
  details?: Record<string, unknown>;
}

/**
 * A webhook endpoint configured through the control API (the service configures webhooks elsewhere).
 */
export interface WebhookEndpointRecord {
  /** Endpoint id; the `webhook_id` of its deliveries. */
  id: string;
  /** Where deliveries are POSTed. */
  url: string;
  /** Event types delivered to it. */
  events: WebhookEventType[];
  /** A disabled endpoint receives nothing. */
  enabled: boolean;
  /** Emulator time it was added, ISO-8601. */
  created_at: string;
}

/** The whole persisted state, as written to the state file. */
export interface EmulatorState {
  format_version: number;
  organization_id: string;
  /** Seed of new record ids: id n is `deterministicUuid(id_seed, n)`. */
  id_seed: string;
  id_counter: number;
  api_user_id: string;
  viewer_user_id: string;
  default_vault_group_id: string;
  credentials: Credentials;
  users: UserRecord[];
  memberships: MembershipRecord[];
  user_groups: UserGroupRecord[];
  vault_groups: VaultGroupRecord[];
  vaults: VaultRecord[];
  addresses: AddressRecord[];
  owned_assets: OwnedAssetRecord[];
  proposals: ProposalRecord[];
  transactions: TransactionRecord[];
  audit_log: AuditEntryRecord[];
  webhook_endpoints: WebhookEndpointRecord[];
}
