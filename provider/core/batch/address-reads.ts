/**
 * Address reads, batched per vault, and the addresses of the vaults this operation created.
 *
 * The API lists addresses per vault only (`GET /vaults/{id}/addresses`), so a refresh needs one request per
 * vault at least; reads of several addresses of one vault that arrive close together share one request with
 * the `addresses` filter (chunked by encoded length). Each caller gets exactly the addresses with its address
 * string, and only from a request sent after it asked.
 *
 * A vault created in this operation has exactly the addresses its create answer and this client's address
 * creates returned: creating an address in it needs no lookup by name first. A failed address create, or a
 * write to the vault's addresses this client did not record, makes the vault's addresses unknown again.
 */
import {
  type CustodyClient,
  type RequestEvent,
  responseValidationIssues,
  type UtxoVaultAddress,
  type Vault as VaultRecord,
} from "@pulumi-custody/sdk";
import { PerOperation } from "./operation";
import { VAULT_PAGE_SIZE } from "./vault-reads";

/** The longest `addresses=…` part of one request's query, in characters once percent-encoded. */
export const MAX_ADDRESSES_QUERY_CHARS = 6000;

interface AddressWaiter {
  resolve(value: UtxoVaultAddress[]): void;
  reject(err: unknown): void;
}

/** The batched address reads of one client in one operation. */
export class AddressReads {
  readonly #client: CustodyClient;
  /** Vault id → address string → callers waiting, not yet sent. */
  readonly #waiting = new Map<string, Map<string, AddressWaiter[]>>();
  readonly #inFlight = new Set<string>();
  #scheduled = false;
  /** Vaults created in this operation → their addresses by name, as this client created them. */
  readonly #known = new Map<string, Map<string, UtxoVaultAddress>>();
  /** Address creates of this client in flight, per vault: their answers are recorded by the caller. */
  readonly #creating = new Map<string, number>();

  /** Requests this batcher sent (tests and diagnostics). */
  sent = 0;

  constructor(client: CustodyClient) {
    this.#client = client;
  }

  /** The vault's addresses whose address string is `address` (the API's `addresses` filter). */
  byAddress(vaultId: string, address: string): Promise<UtxoVaultAddress[]> {
    return new Promise((resolve, reject) => {
      let ofVault = this.#waiting.get(vaultId);
      if (!ofVault) {
        ofVault = new Map();
        this.#waiting.set(vaultId, ofVault);
      }
      const list = ofVault.get(address);
      if (list) list.push({ resolve, reject });
      else ofVault.set(address, [{ resolve, reject }]);
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#send();
        });
      }
    });
  }

  /** Records a vault this operation created: its default address is its only one. */
  vaultCreated(vault: VaultRecord): void {
    const defaultAddress = (vault as { default_address?: UtxoVaultAddress }).default_address;
    const addresses = new Map<string, UtxoVaultAddress>();
    if (defaultAddress && typeof defaultAddress.name === "string")
      addresses.set(defaultAddress.name, defaultAddress);
    this.#known.set(vault.id, addresses);
  }

  /**
   * The address of a vault created in this operation that has this name: `{ known: true, address }` (none when
   * the vault has no such address), or `{ known: false }` when only the API can say.
   */
  named(vaultId: string, name: string): { known: true; address?: UtxoVaultAddress } | { known: false } {
    const addresses = this.#known.get(vaultId);
    if (!addresses || (this.#creating.get(vaultId) ?? 0) > 0) return { known: false };
    const address = addresses.get(name);
    return address ? { known: true, address } : { known: true };
  }

  /** Runs this client's address create in `vaultId`, recording what it created. */
  async creating(vaultId: string, create: () => Promise<UtxoVaultAddress>): Promise<UtxoVaultAddress> {
    this.#creating.set(vaultId, (this.#creating.get(vaultId) ?? 0) + 1);
    try {
      const created = await create();
      // An answer that broke its documented shape is no record to go by: only the API knows the addresses now.
      if (responseValidationIssues(created).length > 0) this.#known.delete(vaultId);
      else this.#known.get(vaultId)?.set(created.name, created);
      return created;
    } catch (err) {
      // The create may have taken effect: only the API knows the vault's addresses now.
      this.#known.delete(vaultId);
      throw err;
    } finally {
      this.#creating.set(vaultId, (this.#creating.get(vaultId) ?? 1) - 1);
    }
  }

  /** A write to a vault's addresses outside {@link creating} (a rename) makes them unknown. */
  observe(event: RequestEvent): void {
    if (event.method === "GET") return;
    const rename = /^\/api\/v1\/vaults\/addresses\/[^/]+\/name$/.test(event.path);
    const create = /^\/api\/v1\/vaults\/([^/]+)\/addresses$/.exec(event.path);
    // A rename does not say which vault: no vault's addresses are certain any more.
    if (rename) this.#known.clear();
    else if (create) {
      const vaultId = decodeURIComponent(create[1]!);
      if ((this.#creating.get(vaultId) ?? 0) === 0) this.#known.delete(vaultId);
    }
  }

  #send(): void {
    for (const [vaultId, ofVault] of this.#waiting) {
      if (this.#inFlight.has(vaultId) || ofVault.size === 0) continue;
      let chars = 0;
      const batch = new Map<string, AddressWaiter[]>();
      for (const [address, waiters] of ofVault) {
        const cost = "&addresses=".length + encodeURIComponent(address).length;
        if (batch.size > 0 && (batch.size >= VAULT_PAGE_SIZE || chars + cost > MAX_ADDRESSES_QUERY_CHARS))
          break;
        chars += cost;
        batch.set(address, waiters);
      }
      for (const address of batch.keys()) ofVault.delete(address);
      if (ofVault.size === 0) this.#waiting.delete(vaultId);
      this.#inFlight.add(vaultId);
      this.sent += 1;
      void this.#list(vaultId, [...batch.keys()])
        .then(
          (found) => {
            for (const [address, waiters] of batch) {
              const mine = found.filter((a) => a.address.address === address);
              for (const w of waiters) w.resolve(mine);
            }
          },
          (err: unknown) => {
            for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
          },
        )
        .finally(() => {
          this.#inFlight.delete(vaultId);
          if (this.#waiting.size > 0) this.#send();
        });
    }
  }

  async #list(vaultId: string, addresses: string[]): Promise<UtxoVaultAddress[]> {
    const found: UtxoVaultAddress[] = [];
    for await (const a of this.#client.vaults.addresses.listAll(vaultId, { addresses })) found.push(a);
    return found;
  }
}

const perOperation = new PerOperation((client) => new AddressReads(client));

/** The batched address reads of this client in the current operation. */
export function addressReads(client: CustodyClient): AddressReads {
  return perOperation.get(client);
}

/** Passes one of the client's request events to its address reads, when it has any in this operation. */
export function observeAddressWrites(client: CustodyClient, event: RequestEvent): void {
  perOperation.peek(client)?.observe(event);
}
