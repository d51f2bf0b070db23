/**
 * Users (docs/api-notes.md, "Users and groups"). Deleted users are left out unless `include_deleted=true`,
 * even when `states` asks for `deleted`. `group_ids` matches members in any membership state
 * unless `states_on_groups` narrows it; `group_ids__not` excludes members in those same states.
 */
import { notFound } from "../api-error";
import { inDefaultOrder, matches, sortItems } from "../state/list-query";
import { listResult } from "./list-result";
import type { Handlers } from "./types";

const ALL_MEMBERSHIP_STATES = ["active", "pending_addition", "pending_removal"] as const;

export const userHandlers: Pick<Handlers, "listUsers" | "getUser"> = {
  listUsers(ctx) {
    const { store, views } = ctx.emulator;
    const q = ctx.query;
    const membershipStates = q.states_on_groups ?? ALL_MEMBERSHIP_STATES;
    const filtered = inDefaultOrder(store.users).filter((u) => {
      if (u.state === "deleted" && q.include_deleted !== true) return false;
      if (!matches(q.types, u.user_type) || !matches(q.states, u.state as never)) return false;
      if (q.roles && (!u.role || !q.roles.includes(u.role))) return false;
      if (q.names && (!u.name || !q.names.includes(u.name))) return false;
      if (q.emails && (!u.email || !q.emails.map((e) => e.toLowerCase()).includes(u.email.toLowerCase())))
        return false;
      if (!matches(q.user_ids, u.id) || q.exclude_user_ids?.includes(u.id)) return false;
      // End users (the only users with external ids) are not part of /users.
      if (q.external_ids) return false;
      if (q.group_ids || q.group_ids__not) {
        const groups = views.groupIdsOfUser(u.id, membershipStates);
        if (q.group_ids && !groups.some((g) => q.group_ids!.includes(g))) return false;
        if (q.group_ids__not && groups.some((g) => q.group_ids__not!.includes(g))) return false;
      }
      return true;
    });
    const sorted = !q.sort_by
      ? filtered
      : sortItems(filtered, q.sort_by, {
          role: (u) => u.role,
          email: (u) => u.email,
          created: (u) => u.created_at,
          name: (u) => u.name,
          last_keep_alive: (u) => u.last_keep_alive_at,
          state: (u) => u.state,
          type: (u) => u.user_type,
        });
    return listResult("users", sorted, q, (u) => views.user(u));
  },

  getUser(ctx) {
    const user = ctx.emulator.store.users.get(ctx.params.id);
    if (!user) throw notFound("user", ctx.params.id);
    return { status: 200, body: ctx.emulator.views.user(user) };
  },
};
