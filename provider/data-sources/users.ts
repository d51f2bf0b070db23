/** Data sources `getUsers`, `getUser`, `getUserGroups` and `getUserGroup`. */
import { type ApiRecord, arr, collect, compact, ids, num, obj, str } from "./fields";
import {
  type DataSourceOptions,
  dataSourceClient,
  liftToOutput,
  liftToOutputOptional,
  named,
} from "./options";

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

function memberships(value: unknown): UserGroupMembership[] {
  return arr(value)
    .map(obj)
    .filter((g): g is ApiRecord => g !== undefined && typeof g.id === "string")
    .map((g) => ({ id: String(g.id), name: String(g.name) }));
}

/** Maps one API user record to a {@link User}. */
export function toUser(user: ApiRecord): User {
  const ip = obj(user.allowed_ip_settings);
  return compact({
    id: String(user.id),
    userType: String(user.user_type),
    name: str(user.name),
    email: str(user.email),
    state: String(user.state),
    role: str(user.role),
    createdAt: String(user.created_at),
    modifiedAt: String(user.modified_at),
    userGroups: memberships(user.user_groups),
    pendingAdditionToUserGroups: memberships(user.pending_addition_to_user_groups),
    pendingRemovalFromUserGroups: memberships(user.pending_removal_from_user_groups),
    lastActiveAt: str(user.last_active_at),
    lastKeepAliveAt: str(user.last_keep_alive_at),
    allowedIpSettings: ip
      ? compact({
          allowType: String(ip.allow_type),
          ipList: Array.isArray(ip.ip_list) ? ip.ip_list.map(String) : undefined,
        })
      : undefined,
  });
}

/** Lists the organization's users (every page; up to 400 per request). */
export function getUsers(args: GetUsersArgs = {}, options?: DataSourceOptions): Promise<User[]> {
  return named("getUsers", async () => {
    const client = dataSourceClient(options);
    const query = compact({
      types: args.types,
      roles: args.roles,
      states: args.states,
      include_deleted: args.includeDeleted,
      names: args.names,
      emails: args.emails,
      user_ids: args.userIds,
      external_ids: args.externalIds,
      group_ids: args.groupIds,
      group_ids__not: args.excludeGroupIds,
      states_on_groups: args.statesOnGroups,
      exclude_user_ids: args.excludeUserIds,
      sort_by: args.sortBy,
    });
    const users = client.users.listAll(query as Parameters<typeof client.users.listAll>[0]);
    return (await collect(users, args.maxItems)).map(toUser);
  });
}

/** {@link getUsers} taking Inputs and returning an Output. */
export const getUsersOutput = liftToOutputOptional(getUsers);

/** Arguments of {@link getUser}. */
export interface GetUserArgs {
  /** User id. */
  id: string;
}

/** Reads one user by id. */
export function getUser(args: GetUserArgs, options?: DataSourceOptions): Promise<User> {
  return named("getUser", async () => {
    const client = dataSourceClient(options);
    return toUser((await client.users.get(args.id)) as unknown as ApiRecord);
  });
}

/** {@link getUser} taking Inputs and returning an Output. */
export const getUserOutput = liftToOutput(getUser);

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
export function toUserGroup(group: ApiRecord): UserGroup {
  const change = obj(group.proposed_change);
  return compact({
    id: String(group.id),
    name: String(group.name),
    state: String(group.state),
    usersCount: num(group.users_count) ?? 0,
    adminsCount: num(group.admins_count) ?? 0,
    createdAt: String(group.created_at),
    modifiedAt: String(group.modified_at),
    modifiedById: str(obj(group.modified_by)?.id),
    proposedChange: change
      ? compact({
          id: String(change.id),
          createdAt: String(change.created_at),
          newName: str(change.new_name),
          addedUserIds: ids(change.added_users),
          removedUserIds: ids(change.removed_users),
        })
      : undefined,
  });
}

/** Lists the user groups (every page). */
export function getUserGroups(
  args: GetUserGroupsArgs = {},
  options?: DataSourceOptions,
): Promise<UserGroup[]> {
  return named("getUserGroups", async () => {
    const client = dataSourceClient(options);
    const query = compact({
      states: args.states,
      user_group_ids: args.userGroupIds,
      user_ids: args.userIds,
      modified_by: args.modifiedBy,
      name: args.name,
      search: args.search,
      exclude_user_group_ids: args.excludeUserGroupIds,
      sort_by: args.sortBy,
    });
    const groups = client.userGroups.listAll(query as Parameters<typeof client.userGroups.listAll>[0]);
    return (await collect(groups, args.maxItems)).map(toUserGroup);
  });
}

/** {@link getUserGroups} taking Inputs and returning an Output. */
export const getUserGroupsOutput = liftToOutputOptional(getUserGroups);

/** Arguments of {@link getUserGroup}. */
export interface GetUserGroupArgs {
  /** User group id. */
  id: string;
}

/** Reads one user group by id. */
export function getUserGroup(args: GetUserGroupArgs, options?: DataSourceOptions): Promise<UserGroup> {
  return named("getUserGroup", async () => {
    const client = dataSourceClient(options);
    return toUserGroup((await client.userGroups.get(args.id)) as unknown as ApiRecord);
  });
}

/** {@link getUserGroup} taking Inputs and returning an Output. */
export const getUserGroupOutput = liftToOutput(getUserGroup);
