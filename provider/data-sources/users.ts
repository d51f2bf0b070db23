/** Data sources `getUsers`, `getUser`, `getUserGroups` and `getUserGroup`. */
import type { z } from "zod";
import {
  ApiSignerUser,
  ApiUser,
  type ListUserGroupsQuery,
  type ListUsersQuery,
  PersonUser,
  SystemUser,
  type UserGroup as UserGroupRecord,
  type UserGroupRef,
  type User as UserRecord,
} from "../../sdk";
import { withoutUndefined } from "../runtime/projection";
import { getDataSource, listDataSource } from "./define";

/** Filters of {@link getUsers} (`GET /users`). */
export interface GetUsersArgs {
  /** Only users of these types: `person`, `api_user`, `api_signer`, `system`. */
  types?: string[];
  /** Only users with these roles: `admin`, `trader`, `viewer`. */
  roles?: string[];
  /** Only users in these states (`active`, `deleted`, `onboarding_pending_activation`, …). */
  states?: string[];
  /** Include deleted users; the API's default is false. */
  includeDeleted?: boolean;
  /** Only users with these exact names. */
  names?: string[];
  /** Only users with these emails. */
  emails?: string[];
  /** Only these user ids. */
  userIds?: string[];
  /** Only end users with these client-assigned ids. */
  externalIds?: string[];
  /** Only members of these user groups. */
  groupIds?: string[];
  /** Exclude members of these user groups (`group_ids__not`). */
  excludeGroupIds?: string[];
  /** Membership states that count for `groupIds`: `active`, `pending_addition`, `pending_removal`. */
  statesOnGroups?: string[];
  /** Exclude these user ids. */
  excludeUserIds?: string[];
  /** Sort order, e.g. `["name_asc"]` (note `created_asc`, not `created_at_asc`). */
  sortBy?: string[];
  /** Stop after this many users; all of them when unset. */
  maxItems?: number;
}

/** A user group as embedded in a user. */
export interface UserGroupMembership {
  /** User group id. */
  id: string;
  /** User group name. */
  name: string;
}

/** A user of the organization. */
export interface User {
  /** User id. */
  id: string;
  /** `person`, `api_user`, `api_signer` or `system`. */
  userType: string;
  /** Display name (optional for persons). */
  name?: string;
  /** Email (persons). */
  email?: string;
  /** Lifecycle state. */
  state: string;
  /** Role (persons and API users): `admin`, `trader` or `viewer`. */
  role?: string;
  /** Creation time (ISO-8601). */
  createdAt: string;
  /** Last modification time (ISO-8601). */
  modifiedAt: string;
  /** Groups the user is an active member of. */
  userGroups: UserGroupMembership[];
  /** Groups the user is pending addition to. */
  pendingAdditionToUserGroups: UserGroupMembership[];
  /** Groups the user is pending removal from. */
  pendingRemovalFromUserGroups: UserGroupMembership[];
  /** Last activity (API users). */
  lastActiveAt?: string;
  /** Last keep-alive (API signers). */
  lastKeepAliveAt?: string;
  /** IP allow-list settings (API users): `allow_all`, or `ip_list` with its addresses. */
  allowedIpSettings?: {
    /** `allow_all` or `ip_list`. */
    allowType: string;
    /** The allowed addresses when `allowType` is `ip_list`. */
    ipList?: string[];
  };
}

/** The user kinds this release models, from the variants of the sdk's `User` union. */
const MODELLED_USER_TYPES = new Set<string>(
  [PersonUser, ApiUser, ApiSignerUser, SystemUser].map((variant) => variant.shape.user_type.value),
);

/** A user of a kind this release models. */
type ModelledUser = z.infer<typeof PersonUser | typeof ApiUser | typeof ApiSignerUser | typeof SystemUser>;

/**
 * Whether the user is of a kind this release models. `User` is an open union: a kind added later keeps its
 * `user_type`, so comparing `user_type` alone does not narrow to a modelled variant.
 */
function isModelledUser(user: UserRecord): user is ModelledUser {
  return MODELLED_USER_TYPES.has(user.user_type);
}

function memberships(groups: UserGroupRef[] | undefined): UserGroupMembership[] {
  return (groups ?? []).map((group) => ({ id: group.id, name: group.name }));
}

/**
 * Maps one API user record to a {@link User}. A kind of user this release does not model shows the fields
 * that every kind has.
 */
export function toUser(user: UserRecord): User {
  const modelled = isModelledUser(user) ? user : undefined;
  const person = modelled?.user_type === "person" ? modelled : undefined;
  const apiUser = modelled?.user_type === "api_user" ? modelled : undefined;
  const apiSigner = modelled?.user_type === "api_signer" ? modelled : undefined;
  const member = person ?? apiUser;
  const ip = apiUser?.allowed_ip_settings;
  return withoutUndefined({
    id: user.id,
    userType: user.user_type,
    name: user.name,
    email: person?.email,
    state: user.state,
    role: member?.role,
    createdAt: user.created_at,
    modifiedAt: user.modified_at,
    userGroups: memberships(member?.user_groups),
    pendingAdditionToUserGroups: memberships(member?.pending_addition_to_user_groups),
    pendingRemovalFromUserGroups: memberships(member?.pending_removal_from_user_groups),
    lastActiveAt: apiUser?.last_active_at,
    lastKeepAliveAt: apiSigner?.last_keep_alive_at,
    allowedIpSettings: ip ? withoutUndefined({ allowType: ip.allow_type, ipList: ip.ip_list }) : undefined,
  });
}

const users = listDataSource<GetUsersArgs, typeof ListUsersQuery>()({
  name: "getUsers",
  query: {
    types: "types",
    roles: "roles",
    states: "states",
    includeDeleted: "include_deleted",
    names: "names",
    emails: "emails",
    userIds: "user_ids",
    externalIds: "external_ids",
    groupIds: "group_ids",
    excludeGroupIds: "group_ids__not",
    statesOnGroups: "states_on_groups",
    excludeUserIds: "exclude_user_ids",
    sortBy: "sort_by",
  },
  whenNoArgs: {},
  list: (client, { query }) => client.users.listAll(query),
  map: toUser,
});

/** Lists the organization's users (every page; up to 400 per request). @function */
export const getUsers = users.run;

/** {@link getUsers} taking Inputs and returning an Output. */
export const getUsersOutput = users.output;

/** Arguments of {@link getUser}. */
export interface GetUserArgs {
  /** User id. */
  id: string;
}

const user = getDataSource<GetUserArgs>()({
  name: "getUser",
  callArgs: ({ id }: GetUserArgs) => ({ id }),
  query: {},
  get: (client, { id }) => client.users.get(id),
  map: toUser,
});

/** Reads one user by id. @function */
export const getUser = user.run;

/** {@link getUser} taking Inputs and returning an Output. */
export const getUserOutput = user.output;

/** Filters of {@link getUserGroups} (`GET /user-groups`). */
export interface GetUserGroupsArgs {
  /** Only groups in these states: `active`, `deleted`. */
  states?: string[];
  /** Only these group ids. */
  userGroupIds?: string[];
  /** Only groups containing these users. */
  userIds?: string[];
  /** Only groups last modified by these users. */
  modifiedBy?: string[];
  /** Exact group name. */
  name?: string;
  /** Substring search over group names. */
  search?: string;
  /** Exclude these group ids. */
  excludeUserGroupIds?: string[];
  /** Sort order, e.g. `["name_asc"]`. */
  sortBy?: string[];
  /** Stop after this many groups; all of them when unset. */
  maxItems?: number;
}

/** A change to a user group waiting for approval. */
export interface UserGroupProposedChange {
  /** Change request id. */
  id: string;
  /** When it was proposed (ISO-8601). */
  createdAt: string;
  /** New name, when the change renames the group. */
  newName?: string;
  /** Users the change adds. */
  addedUserIds: string[];
  /** Users the change removes. */
  removedUserIds: string[];
}

/** A user group. */
export interface UserGroup {
  /** User group id. */
  id: string;
  /** Name. */
  name: string;
  /** `active` or `deleted`. */
  state: string;
  /** Number of members. */
  usersCount: number;
  /** Number of admins among them. */
  adminsCount: number;
  /** Creation time (ISO-8601). */
  createdAt: string;
  /** Last modification time (ISO-8601). */
  modifiedAt: string;
  /** Who modified it last. */
  modifiedById?: string;
  /** A pending change, if any. */
  proposedChange?: UserGroupProposedChange;
}

/** Maps one API user-group record to a {@link UserGroup}. */
export function toUserGroup(group: UserGroupRecord): UserGroup {
  const change = group.proposed_change;
  return withoutUndefined({
    id: group.id,
    name: group.name,
    state: group.state,
    usersCount: group.users_count,
    adminsCount: group.admins_count,
    createdAt: group.created_at,
    modifiedAt: group.modified_at,
    modifiedById: group.modified_by?.id,
    proposedChange: change
      ? withoutUndefined({
          id: change.id,
          createdAt: change.created_at,
          newName: change.new_name,
          addedUserIds: (change.added_users ?? []).map((u) => u.id),
          removedUserIds: (change.removed_users ?? []).map((u) => u.id),
        })
      : undefined,
  });
}

const userGroups = listDataSource<GetUserGroupsArgs, typeof ListUserGroupsQuery>()({
  name: "getUserGroups",
  query: {
    states: "states",
    userGroupIds: "user_group_ids",
    userIds: "user_ids",
    modifiedBy: "modified_by",
    name: "name",
    search: "search",
    excludeUserGroupIds: "exclude_user_group_ids",
    sortBy: "sort_by",
  },
  whenNoArgs: {},
  list: (client, { query }) => client.userGroups.listAll(query),
  map: toUserGroup,
});

/** Lists the user groups (every page). @function */
export const getUserGroups = userGroups.run;

/** {@link getUserGroups} taking Inputs and returning an Output. */
export const getUserGroupsOutput = userGroups.output;

/** Arguments of {@link getUserGroup}. */
export interface GetUserGroupArgs {
  /** User group id. */
  id: string;
}

const userGroup = getDataSource<GetUserGroupArgs>()({
  name: "getUserGroup",
  callArgs: ({ id }: GetUserGroupArgs) => ({ id }),
  query: {},
  get: (client, { id }) => client.userGroups.get(id),
  map: toUserGroup,
});

/** Reads one user group by id. @function */
export const getUserGroup = userGroup.run;

/** {@link getUserGroup} taking Inputs and returning an Output. */
export const getUserGroupOutput = userGroup.output;
