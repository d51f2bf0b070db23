/**
 * What one provider operation is, for the batched reads (./vault-reads.ts, ./address-reads.ts): the data a
 * read reuses must come from the operation it serves, never from an earlier one.
 *
 * A provider process serves one `pulumi` operation. The engine starts the dynamic-provider host
 * (`@pulumi/pulumi/cmd/dynamic-provider`, ../host/dynamic-provider-host.ts) and the `custody` plugin (plugin/server.ts) for
 * each preview, update, refresh or destroy, and stops them when it ends; `pulumi up` runs its preview and its
 * update with a provider process each. So by default the operation is the process. A process that runs several
 * operations itself (a test that calls the lifecycle methods directly, a long-lived tool) marks each start with
 * {@link beginOperation}.
 */
import type { CustodyClient } from "@pulumi-custody/sdk";

let current = 0;

/** Starts a new operation: what earlier operations read is never reused after this. */
export function beginOperation(): void {
  current += 1;
}

/** Per client, state that lives for one operation: built on first use, and again once an operation begins. */
export class PerOperation<T> {
  readonly #of = new WeakMap<CustodyClient, { operation: number; value: T }>();
  readonly #make: (client: CustodyClient) => T;

  constructor(make: (client: CustodyClient) => T) {
    this.#make = make;
  }

  /** This client's state for the current operation. Two clients never share one. */
  get(client: CustodyClient): T {
    const held = this.#of.get(client);
    if (held && held.operation === current) return held.value;
    const value = this.#make(client);
    this.#of.set(client, { operation: current, value });
    return value;
  }

  /** This client's state for the current operation, if it has one already. */
  peek(client: CustodyClient): T | undefined {
    const held = this.#of.get(client);
    return held && held.operation === current ? held.value : undefined;
  }
}
