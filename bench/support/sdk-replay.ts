/**
 * Floor (a) of figure 1: the API calls the provider made, made directly with the sdk at the engine's
 * concurrency. The calls come from the emulator's request log of our own run ({@link RequestMix}): the same
 * endpoints, the same number of each, with the same query parameters (identifying values such as a vault name
 * or id swapped for the replayed resource's own).
 */
import type { CustodyClient } from "@pulumi-custody/sdk";
import { type EndpointName, endpoints } from "@pulumi-custody/sdk/schema";
import {
  callsForOperation,
  endpointOf,
  type LoggedRequest,
  type OperationKind,
  type RequestMix,
} from "./request-mix";
import { runPool, type Task } from "./task-pool";

/** One vault and its address, as the replay creates and then reads them. */
export interface ReplayResource {
  /** Position, 0-based. */
  index: number;
  /** Vault name, as the fixture program names it. */
  vaultName: string;
  /** Address name, as the fixture program names it. */
  addressName: string;
  /** Set once the vault exists. */
  vaultId?: string;
  /** Set once the address exists. */
  addressId?: string;
  /** The address string, set once the address exists. */
  address?: string;
}

/** The replay's resources, named as `bench/fixtures/custody-vaults` names them. */
export function replayResources(count: number): ReplayResource[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    vaultName: `bench-vault-${index}`,
    addressName: `bench-address-${index}`,
  }));
}

/** What to replay. */
export interface ReplayPlan {
  /** The provider's requests for the operation, from the emulator's log. */
  mix: RequestMix;
  /** The logged requests themselves, for the query parameters of each endpoint. */
  log: readonly LoggedRequest[];
  /** `up`: each address after its vault (it needs the vault id). `refresh`: all independent. */
  shape: "up" | "refresh";
  /** Resource operations in flight at once (the engine's `--parallel`). */
  concurrency: number;
  /** UTXO chain of the vaults created. */
  chain: string;
}

/**
 * Replays `plan` on `resources` with `client`. Calls outside vaults and addresses (one-off lookups) run first,
 * once each as logged; then every resource operation runs its share of each endpoint's calls, in the order the
 * provider first made them, with at most `plan.concurrency` operations in flight.
 */
export async function replayRequests(
  client: CustodyClient,
  resources: ReplayResource[],
  plan: ReplayPlan,
): Promise<void> {
  const queries = firstQueries(plan.log);
  const call = (endpoint: EndpointName, r: ReplayResource) =>
    callOnce(client, endpoint, r, queries, plan.chain);
  for (const { endpoint, total } of plan.mix.other) {
    for (let i = 0; i < total; i++) await call(endpoint, resources[0]!);
  }
  const operation =
    (kind: OperationKind, r: ReplayResource): (() => Promise<void>) =>
    async () => {
      for (const { endpoint, total } of plan.mix.perKind[kind]) {
        const calls = callsForOperation(total, r.index, resources.length);
        for (let i = 0; i < calls; i++) await call(endpoint, r);
      }
    };
  const addressTask =
    (r: ReplayResource): Task =>
    async () => {
      await operation("address", r)();
      return undefined;
    };
  const tasks: Task[] =
    plan.shape === "up"
      ? resources.map((r) => async () => {
          await operation("vault", r)();
          return [addressTask(r)];
        })
      : resources.flatMap((r) => [
          async () => {
            await operation("vault", r)();
            return undefined;
          },
          addressTask(r),
        ]);
  await runPool(plan.concurrency, tasks);
}

/** The query parameters of the first logged request of each endpoint. */
function firstQueries(log: readonly LoggedRequest[]): Map<EndpointName, URLSearchParams> {
  const queries = new Map<EndpointName, URLSearchParams>();
  for (const entry of log) {
    const [path, search = ""] = entry.path.split("?", 2);
    const endpoint = endpointOf(entry.method, path!);
    if (endpoint && !queries.has(endpoint)) queries.set(endpoint, new URLSearchParams(search));
  }
  return queries;
}

/** Query parameters that identify the resource: replaced with the replayed resource's own value. */
function identifying(key: string, r: ReplayResource): string[] | undefined {
  switch (key) {
    case "names":
      return [r.vaultName];
    case "vault_ids":
      return r.vaultId ? [r.vaultId] : undefined;
    case "search":
      return [r.addressName];
    case "addresses":
      return r.address ? [r.address] : undefined;
    default:
      return undefined;
  }
}

function queryFor(
  template: URLSearchParams | undefined,
  r: ReplayResource,
): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (!template) return query;
  for (const key of new Set(template.keys())) {
    const values = identifying(key, r) ?? template.getAll(key);
    // A lone value goes as a scalar: the query schemas take `"100"` for `size`, but not `["100"]`.
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

async function callOnce(
  client: CustodyClient,
  endpoint: EndpointName,
  r: ReplayResource,
  queries: Map<EndpointName, URLSearchParams>,
  chain: string,
): Promise<void> {
  const spec = endpoints[endpoint];
  const args: { pathParams?: Record<string, string>; query?: object; body?: unknown } = {};
  if (spec.path.includes("{id}")) {
    const id = endpoint === "renameVaultAddress" ? r.addressId : r.vaultId;
    if (!id) throw new Error(`replay: ${endpoint} for ${r.vaultName} before its id is known`);
    args.pathParams = { id };
  }
  if ("query" in spec) args.query = queryFor(queries.get(endpoint), r);
  switch (endpoint) {
    case "createVault": {
      const vault = (await client.request(endpoint, {
        body: { name: r.vaultName, type: "utxo", chain },
      })) as { id: string };
      r.vaultId = vault.id;
      return;
    }
    case "createVaultAddress": {
      const address = (await client.request(endpoint, { ...args, body: { name: r.addressName } })) as {
        id: string;
        address: { address: string };
      };
      r.addressId = address.id;
      r.address = address.address.address;
      return;
    }
    case "renameVault":
      await client.request(endpoint, { ...args, body: { name: r.vaultName } });
      return;
    case "renameVaultAddress":
      await client.request(endpoint, { ...args, body: { name: r.addressName } });
      return;
    default:
      if ("body" in spec) throw new Error(`replay: no body known for ${endpoint}; add it to sdk-replay.ts`);
      await client.request(endpoint, args);
  }
}
