/** Users and user groups (docs/api-notes.md, "Users and groups"). */
import { z } from "zod";
import {
  DateTime,
  listEnvelope,
  MAX_USERS_PAGE_SIZE,
  pagingQuery,
  queryArray,
  queryBool,
  Uuid,
} from "./common";
import {
  UserGroupSortableFields,
  UserGroupState,
  UserRole,
  UserSortableFields,
  UserState,
  UserStateOnGroup,
  UserType,
} from "./enums";
import { openEnum, openUnion, type UnknownVariant } from "./open";
import { Timestamps, UserGroupRef, UserRef } from "./refs";

const userCommon = { id: Uuid, ...Timestamps };
const groupArrays = {
  user_groups: z.array(UserGroupRef).optional(),
  pending_addition_to_user_groups: z.array(UserGroupRef).optional(),
  pending_removal_from_user_groups: z.array(UserGroupRef).optional(),
};

/** `Person` (`user_type: "person"`): a human user of the organization, with `email`, `role` and `state`. */
export const PersonUser = z.looseObject({
  ...userCommon,
  user_type: z.literal("person"),
  name: z.string().optional(),
  email: z.string(),
  state: UserState.or(z.string()),
  role: UserRole.or(z.string()),
  acknowledged_banners: z.array(z.string()).optional(),
  ...groupArrays,
});
/**
 * `ApiUser` (`user_type: "api_user"`): a programmatic user holding an access token, optionally limited to
 * listed IP addresses.
 */
export const ApiUser = z.looseObject({
  ...userCommon,
  user_type: z.literal("api_user"),
  name: z.string(),
  state: z.string(),
  role: UserRole.or(z.string()),
  allowed_ip_settings: z
    .looseObject({ allow_type: openEnum(["allow_all", "ip_list"]), ip_list: z.array(z.string()).optional() })
    .optional(),
  last_active_at: DateTime.optional(),
  ...groupArrays,
});
/**
 * `ApiSigner` (`user_type: "api_signer"`): a signing component the client runs and pairs with an API user
 * to sign requests; `last_keep_alive_at` is when it last checked in.
 */
export const ApiSignerUser = z.looseObject({
  ...userCommon,
  user_type: z.literal("api_signer"),
  name: z.string(),
  state: z.string(),
  last_keep_alive_at: DateTime.optional(),
});
/** `SystemUser` (`user_type: "system"`): a user the service itself acts as. */
export const SystemUser = z.looseObject({
  ...userCommon,
  user_type: z.literal("system"),
  name: z.string(),
  state: z.string(),
});
/** `User`, a union on `user_type`. */
const USER_VARIANTS = [PersonUser, ApiUser, ApiSignerUser, SystemUser] as const;
/** `User`, a union on `user_type`; a kind of user this release does not model is kept as it came. */
export const User: z.ZodType<User, z.input<(typeof USER_VARIANTS)[number]> | UnknownVariant<"user_type">> =
  openUnion("user_type", USER_VARIANTS);
/**
 * A user record: a person, API user, API signer or system user, told apart by `user_type`, or a kind of user
 * that a later service release added (kept as it came).
 */
export type User = ModelledUser | UnknownVariant<"user_type", ModelledUser>;
/** A user of one of the four kinds this release models. */
export type ModelledUser = z.infer<(typeof USER_VARIANTS)[number]>;
const MODELLED_USER_TYPES: ReadonlySet<string> = new Set(USER_VARIANTS.map((v) => v.shape.user_type.value));
/** Whether `user` is of a kind this release models; narrows it to {@link ModelledUser}. */
export function isModelledUser(user: User): user is ModelledUser {
  return MODELLED_USER_TYPES.has(user.user_type);
}

/** Query of `GET /users`: paging (`size` up to 400), sort order and filters. */
export const ListUsersQuery = z.object({
  /** Sort order, e.g. `["name_asc"]`. */
  sort_by: queryArray(UserSortableFields),
  ...pagingQuery(MAX_USERS_PAGE_SIZE, null),
  /** Only users of these types. */
  types: queryArray(UserType),
  /** Only users with these roles. */
  roles: queryArray(UserRole),
  /** Only users in these states. */
  states: queryArray(UserState),
  /** Include deleted users; default false. */
  include_deleted: queryBool(),
  /** Only users with these exact names. */
  names: queryArray(z.string()),
  /** Only users with these emails. */
  emails: queryArray(z.string()),
  /** Only these user ids. */
  user_ids: queryArray(Uuid),
  /** Only end users with these client-assigned ids. */
  external_ids: queryArray(z.string()),
  /** Only members of these groups. */
  group_ids: queryArray(Uuid),
  /** Exclude members of these groups. */
  group_ids__not: queryArray(Uuid),
  /** Membership states that count for `group_ids`. */
  states_on_groups: queryArray(UserStateOnGroup),
  /** Exclude these user ids. */
  exclude_user_ids: queryArray(Uuid),
});
/** Query parameters of `GET /users`, as the client accepts them. */
export type ListUsersQuery = z.input<typeof ListUsersQuery>;
/** `ListUsersResponse`: one page of users, `{ total, page, size, users }`. */
export const ListUsersResponse = listEnvelope("users", User);
/** One page of `GET /users`. */
export type ListUsersResponse = z.infer<typeof ListUsersResponse>;

/**
 * `UserGroup` (= `GetUserGroupResponse`): a group of users with its member counts; `proposed_change` is a
 * pending change to its name or members.
 */
export const UserGroup = z.looseObject({
  id: Uuid,
  ...Timestamps,
  name: z.string().min(1),
  users_count: z.number().int().min(0),
  admins_count: z.number().int().min(0),
  state: UserGroupState.or(z.string()),
  modified_by: UserRef.optional(),
  proposed_change: z
    .looseObject({
      id: Uuid,
      created_at: DateTime,
      created_by: UserRef.optional(),
      new_name: z.string().optional(),
      added_users: z.array(UserRef).optional(),
      removed_users: z.array(UserRef).optional(),
    })
    .optional(),
});
/** A user group record. */
export type UserGroup = z.infer<typeof UserGroup>;

/** Query of `GET /user-groups`: paging, sort order and filters. */
export const ListUserGroupsQuery = z.object({
  ...pagingQuery(),
  /** Only groups in these states. */
  states: queryArray(UserGroupState),
  /** Only these group ids. */
  user_group_ids: queryArray(Uuid),
  /** Only groups containing these users. */
  user_ids: queryArray(Uuid),
  /** Only groups last modified by these users. */
  modified_by: queryArray(Uuid),
  /** Exact group name. */
  name: z.string().min(1, { message: "must not be empty" }).optional(),
  /** Substring search over group names. */
  search: z.string().min(1, { message: "must not be empty" }).optional(),
  /** Exclude these group ids. */
  exclude_user_group_ids: queryArray(Uuid),
  /** Sort order. */
  sort_by: queryArray(UserGroupSortableFields),
});
/** Query parameters of `GET /user-groups`, as the client accepts them. */
export type ListUserGroupsQuery = z.input<typeof ListUserGroupsQuery>;
/** `ListUserGroupsResponse`: one page of user groups, `{ total, page, size, user_groups }`. */
export const ListUserGroupsResponse = listEnvelope("user_groups", UserGroup);
/** One page of `GET /user-groups`. */
export type ListUserGroupsResponse = z.infer<typeof ListUserGroupsResponse>;
