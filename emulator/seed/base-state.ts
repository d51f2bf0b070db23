/**
 * The state every seed starts from: the organization, the two API users whose tokens the emulator hands
 * out (a trader that may write and a viewer that may not), and the "Default" vault group that new vaults
 * join unless told otherwise.
 */
import { deterministicUuid } from "../prng";
import { type Credentials, type EmulatorState, STATE_FORMAT_VERSION } from "../state/types";

/** Seed timestamps are fixed, so seed data is identical on every run. */
export const SEED_EPOCH_MS = Date.UTC(2025, 0, 6, 9, 0, 0);

export function seedTimestamp(minutesAfterEpoch: number): string {
  return new Date(SEED_EPOCH_MS + minutesAfterEpoch * 60_000).toISOString().replace(/Z$/, "000Z");
}

export function seedId(kind: string, key: string | number): string {
  return deterministicUuid("custody-emulator-seed", kind, key);
}

export const API_USER_ID = seedId("user", "emulator-api-user");
export const VIEWER_USER_ID = seedId("user", "emulator-viewer");
export const DEFAULT_VAULT_GROUP_ID = seedId("vault-group", "Default");

/** A state with only the organization, its API users and the Default vault group. */
export function baseState(credentials: Credentials, idSeed: string): EmulatorState {
  const created = seedTimestamp(0);
  return {
    format_version: STATE_FORMAT_VERSION,
    organization_id: seedId("organization", "emulator"),
    id_seed: idSeed,
    id_counter: 0,
    api_user_id: API_USER_ID,
    viewer_user_id: VIEWER_USER_ID,
    default_vault_group_id: DEFAULT_VAULT_GROUP_ID,
    credentials,
    users: [
      {
        id: API_USER_ID,
        user_type: "api_user",
        name: "Emulator API User",
        state: "active",
        role: "trader",
        created_at: created,
        modified_at: created,
        allowed_ip_settings: { allow_type: "allow_all" },
      },
      {
        id: VIEWER_USER_ID,
        user_type: "api_user",
        name: "Emulator Viewer",
        state: "active",
        role: "viewer",
        created_at: created,
        modified_at: created,
        allowed_ip_settings: { allow_type: "allow_all" },
      },
    ],
    memberships: [],
    user_groups: [],
    vault_groups: [{ id: DEFAULT_VAULT_GROUP_ID, name: "Default", created_at: created }],
    vaults: [],
    addresses: [],
    owned_assets: [],
    proposals: [],
    transactions: [],
    audit_log: [],
    webhook_endpoints: [],
  };
}
