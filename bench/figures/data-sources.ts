/**
 * Figure 2: the data sources `getUsers` over 10,000 users and `getVaults` over 5,000 vaults, against the
 * minimum number of requests and against a hand-written minimal undici paging loop.
 */

import { MAX_PAGE_SIZE, MAX_USERS_PAGE_SIZE } from "@pulumi-custody/sdk/schema";
import { getUsers, getVaults } from "pulumi-custody";
import { Agent } from "undici";
import { startEmulatorProcess } from "../support/emulator-process";
import type { Figure, FigureContext, FigureOutcome } from "../support/figure";
import { formatMs } from "../support/format";
import { fetchAllPages } from "../support/hand-pager";
import { type Comparison, compare } from "../support/results";
import { sampleInterleavedMs } from "../support/sample";
import { exact } from "../support/stats";

const LATENCY_MS = 50;

interface Case {
  label: string;
  /** The data source under test, fetching everything. */
  call: (options: { baseUrl: string; accessToken: string }) => Promise<unknown[]>;
  /** The same selection as a query string, for the hand loop. */
  query: string;
  path: string;
  itemsKey: string;
  /** The endpoint's largest `size`. */
  maxSize: number;
}

const CASES: Case[] = [
  {
    label: "getUsers",
    // Deleted users too: the generated set includes some, and "over 10,000 users" means all of them.
    call: (options) => getUsers({ includeDeleted: true }, options),
    query: "include_deleted=true",
    path: "/api/v1/users",
    itemsKey: "users",
    maxSize: MAX_USERS_PAGE_SIZE,
  },
  {
    label: "getVaults",
    call: (options) => getVaults({}, options),
    query: "",
    path: "/api/v1/vaults",
    itemsKey: "vaults",
    maxSize: MAX_PAGE_SIZE,
  },
];

/** Figure 2 (`--only data-sources`). */
export const dataSourcesFigure: Figure = {
  id: "data-sources",
  number: 2,
  title: "Data sources: getUsers over 10,000 users, getVaults over 5,000 vaults",
  method: [
    `The emulator runs as its own process with ${LATENCY_MS} ms of latency per request and its rate limit off; ` +
      "its control API adds 10,000 generated users and 5,000 generated vaults to the default seed. The data " +
      "sources are the package's own `getUsers({ includeDeleted: true })` and `getVaults({})` (everything), called in the " +
      "harness process as a program would call them, with `CUSTODY_REQUESTS_PER_MINUTE=0` (no client-side " +
      "throttling).",
    "**Requests** are counted from the emulator's request log, against the minimum ceil(N ÷ largest page size): " +
      `the largest \`size\` is ${MAX_USERS_PAGE_SIZE} for users and ${MAX_PAGE_SIZE} for vaults (see ` +
      "[`docs/api-notes.md`](docs/api-notes.md#paging)), N is " +
      "the number of items returned. **Time** is compared with a hand-written minimal loop on raw undici: one " +
      "page after the other with the largest size, `body.json()`, no validation, no mapping. Calls alternate " +
      "(data source, loop, data source, ...) after one untimed warm-up each; medians are reported.",
  ],
  analysis: [
    "Both data sources page through `listAll` of the sdk, which asks for the largest page size the endpoint allows " +
      "(400 for users, 100 for the other lists; see [`docs/api-notes.md`](docs/api-notes.md#paging)), so " +
      "the request count is the minimum. Once the first " +
      "page reports `total`, the sdk fetches the remaining pages four at a time (`listConcurrency`, default 4) and " +
      "still yields items in order; with 50 ms per request that overlaps the round trips the hand loop makes one " +
      "after the other, which is why the data sources take a fraction of the loop's time despite validating every " +
      "item with zod and mapping it to camelCase. With the client's default rate limit (180 requests per minute, " +
      "burst 20) the same calls would be throttled once the burst is spent; these figures turn it off, as the " +
      "engine figure does.",
  ],
  run,
};

async function run(context: FigureContext): Promise<FigureOutcome> {
  const samples = context.quick ? 2 : 5;
  const users = 10_000;
  const vaults = 5_000;
  const emulator = await startEmulatorProcess({ latencyMs: LATENCY_MS });
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const previousRpm = process.env.CUSTODY_REQUESTS_PER_MINUTE;
  process.env.CUSTODY_REQUESTS_PER_MINUTE = "0";
  try {
    const seeded = await emulator.control.seedLargeDataSet({ users, vaults });
    context.log(`seeded ${seeded.users} users and ${seeded.vaults} vaults`);
    const origin = new URL(emulator.baseUrl).origin;
    const options = { baseUrl: emulator.baseUrl, accessToken: emulator.accessToken };
    const comparisons: Comparison[] = [];
    const notes: string[] = [];

    for (const c of CASES) {
      const loop = () =>
        fetchAllPages({
          url: `${origin}${c.path}`,
          query: c.query,
          accessToken: emulator.accessToken,
          itemsKey: c.itemsKey,
          size: c.maxSize,
          dispatcher: agent,
        });

      // Request count: one call with an empty log.
      await emulator.control.clearRequests();
      const items = await c.call(options);
      const log = (await emulator.control.listRequests()).filter((r) => r.path === c.path);
      const reference = await loop();
      if (items.length !== reference.items) {
        throw new Error(`${c.label} returned ${items.length} items, the hand loop ${reference.items}`);
      }
      const minimum = Math.ceil(items.length / c.maxSize);
      const sizes = [
        ...new Set(log.map((r) => new URL(r.url, origin).searchParams.get("size") ?? "(default)")),
      ];
      context.log(
        `${c.label}: ${items.length} items in ${log.length} requests (minimum ${minimum}), sizes ${sizes}`,
      );
      comparisons.push(
        compare(
          `${c.label}: requests for ${items.length.toLocaleString("en-US")} items`,
          "requests",
          exact(log.length),
          [
            {
              name: "minimum",
              value: exact(minimum),
              description: "ceil(N ÷ the endpoint's largest page size), N being the items returned.",
            },
          ],
          { kind: "max", value: 1 },
        ),
      );
      notes.push(
        `${c.label} sent ${log.length} requests for ${items.length} items with \`size\` ${sizes.join(", ")}` +
          ` (minimum ${minimum}); the hand loop sent ${reference.requests}.`,
      );

      // Time.
      context.log(`${c.label}: timing ${samples} samples against the hand loop`);
      const stats = await sampleInterleavedMs(
        { warmup: 1, samples },
        { ours: { run: () => c.call(options) }, loop: { run: loop } },
      );
      context.log(`  ${c.label} ${formatMs(stats.ours.median)} vs loop ${formatMs(stats.loop.median)}`);
      comparisons.push(
        compare(
          `${c.label}: time for ${items.length.toLocaleString("en-US")} items`,
          "ms",
          stats.ours,
          [
            {
              name: "hand loop",
              value: stats.loop,
              description:
                "Raw undici, sequential pages of the largest size, `body.json()`, no validation or mapping.",
            },
          ],
          { kind: "max", value: 1.1 },
        ),
      );
    }
    return {
      settings: { users, vaults, latencyMs: LATENCY_MS, samples, requestsPerMinute: 0 },
      comparisons,
      notes,
    };
  } finally {
    if (previousRpm === undefined) delete process.env.CUSTODY_REQUESTS_PER_MINUTE;
    else process.env.CUSTODY_REQUESTS_PER_MINUTE = previousRpm;
    await agent.close();
    await emulator.close();
  }
}
