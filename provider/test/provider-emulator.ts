/**
 * An in-process emulator for the provider's unit tests, with the provider runtime configured to use it (as
 * the engine's `configure()` would), a client for arranging and checking state out of band, and helpers to
 * read the emulator's raw state.
 */

import { type EmulatorControlClient, type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodyClient } from "@pulumi-custody/sdk";
import { beginOperation } from "../core/batch/operation";
import { configure, setNoticeSink } from "../core/index";

/** What a provider test works with. */
export interface ProviderTestbed {
  /** The running emulator (control client included). */
  emulator: RunningEmulator;
  /**
   * A client for out-of-band changes and checks (never used by the provider itself). Its writes, like
   * `reset()`, begin a new provider operation (provider/core/batch/operation.ts).
   */
  client: CustodyClient;
  /** Notices the provider showed since the last `reset()`. */
  notices: string[];
  /** Resets the emulator to its default seed, clears faults and notices. */
  reset(): Promise<void>;
  /** Stops everything and restores the runtime's configuration. */
  close(): Promise<void>;
}

/** A vault as the emulator's control API shows it (the API's own record, archived ones included). */
export interface RawVault {
  id: string;
  name: string;
  type: string;
  state: string;
}

/** Starts an emulator and points the provider runtime at it. */
export async function startProviderTestbed(): Promise<ProviderTestbed> {
  const emulator = await startEmulator({ port: 0 });
  emulator.control = betweenOperations(emulator.control);
  // Retries fast, no client-side rate limit: tests are about behaviour, not pacing.
  configure({
    "custody:baseUrl": emulator.baseUrl,
    "custody:accessToken": emulator.accessToken,
    "custody:requestsPerMinute": "0",
  });
  const client = new CustodyClient({
    baseUrl: emulator.baseUrl,
    accessToken: emulator.accessToken,
    requestsPerMinute: 0,
    // A change made out of band comes between two operations of the provider (in a real run, between two
    // `pulumi` commands, each with its own provider process): what the provider read before is not reused.
    onRequest: (event) => {
      if (event.method !== "GET") beginOperation();
    },
  });
  const notices: string[] = [];
  const restoreSink = setNoticeSink((message) => {
    notices.push(message);
  });
  return {
    emulator,
    client,
    notices,
    async reset() {
      beginOperation();
      await emulator.control.reset("default");
      await emulator.control.clearFaults();
      notices.length = 0;
    },
    async close() {
      restoreSink();
      configure(undefined);
      await client.close();
      await emulator.close();
    },
  };
}

/**
 * The control client, each of whose calls begins a new provider operation: a test that changes the emulator's
 * state through it (a reset, an approval, a fault) stands for something done between two `pulumi` commands.
 */
function betweenOperations(control: EmulatorControlClient): EmulatorControlClient {
  return new Proxy(control, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        beginOperation();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Every vault with this name in the emulator's state, archived ones included. */
export async function rawVaultsNamed(testbed: ProviderTestbed, name: string): Promise<RawVault[]> {
  const vaults = await testbed.emulator.control.peek<RawVault>("vaults");
  return vaults.filter((v) => v.name === name);
}
