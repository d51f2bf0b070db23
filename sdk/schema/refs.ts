/** Small reference objects embedded in other records (docs/api-notes.md, "Vaults", "Users and groups"). */
import { z } from "zod";
import { DateTime, Uuid } from "./common";
import { UserRole, UserType, VaultState, VaultType } from "./enums";

/** `UserRef`: a union on `user_type`, lenient so that an unknown user type still parses. */
export const UserRef = z.looseObject({
  id: Uuid,
  user_type: UserType.or(z.literal("end_user")).or(z.string()),
  name: z.string().optional(),
  email: z.string().optional(),
  state: z.string().optional(),
  role: UserRole.or(z.string()).optional(),
  external_id: z.string().optional(),
});
export type UserRef = z.infer<typeof UserRef>;

/**
 * `VaultGroupRef`. The published schema has `vaults_count: {count, has_more}`; real traffic showed an older
 * `vault_count: <int>`. Both parse.
 */
export const VaultGroupRef = z.looseObject({
  id: Uuid,
  name: z.string(),
  vaults_count: z.looseObject({ count: z.number().int().min(0), has_more: z.boolean() }).optional(),
  vault_count: z.number().int().min(0).optional(),
  can_current_user_create_or_edit_vaults: z.boolean().optional(),
});
export type VaultGroupRef = z.infer<typeof VaultGroupRef>;

/** `UserGroupRef`: a user group as embedded in a user record, with its member counts. */
export const UserGroupRef = z.looseObject({
  id: Uuid,
  name: z.string(),
  users_count: z.number().int().min(0),
  admins_count: z.number().int().min(0),
  state: z.string(),
});
/** A user group as embedded in other records. */
export type UserGroupRef = z.infer<typeof UserGroupRef>;

/** `VaultRef`: a vault as embedded in addresses, transactions and sub-accounts (real service's schema). */
export const VaultRef = z.looseObject({
  id: Uuid,
  name: z.string(),
  vault_group_id: Uuid.optional(),
  vault_group_ids: z.array(Uuid).optional(),
  address: z.string().optional(),
  state: VaultState.or(z.string()),
  type: VaultType.or(z.string()),
  logo_url: z.string().optional(),
  is_external_signer: z.boolean().optional(),
});
/** A vault as embedded in other records. */
export type VaultRef = z.infer<typeof VaultRef>;

/** `keyset` appears on real MPC vaults though the published schema lacks it. */
export const KeysetRef = z.looseObject({
  id: Uuid,
  name: z.string().optional(),
  scope: z.string().optional(),
});

/** The `created_at` and `modified_at` fields (ISO-8601) of most records, to spread into a schema's shape. */
export const Timestamps = {
  created_at: DateTime,
  modified_at: DateTime,
};
