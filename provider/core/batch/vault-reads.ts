/**
 * Vault reads and name lookups, batched: what users wait for at scale is the service's rate limit
 * (docs/api-notes.md, "Rate limits"), and `GET /vaults` answers up to a page of vaults per request where
 * `GET /vaults/{id}` answers one (docs/provider.md, "Speed at the rate limit").
 *
 * Per client and operation (./operation.ts), never shared between two clients:
 * - **Batches.** Reads by id and lookups by name that arrive close together are answered by list requests
 *   with `vault_ids` or `names` filters and every vault state, up to a page of ids per request (names are
 *   chunked by their encoded length, so a request line stays a few KiB). Each caller gets exactly its own
 *   answer: the vault with its id (none when the answer lacks it: a 404, as `GET /vaults/{id}` would say), or
 *   every vault with exactly its name. A batch answers only callers that were waiting when it was sent.
 * - **A snapshot of the account's vaults.** The engine reads at most `--parallel` resources at once, so batches
 *   alone answer a handful of reads per request. From the operation's first read or lookup on, the account's
 *   vaults are listed, a page of 100 per request, in the order of their creation (pages from both ends in
 *   turn), and the operation's reads and lookups are answered from that list. The pages it may fetch grow
 *   with the reads it serves (one more per {@link READS_PER_SNAPSHOT_PAGE}), so a small stack in a large
 *   account never pays for the whole account: what the pages fetched so far cannot answer goes in batches.
 *   A vault the snapshot lacks is read by id all the same.
 * - **Freshness.** Nothing read in an earlier operation is reused. A write this client sends to a vault
 *   (rename, archive, restore, proposal, address), seen through the client's request events, makes what was
 *   read of that vault before it unusable: the next read goes to the API. A lookup by name answers from the
 *   snapshot only while the snapshot is complete, no create of this operation failed, and every vault renamed
 *   meanwhile has been read again; reconciling lookups (after a create's outcome was lost or refused) ask
 *   the API afresh.
 */
import {
  type CustodyClient,
  endpoints,
  type RequestEvent,
  UUID_PATTERN,
  type Vault as VaultRecord,
} from "@pulumi-custody/sdk";
import { LONE_SURROGATE } from "../inputs/shown";
import { PerOperation } from "./operation";

/** Every vault state: batches and the snapshot see archived (and deleted) vaults too. */
export const ALL_VAULT_STATES = ["active", "pending", "archived", "deleted", "aborted"] as const;
/** The largest page of `GET /vaults` (`size` 0..100), and the most ids one batch asks for. */
export const VAULT_PAGE_SIZE: number = endpoints.listVaults.list.maxPageSize;
/** Reads and lookups of the operation per snapshot page it may fetch, beyond the first page. */
export const READS_PER_SNAPSHOT_PAGE = 4;
/** Snapshot pages in flight at once. */
const SNAPSHOT_PAGES_IN_FLIGHT = 4;
/** The longest `names=…&names=…` part of one lookup's query, in characters once percent-encoded. */
export const MAX_NAMES_QUERY_CHARS = 6000;
/** How long the first read after a quiet spell waits for others to join its batch, in ms. */
const GATHER_MS = 5;

interface Waiter<T> {
  resolve(value: T): void;
  reject(err: unknown): void;
}

interface NameWaiter extends Waiter<VaultRecord[]> {
  name: string;
  /** Whether the snapshot may answer it (else only a request sent after it started). */
  reuse: boolean;
}

interface IdWaiter extends Waiter<VaultRecord | undefined> {
  id: string;
}

/** What was read of one vault, and when the request that read it was sent (the client's sequence). */
interface Entry {
  vault: VaultRecord;
  seq: number;
}

type SnapshotState = "none" | "loading" | "complete" | "failed";

/** The batched reads of one client in one operation. */
export class VaultReads {
  readonly #client: CustodyClient;
  /** Orders requests sent and writes seen: data is usable for a vault only if read after its last write. */
  #clock = 0;
  readonly #entries = new Map<string, Entry>();
  readonly #idsByName = new Map<string, Set<string>>();
  /** Vault id → sequence of the last write to it this client sent. */
  readonly #written = new Map<string, number>();
  /** Vaults this client renamed: their names are unknown until read again. */
  readonly #renamed = new Set<string>();
  /**
   * A create failed or was refused, or took effect with an answer that could not be read: the snapshot may be
   * wrong about some name.
   */
  #createFailed = false;
  /** Reads and lookups of the operation that the snapshot may answer. */
  #demand = 0;

  #snapshotState: SnapshotState = "none";
  readonly #pagesRequested = new Set<number>();
  /** Pages are fetched from both ends of the list in turn: a refresh reads oldest first, a destroy newest. */
  #fromNewest = false;
  #lastPage: number | undefined;
  #pagesInFlight = 0;
  readonly #pagesAnswered = new Set<number>();
  readonly #snapshotIds = new Set<string>();
  #largestTotal = 0;
  /** Whether the pages held every vault they announced (nothing moved between pages while listing). */
  #snapshotWhole = false;

  #idWaiters: IdWaiter[] = [];
  #nameWaiters: NameWaiter[] = [];
  readonly #idQueue = new Map<string, IdWaiter[]>();
  readonly #nameQueue = new Map<string, NameWaiter[]>();
  #idBatchesInFlight = 0;
  #nameBatchesInFlight = 0;
  #pumpScheduled = false;

  /** Requests this batcher sent, by kind (tests and diagnostics). */
  readonly sent = { snapshotPages: 0, idBatches: 0, nameBatches: 0 };

  constructor(client: CustodyClient) {
    this.#client = client;
  }

  /** The vault with this id as the API has it (any state), or `undefined` when the API has none. */
  byId(id: string): Promise<VaultRecord | undefined> {
    // An id the API cannot take fails on its own, with the client's own error, never its batch.
    if (!UUID_PATTERN.test(id)) return this.#client.vaults.get(id);
    this.#demand += 1;
    return new Promise((resolve, reject) => {
      this.#idWaiters.push({ id, resolve, reject });
      this.#schedule();
    });
  }

  /**
   * Every vault with exactly this name, in any state. With `reuse`, the operation's snapshot may answer;
   * without, only a request sent after this call.
   */
  byName(name: string, options: { reuse: boolean }): Promise<VaultRecord[]> {
    if (LONE_SURROGATE.test(name)) return this.#listNamed([name]);
    if (options.reuse) this.#demand += 1;
    return new Promise((resolve, reject) => {
      this.#nameWaiters.push({ name, reuse: options.reuse, resolve, reject });
      this.#schedule();
    });
  }

  /** Keeps a vault this client just received from a write (the answer to a create): later reads may use it. */
  learn(vault: VaultRecord): void {
    this.#keep(vault, ++this.#clock);
  }

  /**
   * A create of this client took effect, but its answer broke the documented shape, so there is no record to
   * {@link learn}: lookups by name ask the API from now on.
   */
  createdUnread(): void {
    this.#createFailed = true;
  }

  /**
   * Sees one of the client's request events: a write to a vault makes what was read of it before unusable; a
   * rename makes its name unknown; a failed create makes lookups by name ask the API.
   */
  observe(event: RequestEvent): void {
    if (event.method === "GET") return;
    const match = /^\/api\/v1\/vaults(?:\/([^/]+))?(\/[^?]*)?$/.exec(event.path);
    if (!match) return;
    const seq = ++this.#clock;
    const [, id, rest] = match;
    if (id === undefined) {
      const succeeded = event.status !== undefined && event.status >= 200 && event.status < 300;
      if (!succeeded) this.#createFailed = true;
      return;
    }
    // `PUT /vaults/addresses/{id}/name` renames an address, not a vault.
    if (id === "addresses") return;
    const vaultId = decodeURIComponent(id);
    this.#written.set(vaultId, seq);
    if (rest === "/name") this.#renamed.add(vaultId);
  }

  /** The snapshot's state (tests and diagnostics). */
  snapshotState(): SnapshotState {
    return this.#snapshotState;
  }

  // ---- answering ----

  #schedule(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    const idle =
      this.#snapshotState === "none" &&
      this.#idBatchesInFlight === 0 &&
      this.#nameBatchesInFlight === 0 &&
      this.#pagesInFlight === 0;
    const run = () => {
      this.#pumpScheduled = false;
      this.#pump();
    };
    // After a quiet spell, give reads that arrive together (the engine starts several at once) a moment to.
    if (idle) setTimeout(run, GATHER_MS);
    else setImmediate(run);
  }

  #pump(): void {
    if (this.#snapshotState !== "none") {
      this.#idWaiters = this.#idWaiters.filter((w) => {
        const entry = this.#usable(w.id);
        if (!entry) return true;
        w.resolve(entry.vault);
        return false;
      });
      this.#nameWaiters = this.#nameWaiters.filter((w) => {
        const found = w.reuse ? this.#namedFromSnapshot(w.name) : undefined;
        if (!found) return true;
        w.resolve(found);
        return false;
      });
    }
    const reuseWaiting = this.#idWaiters.length > 0 || this.#nameWaiters.some((w) => w.reuse);
    if (this.#snapshotState === "none" && reuseWaiting) this.#snapshotState = "loading";
    this.#loadPages();
    const snapshotMayAnswer =
      this.#snapshotState === "loading" && (this.#pagesInFlight > 0 || this.#mayLoadPage());

    // What the snapshot cannot answer (now, or at all) goes in batches.
    if (!snapshotMayAnswer) {
      for (const w of this.#idWaiters) queue(this.#idQueue, w.id, w);
      this.#idWaiters = [];
    }
    this.#nameWaiters = this.#nameWaiters.filter((w) => {
      if (w.reuse && snapshotMayAnswer) return true;
      queue(this.#nameQueue, w.name, w);
      return false;
    });
    this.#sendIdBatches();
    this.#sendNameBatches();
  }

  /** What was read of this vault, if nothing this client wrote to it since. */
  #usable(id: string): Entry | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    const written = this.#written.get(id);
    return written === undefined || entry.seq > written ? entry : undefined;
  }

  /** The vaults with this name according to the snapshot, or `undefined` when the snapshot cannot say. */
  #namedFromSnapshot(name: string): VaultRecord[] | undefined {
    if (this.#snapshotState !== "complete" || !this.#snapshotWhole || this.#createFailed) return undefined;
    for (const id of this.#renamed) {
      if (!this.#usable(id)) return undefined;
    }
    const found: VaultRecord[] = [];
    for (const id of this.#idsByName.get(name) ?? []) {
      const entry = this.#usable(id);
      if (!entry) return undefined;
      found.push(entry.vault);
    }
    return found;
  }

  #keep(vault: VaultRecord, seq: number): void {
    const held = this.#entries.get(vault.id);
    if (held && held.seq > seq) return;
    if (held && held.vault.name !== vault.name) this.#idsByName.get(held.vault.name)?.delete(vault.id);
    this.#entries.set(vault.id, { vault, seq });
    let ids = this.#idsByName.get(vault.name);
    if (!ids) {
      ids = new Set();
      this.#idsByName.set(vault.name, ids);
    }
    ids.add(vault.id);
  }

  // ---- the snapshot ----

  /** Whether another page may be requested now: pages grow with the reads the operation makes. */
  #mayLoadPage(): boolean {
    if (this.#snapshotState !== "loading") return false;
    const allowed = 1 + Math.floor(this.#demand / READS_PER_SNAPSHOT_PAGE);
    return this.#pagesRequested.size < allowed && this.#pageToLoad() !== undefined;
  }

  /** The next page to request: the first, then in turn the oldest and the newest not yet requested. */
  #pageToLoad(): number | undefined {
    if (this.#lastPage === undefined) return this.#pagesRequested.has(1) ? undefined : 1;
    let oldest = 1;
    while (oldest <= this.#lastPage && this.#pagesRequested.has(oldest)) oldest++;
    if (oldest > this.#lastPage) return undefined;
    let newest = this.#lastPage;
    while (newest > oldest && this.#pagesRequested.has(newest)) newest--;
    return this.#fromNewest ? newest : oldest;
  }

  #loadPages(): void {
    while (this.#pagesInFlight < SNAPSHOT_PAGES_IN_FLIGHT && this.#mayLoadPage()) {
      const page = this.#pageToLoad()!;
      this.#pagesRequested.add(page);
      this.#fromNewest = !this.#fromNewest;
      const seq = ++this.#clock;
      this.#pagesInFlight += 1;
      this.sent.snapshotPages += 1;
      this.#client.vaults
        .list({
          vault_states: [...ALL_VAULT_STATES],
          // Oldest first: a vault created while listing joins the end, so no vault moves between pages.
          sort_by: ["created_at_asc"],
          page,
          size: VAULT_PAGE_SIZE,
        })
        .then(
          (answer) => {
            for (const vault of answer.vaults) {
              this.#keep(vault, seq);
              this.#snapshotIds.add(vault.id);
            }
            this.#largestTotal = Math.max(this.#largestTotal, answer.total);
            this.#lastPage = Math.max(this.#lastPage ?? 1, Math.ceil(answer.total / VAULT_PAGE_SIZE));
            this.#pagesAnswered.add(page);
          },
          () => {
            // The snapshot is an optimisation: without it, reads go by id.
            this.#snapshotState = "failed";
          },
        )
        .finally(() => {
          this.#pagesInFlight -= 1;
          if (this.#snapshotState === "loading" && this.#pagesInFlight === 0 && this.#allPagesAnswered()) {
            this.#snapshotState = "complete";
            this.#snapshotWhole = this.#snapshotIds.size >= this.#largestTotal;
          }
          this.#schedule();
        });
    }
  }

  #allPagesAnswered(): boolean {
    if (this.#lastPage === undefined) return false;
    for (let page = 1; page <= this.#lastPage; page++) if (!this.#pagesAnswered.has(page)) return false;
    return true;
  }

  // ---- batches ----

  #sendIdBatches(): void {
    // Full batches go at once; a partial one only when none is in flight, so that reads gather meanwhile.
    while (
      this.#idQueue.size >= VAULT_PAGE_SIZE ||
      (this.#idQueue.size > 0 && this.#idBatchesInFlight === 0)
    ) {
      const batch = take(this.#idQueue, VAULT_PAGE_SIZE, () => true);
      const seq = ++this.#clock;
      this.#idBatchesInFlight += 1;
      this.sent.idBatches += 1;
      this.#client.vaults
        .list({
          vault_ids: [...batch.keys()],
          vault_states: [...ALL_VAULT_STATES],
          page: 1,
          size: VAULT_PAGE_SIZE,
        })
        .then(
          (answer) => {
            const byId = new Map(answer.vaults.map((v) => [v.id, v]));
            for (const vault of answer.vaults) this.#keep(vault, seq);
            for (const [id, waiters] of batch) for (const w of waiters) w.resolve(byId.get(id));
          },
          (err: unknown) => {
            for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
          },
        )
        .finally(() => {
          this.#idBatchesInFlight -= 1;
          this.#schedule();
        });
    }
  }

  #sendNameBatches(): void {
    while (this.#nameQueue.size > 0 && this.#nameBatchesInFlight === 0) {
      let chars = 0;
      const batch = take(this.#nameQueue, VAULT_PAGE_SIZE, (name, first) => {
        const cost = "&names=".length + encodeURIComponent(name).length;
        if (!first && chars + cost > MAX_NAMES_QUERY_CHARS) return false;
        chars += cost;
        return true;
      });
      this.#nameBatchesInFlight += 1;
      this.sent.nameBatches += 1;
      const seq = ++this.#clock;
      void this.#listNamed([...batch.keys()])
        .then(
          (found) => {
            for (const vault of found) this.#keep(vault, seq);
            for (const [name, waiters] of batch) {
              for (const w of waiters) w.resolve(found.filter((v) => v.name === name));
            }
          },
          (err: unknown) => {
            for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
          },
        )
        .finally(() => {
          this.#nameBatchesInFlight -= 1;
          this.#schedule();
        });
    }
  }

  async #listNamed(names: string[]): Promise<VaultRecord[]> {
    const found: VaultRecord[] = [];
    // A name may be held by several vaults (archived ones keep theirs): every page of the answer.
    for await (const vault of this.#client.vaults.listAll({ names, vault_states: [...ALL_VAULT_STATES] })) {
      found.push(vault);
    }
    return found;
  }
}

function queue<W>(into: Map<string, W[]>, key: string, waiter: W): void {
  const list = into.get(key);
  if (list) list.push(waiter);
  else into.set(key, [waiter]);
}

/** Moves up to `most` keys (in arrival order, while `fits` agrees) out of `from`. */
function take<W>(
  from: Map<string, W[]>,
  most: number,
  fits: (key: string, first: boolean) => boolean,
): Map<string, W[]> {
  const batch = new Map<string, W[]>();
  for (const [key, waiters] of from) {
    if (batch.size >= most || !fits(key, batch.size === 0)) break;
    batch.set(key, waiters);
  }
  for (const key of batch.keys()) from.delete(key);
  return batch;
}

const perOperation = new PerOperation((client) => new VaultReads(client));

/** The batched vault reads of this client in the current operation. */
export function vaultReads(client: CustodyClient): VaultReads {
  return perOperation.get(client);
}

/** Passes one of the client's request events to its batched reads, when it has any in this operation. */
export function observeVaultWrites(client: CustodyClient, event: RequestEvent): void {
  perOperation.peek(client)?.observe(event);
}
