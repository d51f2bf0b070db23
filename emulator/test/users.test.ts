// Users and user groups through raw HTTP.
import assert from "node:assert/strict";
import {
  assertError,
  assertResponseShape,
  assertValidationIssue,
  type Harness,
  type Loose,
  startHarness,
} from "@pulumi-custody/testing";

const MISSING = "00000000-0000-4000-8000-000000000000";

describe("emulator: users and user groups", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const users = (query: Record<string, Loose> = {}) => h.api("GET", "/api/v1/users", { query });
  const groups = (query: Record<string, Loose> = {}) => h.api("GET", "/api/v1/user-groups", { query });
  const names = (res: { body: { users?: { name: string }[]; user_groups?: { name: string }[] } }) =>
    (res.body.users ?? res.body.user_groups)!.map((u) => u.name);

  it("seeds users of every type and every state, and hides deleted ones unless include_deleted", async () => {
    const visible = await users({ size: 400 });
    assertResponseShape("listUsers", visible.body);
    assert.ok(visible.body.users.every((u: Loose) => u.state !== "deleted"));
    const all = await users({ size: 400, include_deleted: true });
    assertResponseShape("listUsers", all.body);
    const deleted = all.body.users.filter((u: Loose) => u.state === "deleted");
    assert.ok(deleted.length >= 3);
    assert.equal(all.body.total, visible.body.total + deleted.length);
    const types = new Set(all.body.users.map((u: Loose) => u.user_type));
    assert.deepEqual([...types].sort(), ["api_signer", "api_user", "person", "system"]);
    const personStates = new Set(
      all.body.users.filter((u: Loose) => u.user_type === "person").map((u: Loose) => u.state),
    );
    for (const s of [
      "active",
      "onboarding_pending_code_generation",
      "onboarding_pending_activation",
      "reset_device_pending_code_generation",
      "reset_device_pending_activation",
      "pending_approval",
      "deleted",
    ]) {
      assert.ok(personStates.has(s), s);
    }
    const onlyDeletedWithout = await users({ states: "deleted" });
    assert.equal(onlyDeletedWithout.body.total, 0, "deleted users stay hidden without include_deleted");
    const onlyDeleted = await users({ states: "deleted", include_deleted: true });
    assert.equal(onlyDeleted.body.total, deleted.length);
  });

  it("allows size up to 400 on /users (422 above) and 100 on /user-groups", async () => {
    assert.equal((await users({ size: 400 })).status, 200);
    assertValidationIssue(await users({ size: 401 }), ["query", "size"], "less_than_equal");
    assertValidationIssue(await groups({ size: 101 }), ["query", "size"], "less_than_equal");
    // The published schema sets no lower bound for /users' page (it does for /user-groups); before page 1
    // there is nothing.
    const zero = await users({ page: 0 });
    assert.equal(zero.status, 200);
    assert.deepEqual(zero.body.users, []);
    assert.equal((await users({ page: -3 })).body.users.length, 0);
    assertValidationIssue(await groups({ page: 0 }), ["query", "page"]);
    const two = await users({ size: 2, page: 2, skip_count: true });
    assert.equal(two.body.users.length, 2);
    assert.equal(two.body.total, 4);
  });

  it("filters by types, roles, names, emails, user_ids, exclude_user_ids and external_ids", async () => {
    assert.ok(
      (await users({ types: "api_signer" })).body.users.every((u: Loose) => u.user_type === "api_signer"),
    );
    const admins = await users({ roles: "admin", include_deleted: true });
    assert.deepEqual(names(admins).sort(), ["Alice Admin", "Grace Security"]);
    const byName = await users({ names: ["Bob Trader", "Carol Viewer"] });
    assert.deepEqual(names(byName).sort(), ["Bob Trader", "Carol Viewer"]);
    const byEmail = await users({ emails: "ALICE@example.com" });
    assert.deepEqual(names(byEmail), ["Alice Admin"]);
    const alice = byEmail.body.users[0];
    assert.deepEqual(names(await users({ user_ids: alice.id })), ["Alice Admin"]);
    const without = await users({ exclude_user_ids: alice.id, size: 400 });
    assert.ok(!names(without).includes("Alice Admin"));
    assert.equal((await users({ external_ids: "anything" })).body.total, 0);
    assertValidationIssue(await users({ types: "robot" }), ["query", "types", 0], "enum");
    assertValidationIssue(await users({ user_ids: "x" }), ["query", "user_ids", 0]);
  });

  it("filters by group membership with states_on_groups and group_ids__not", async () => {
    const approvers = (await groups({ name: "Treasury Approvers" })).body.user_groups[0];
    const Loose = await users({ group_ids: approvers.id });
    assert.deepEqual(names(Loose).sort(), ["Alice Admin", "Bob Trader", "Carol Viewer", "Grace Security"]);
    const active = await users({ group_ids: approvers.id, states_on_groups: "active" });
    assert.deepEqual(names(active).sort(), ["Alice Admin", "Bob Trader"]);
    const pending = await users({
      group_ids: approvers.id,
      states_on_groups: ["pending_addition", "pending_removal"],
    });
    assert.deepEqual(names(pending).sort(), ["Carol Viewer", "Grace Security"]);
    const notIn = await users({ group_ids__not: approvers.id, size: 400 });
    assert.ok(!names(notIn).some((n: string) => ["Alice Admin", "Bob Trader"].includes(n)));
    const grace = (await users({ names: "Grace Security" })).body.users[0];
    assert.deepEqual(
      grace.pending_addition_to_user_groups.map((g: Loose) => g.name),
      ["Treasury Approvers"],
    );
    const carol = (await users({ names: "Carol Viewer" })).body.users[0];
    assert.deepEqual(
      carol.pending_removal_from_user_groups.map((g: Loose) => g.name),
      ["Treasury Approvers"],
    );
    assert.ok(carol.user_groups.some((g: Loose) => g.name === "Auditors"));
  });

  it("sorts users by every UserSortableFields value", async () => {
    const keys: Record<string, (u: Loose) => Loose> = {
      role: (u) => u.role,
      email: (u) => u.email?.toLowerCase(),
      created: (u) => u.created_at,
      name: (u) => u.name.toLowerCase(),
      last_keep_alive: (u) => u.last_keep_alive_at,
      state: (u) => u.state,
      type: (u) => u.user_type,
    };
    for (const [field, key] of Object.entries(keys)) {
      for (const dir of ["asc", "desc"]) {
        const res = await users({ sort_by: `${field}_${dir}`, size: 400, include_deleted: true });
        assert.equal(res.status, 200, `${field}_${dir}`);
        const values = res.body.users.map(key);
        const present = values.filter((v: unknown) => v !== undefined);
        const sorted = [...present].sort();
        assert.deepEqual(present, dir === "asc" ? sorted : sorted.reverse(), `${field}_${dir}`);
        // Missing values sort last ascending, first descending.
        const firstMissing = values.indexOf(undefined);
        if (firstMissing >= 0) {
          const missing = values.filter((v: unknown) => v === undefined).length;
          assert.equal(
            firstMissing,
            dir === "asc" ? values.length - missing : 0,
            `${field}_${dir} missing values`,
          );
        }
      }
    }
    assertValidationIssue(await users({ sort_by: "created_at_asc" }), ["query", "sort_by", 0], "enum");
  });

  it("gets a user (deleted ones too); 404 ResourceError user for an unknown id", async () => {
    const ivan = (await users({ names: "Ivan Former", include_deleted: true })).body.users[0];
    const res = await h.api("GET", `/api/v1/users/${ivan.id}`);
    assert.equal(res.status, 200);
    assertResponseShape("getUser", res.body);
    assert.equal(res.body.state, "deleted");
    assertError(await h.api("GET", `/api/v1/users/${MISSING}`), 404, { resource: "user" });
  });

  it("lists user groups with member counts, a deleted group and a proposed change", async () => {
    const res = await groups();
    assertResponseShape("listUserGroups", res.body);
    assert.equal(res.body.total, 4);
    const approvers = res.body.user_groups.find((g: Loose) => g.name === "Treasury Approvers");
    assert.equal(approvers.users_count, 3, "active and pending-removal members count");
    assert.equal(approvers.admins_count, 1);
    assert.deepEqual(
      approvers.proposed_change.added_users.map((u: Loose) => u.name),
      ["Grace Security"],
    );
    assert.deepEqual(
      approvers.proposed_change.removed_users.map((u: Loose) => u.name),
      ["Carol Viewer"],
    );
    assert.equal(approvers.modified_by.name, "Alice Admin");
    assert.deepEqual(names(await groups({ states: "deleted" })), ["Former Operations"]);
  });

  it("filters groups by ids, user_ids, modified_by, name, search, exclusions; sorts by every field", async () => {
    const all = (await groups()).body.user_groups;
    const alice = (await users({ names: "Alice Admin" })).body.users[0];
    const bob = (await users({ names: "Bob Trader" })).body.users[0];
    assert.deepEqual(names(await groups({ user_group_ids: all[1].id })), [all[1].name]);
    assert.deepEqual(names(await groups({ user_ids: bob.id })).sort(), [
      "Trading Desk",
      "Treasury Approvers",
    ]);
    assert.deepEqual(names(await groups({ modified_by: alice.id })).sort(), [
      "Auditors",
      "Treasury Approvers",
    ]);
    assert.deepEqual(names(await groups({ name: "Auditors" })), ["Auditors"]);
    assert.deepEqual(names(await groups({ name: "auditors" })), [], "name is exact");
    assert.deepEqual(names(await groups({ search: "TRAD" })), ["Trading Desk"]);
    assert.equal((await groups({ exclude_user_group_ids: all[0].id })).body.total, 3);
    assertValidationIssue(await groups({ name: "" }), ["query", "name"]);
    for (const [field, key] of Object.entries({
      created_at: (g: Loose) => g.created_at,
      modified_at: (g: Loose) => g.modified_at,
      name: (g: Loose) => g.name.toLowerCase(),
      users_count: (g: Loose) => g.users_count,
    })) {
      for (const dir of ["asc", "desc"]) {
        const values = (await groups({ sort_by: `${field}_${dir}` })).body.user_groups.map(key);
        const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        assert.deepEqual(values, dir === "asc" ? sorted : sorted.reverse(), `${field}_${dir}`);
      }
    }
  });

  it("gets a user group; 404 ResourceError user_group for an unknown id", async () => {
    const first = (await groups()).body.user_groups[0];
    const res = await h.api("GET", `/api/v1/user-groups/${first.id}`);
    assertResponseShape("getUserGroup", res.body);
    assert.deepEqual(res.body, first);
    assertError(await h.api("GET", `/api/v1/user-groups/${MISSING}`), 404, { resource: "user_group" });
  });
});
