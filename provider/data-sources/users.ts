/** Data sources `getUsers`, `getUser`, `getUserGroups` and `getUserGroup`. */

import {
  isModelledUser,
  ListUserGroupsQuery,
  ListUsersQuery,
  type UserGroup as UserGroupRecord,
  type UserGroupRef,
  type User as UserRecord,
} from "@pulumi-custody/sdk";
import { z } from "zod";
import { field, type Projected, project, withoutUndefined } from "../core/field-tables";
import { type DataSourceEntry, getDataSource, listDataSource } from "./define";

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

/** The shape of a {@link UserGroupMembership}. */
const userGroupMembership = z.object({
  /** UserInfo group id. */
  id: z.string(),
  /** UserInfo group name. */
  name: z.string(),
});

/** A user group as embedded in a user. */
export interface UserGroupMembership extends z.output<typeof userGroupMembership> {}

/** The shape of a user's IP allow-list settings. */
const allowedIpSettings = z.object({
  /** `allow_all` or `ip_list`. */
  allowType: z.string(),
  /** The allowed addresses when `allowType` is `ip_list`. */
  ipList: z.array(z.string()).optional(),
});

function person(user: UserRecord) {
  return isModelledUser(user) && user.user_type === "person" ? user : undefined;
}
function apiUser(user: UserRecord) {
  return isModelledUser(user) && user.user_type === "api_user" ? user : undefined;
}
/** Persons and API users: the kinds with a role and group memberships. */
function member(user: UserRecord) {
  return person(user) ?? apiUser(user);
}

function memberships(groups: UserGroupRef[] | undefined): UserGroupMembership[] {
  return (groups ?? []).map((group) => ({ id: group.id, name: group.name }));
}

/** What the user data sources show, read from the sdk's record; a kind not modelled shows the shared fields. */
const userFields = {
  /** UserInfo id. */
  id: field(z.string(), (user: UserRecord) => user.id),
  /** `person`, `api_user`, `api_signer` or `system`. */
  userType: field(z.string(), (user: UserRecord) => user.user_type),
  /** Display name (optional for persons). */
  name: field(z.string().optional(), (user: UserRecord) => user.name),
  /** Email (persons). */
  email: field(z.string().optional(), (user: UserRecord) => person(user)?.email),
  /** Lifecycle state. */
  state: field(z.string(), (user: UserRecord) => user.state),
  /** Role (persons and API users): `admin`, `trader` or `viewer`. */
  role: field(z.string().optional(), (user: UserRecord) => member(user)?.role),
  /** Creation time (ISO-8601). */
  createdAt: field(z.string(), (user: UserRecord) => user.created_at),
  /** Last modification time (ISO-8601). */
  modifiedAt: field(z.string(), (user: UserRecord) => user.modified_at),
  /** Groups the user is an active member of. */
  userGroups: field(z.array(userGroupMembership), (user: UserRecord) =>
    memberships(member(user)?.user_groups),
  ),
  /** Groups the user is pending addition to. */
  pendingAdditionToUserGroups: field(z.array(userGroupMembership), (user: UserRecord) =>
    memberships(member(user)?.pending_addition_to_user_groups),
  ),
  /** Groups the user is pending removal from. */
  pendingRemovalFromUserGroups: field(z.array(userGroupMembership), (user: UserRecord) =>
    memberships(member(user)?.pending_removal_from_user_groups),
  ),
  /** Last activity (API users). */
  lastActiveAt: field(z.string().optional(), (user: UserRecord) => apiUser(user)?.last_active_at),
  /** Last keep-alive (API signers). */
  lastKeepAliveAt: field(z.string().optional(), (user: UserRecord) =>
    isModelledUser(user) && user.user_type === "api_signer" ? user.last_keep_alive_at : undefined,
  ),
  /** IP allow-list settings (API users): `allow_all`, or `ip_list` with its addresses. */
  allowedIpSettings: field(allowedIpSettings.optional(), (user: UserRecord) => {
    const ip = apiUser(user)?.allowed_ip_settings;
    return ip ? withoutUndefined({ allowType: ip.allow_type, ipList: ip.ip_list }) : undefined;
  }),
};

/** A user of the organization. */
export interface UserInfo extends Projected<typeof userFields> {}

/** Maps one API user record to a {@link UserInfo}. */
function toUser(user: UserRecord): UserInfo {
  return project(userFields, user);
}

const users = listDataSource<GetUsersArgs, typeof ListUsersQuery>(ListUsersQuery)({
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
  fields: userFields,
  list: (client, { query }) => client.users.listAll(query),
  map: toUser,
});

/** Lists the organization's users (every page; up to 400 per request). @function */
export const getUsers = users.run;

/** {@link getUsers} taking Inputs and returning an Output. */
export const getUsersOutput = users.output;

/** Arguments of {@link getUser}. */
export interface GetUserArgs {
  /** UserInfo id. */
  id: string;
}

const user = getDataSource<GetUserArgs>()({
  name: "getUser",
  callArgs: ({ id }: GetUserArgs) => ({ id }),
  callArgTypes: { id: z.string().describe("User id.") },
  fields: userFields,
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

/** The shape of a {@link UserGroupProposedChange}. */
const userGroupProposedChange = z.object({
  /** Change request id. */
  id: z.string(),
  /** When it was proposed (ISO-8601). */
  createdAt: z.string(),
  /** New name, when the change renames the group. */
  newName: z.string().optional(),
  /** Users the change adds. */
  addedUserIds: z.array(z.string()),
  /** Users the change removes. */
  removedUserIds: z.array(z.string()),
});

/** A change to a user group waiting for approval. */
export interface UserGroupProposedChange extends z.output<typeof userGroupProposedChange> {}

/** What the user-group data sources show, read from the sdk's record. */
const userGroupFields = {
  /** UserInfo group id. */
  id: field(z.string(), (group: UserGroupRecord) => group.id),
  /** Name. */
  name: field(z.string(), (group: UserGroupRecord) => group.name),
  /** `active` or `deleted`. */
  state: field(z.string(), (group: UserGroupRecord) => group.state),
  /** Number of members. */
  usersCount: field(z.number(), (group: UserGroupRecord) => group.users_count),
  /** Number of admins among them. */
  adminsCount: field(z.number(), (group: UserGroupRecord) => group.admins_count),
  /** Creation time (ISO-8601). */
  createdAt: field(z.string(), (group: UserGroupRecord) => group.created_at),
  /** Last modification time (ISO-8601). */
  modifiedAt: field(z.string(), (group: UserGroupRecord) => group.modified_at),
  /** Who modified it last. */
  modifiedById: field(z.string().optional(), (group: UserGroupRecord) => group.modified_by?.id),
  /** A pending change, if any. */
  proposedChange: field(userGroupProposedChange.optional(), (group: UserGroupRecord) => {
    const change = group.proposed_change;
    if (!change) return undefined;
    return withoutUndefined({
      id: change.id,
      createdAt: change.created_at,
      newName: change.new_name,
      addedUserIds: (change.added_users ?? []).map((u) => u.id),
      removedUserIds: (change.removed_users ?? []).map((u) => u.id),
    });
  }),
};

/** A user group. */
export interface UserGroupInfo extends Projected<typeof userGroupFields> {}

/** Maps one API user-group record to a {@link UserGroupInfo}. */
function toUserGroup(group: UserGroupRecord): UserGroupInfo {
  return project(userGroupFields, group);
}

const userGroups = listDataSource<GetUserGroupsArgs, typeof ListUserGroupsQuery>(ListUserGroupsQuery)({
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
  fields: userGroupFields,
  list: (client, { query }) => client.userGroups.listAll(query),
  map: toUserGroup,
});

/** Lists the user groups (every page). @function */
export const getUserGroups = userGroups.run;

/** {@link getUserGroups} taking Inputs and returning an Output. */
export const getUserGroupsOutput = userGroups.output;

/** Arguments of {@link getUserGroup}. */
export interface GetUserGroupArgs {
  /** UserInfo group id. */
  id: string;
}

const userGroup = getDataSource<GetUserGroupArgs>()({
  name: "getUserGroup",
  callArgs: ({ id }: GetUserGroupArgs) => ({ id }),
  callArgTypes: { id: z.string().describe("User group id.") },
  fields: userGroupFields,
  query: {},
  get: (client, { id }) => client.userGroups.get(id),
  map: toUserGroup,
});

/** Reads one user group by id. @function */
export const getUserGroup = userGroup.run;

/** {@link getUserGroup} taking Inputs and returning an Output. */
export const getUserGroupOutput = userGroup.output;

/** The data sources of this module, for the registry (`./index.ts`). */
export const userDataSources: readonly DataSourceEntry[] = [users, user, userGroups, userGroup];
