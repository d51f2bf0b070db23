/** User groups. `user_ids` matches active members. */
import { notFound } from "../api-error";
import { matches, sortItems } from "../state/list-query";
import { listResult } from "./list-result";
import type { Handlers } from "./types";

export const userGroupHandlers: Pick<Handlers, "listUserGroups" | "getUserGroup"> = {
  listUserGroups(ctx) {
    const { store, views } = ctx.emulator;
    const q = ctx.query;
    const search = q.search?.toLowerCase();
    const withUsers = q.user_ids
      ? new Set(
          store.memberships
            .filter((m) => m.state !== "pending_addition" && q.user_ids!.includes(m.user_id))
            .map((m) => m.group_id),
        )
      : undefined;
    const filtered = [...store.userGroups.values()].filter(
      (g) =>
        matches(q.states, g.state) &&
        matches(q.user_group_ids, g.id) &&
        (!withUsers || withUsers.has(g.id)) &&
        matches(q.modified_by, g.modified_by) &&
        (q.name === undefined || g.name === q.name) &&
        (!search || g.name.toLowerCase().includes(search)) &&
        !q.exclude_user_group_ids?.includes(g.id),
    );
    const sorted = sortItems(filtered, q.sort_by, {
      created_at: (g) => g.created_at,
      modified_at: (g) => g.modified_at,
      name: (g) => g.name,
      users_count: (g) => views.memberCounts(g.id).users,
    });
    return listResult("user_groups", sorted, q, (g) => views.userGroup(g));
  },

  getUserGroup(ctx) {
    const group = ctx.emulator.store.userGroups.get(ctx.params.id);
    if (!group) throw notFound("user_group", ctx.params.id);
    return { status: 200, body: ctx.emulator.views.userGroup(group) };
  },
};
