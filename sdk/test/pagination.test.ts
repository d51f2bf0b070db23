/** `listAll`: largest page size, bounded parallel paging, items in order, early stop, and errors mid-way. */
import { strict as assert } from "node:assert";
import { type LoopbackServer, type RecordedRequest, startLoopbackServer } from "@pulumi-custody/testing";
import { CustodyNotFoundError } from "../index";
import { paginate } from "../pagination";
import { IDS, ownedAsset, personUser, testClient, userGroup } from "./helpers";

/** A person user whose id encodes its position, so order can be checked. */
function userAt(i: number) {
  return {
    ...personUser,
    id: `00000000-0000-4000-8000-${i.toString().padStart(12, "0")}`,
    name: `user ${i}`,
  };
}

/** Serves a list of `total` items from the request's `page` and `size`, like the service does. */
function listHandler(key: string, total: () => number, item: (i: number) => unknown, delayMs = 0) {
  return (req: RecordedRequest) => {
    const pageNo = Number(req.query.page?.[0] ?? 1);
    const size = Number(req.query.size?.[0] ?? 50);
    const start = (pageNo - 1) * size;
    const items = [];
    for (let i = start; i < Math.min(start + size, total()); i++) items.push(item(i));
    return { delayMs, body: { total: total(), page: pageNo, size, [key]: items } };
  };
}

describe("sdk listAll", () => {
  let server: LoopbackServer;
  beforeEach(async () => {
    server = await startLoopbackServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("walks 2,500 users in exactly 7 requests of 400, yielding every user once, in order", async () => {
    server.setHandler(listHandler("users", () => 2500, userAt));
    const { client } = testClient(server);
    const ids: string[] = [];
    for await (const user of client.users.listAll({ roles: ["admin", "trader"] })) ids.push(user.id);
    assert.equal(ids.length, 2500);
    assert.deepEqual(
      ids,
      Array.from({ length: 2500 }, (_, i) => userAt(i).id),
    );
    assert.equal(server.requests.length, 7);
    const pages = server.requests.map((r) => Number(r.query.page[0])).sort((a, b) => a - b);
    assert.deepEqual(pages, [1, 2, 3, 4, 5, 6, 7]);
    for (const req of server.requests) {
      assert.deepEqual(req.query.size, ["400"], "the largest size /users allows");
      assert.deepEqual(req.query.roles, ["admin", "trader"], "filters on every page, as repeated keys");
      assert.equal(req.query.skip_count, undefined);
    }
    await client.close();
  });

  it("fetches pages after the first in parallel, never more than the concurrency at once", async () => {
    server.setHandler(
      listHandler(
        "user_groups",
        () => 1000,
        (i) => ({ ...userGroup, name: `g${i}` }),
        25,
      ),
    );
    const { client } = testClient(server);
    let count = 0;
    for await (const _ of client.userGroups.listAll()) count++;
    assert.equal(count, 1000);
    assert.equal(server.requests.length, 10, "100 per page");
    assert.ok(server.maxInFlight() <= 4, `at most 4 in flight (saw ${server.maxInFlight()})`);
    assert.ok(server.maxInFlight() >= 2, `pages overlapped (saw ${server.maxInFlight()})`);
    await client.close();
  });

  it("concurrency: 1 pages strictly one after another", async () => {
    server.setHandler(
      listHandler(
        "user_groups",
        () => 450,
        (i) => ({ ...userGroup, name: `g${i}` }),
        5,
      ),
    );
    const { client } = testClient(server);
    let count = 0;
    for await (const _ of client.userGroups.listAll({}, { concurrency: 1 })) count++;
    assert.equal(count, 450);
    assert.equal(server.maxInFlight(), 1);
    const pages = server.requests.map((r) => Number(r.query.page[0]));
    assert.deepEqual(pages, [1, 2, 3, 4, 5]);
    await client.close();
  });

  it("overrides page, size and skip_count from the caller, and keeps path ids", async () => {
    server.setHandler(
      listHandler(
        "owned_assets",
        () => 230,
        () => ownedAsset,
      ),
    );
    const { client } = testClient(server);
    const query = { chains: ["evm_1", "evm_10"], page: 9, size: 3, skip_count: true } as never;
    let count = 0;
    for await (const _ of client.vaults.assets.listAll(IDS.vault, query)) count++;
    assert.equal(count, 230);
    assert.equal(server.requests.length, 3);
    for (const req of server.requests) {
      assert.equal(req.path, `/api/v1/vaults/${IDS.vault}/assets`);
      assert.deepEqual(req.query.size, ["100"]);
      assert.deepEqual(req.query.chains, ["evm_1", "evm_10"]);
      assert.equal(req.query.skip_count, undefined);
    }
    await client.close();
  });

  it("an empty list costs one request", async () => {
    server.setHandler(
      listHandler(
        "vaults",
        () => 0,
        () => ({}),
      ),
    );
    const { client } = testClient(server);
    const all = [];
    for await (const v of client.vaults.listAll()) all.push(v);
    assert.deepEqual(all, []);
    assert.equal(server.requests.length, 1);
    await client.close();
  });

  it("stopping early cancels the rest and leaves nothing unhandled", async () => {
    server.setHandler(listHandler("users", () => 4000, userAt, 10));
    const { client } = testClient(server);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      let seen = 0;
      for await (const _ of client.users.listAll()) {
        if (++seen === 450) break;
      }
      assert.equal(seen, 450);
      await new Promise((r) => setTimeout(r, 50));
      assert.ok(
        server.requests.length <= 1 + 4 + 1,
        `no page beyond the window was requested (${server.requests.length})`,
      );
      assert.deepEqual(unhandled, []);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    await client.close();
  });

  it("an error on a later page surfaces after the earlier pages' items", async () => {
    const inner = listHandler("users", () => 1000, userAt);
    server.setHandler((req) =>
      req.query.page[0] === "2"
        ? { status: 404, body: { title: "Not found", detail: "gone", resource: "user" } }
        : inner(req),
    );
    const { client } = testClient(server);
    const got: string[] = [];
    const err = await (async () => {
      for await (const u of client.users.listAll()) got.push(u.id);
    })().catch((e: unknown) => e);
    assert.ok(err instanceof CustodyNotFoundError);
    assert.equal(got.length, 400, "page 1 was yielded before the failure");
    await client.close();
  });

  it("follows a total that grows while paging, and stops at the first short page", async () => {
    let total = 150;
    const pages: number[] = [];
    const items = paginate<number>(async (page, size) => {
      pages.push(page);
      if (page === 2) total = 320;
      const start = (page - 1) * size;
      const n = Math.max(0, Math.min(size, total - start));
      return { total, items: Array.from({ length: n }, (_, i) => start + i) };
    }, 100);
    const out: number[] = [];
    for await (const n of items) out.push(n);
    assert.deepEqual(
      out,
      Array.from({ length: 320 }, (_, i) => i),
    );
    assert.deepEqual(pages, [1, 2, 3, 4]);
  });
});
