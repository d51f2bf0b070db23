/**
 * A guard for tests that name addresses off this machine (a webhook target in a private range, say): from the
 * call on, no socket of this process connects anywhere but to this machine. A test that checks that some code
 * refuses such an address then sends nothing off the machine even when that code is broken; the connection
 * fails with {@link OFF_MACHINE_REFUSED} before a packet leaves.
 *
 * Literal addresses are checked at once, host names after they resolve; a name that does not resolve fails as it
 * would without the guard.
 */
import type { LookupAddress, LookupOptions } from "node:dns";
import { lookup as dnsLookup } from "node:dns";
import { isIP, Socket } from "node:net";

/** The `code` of a connection the guard refused. */
export const OFF_MACHINE_REFUSED = "ERR_TEST_OFF_MACHINE_REFUSED";

/** Whether a connection to `address` stays on this machine: loopback, or the unspecified address. */
export function onThisMachine(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, "").toLowerCase();
  if (plain === "localhost" || plain === "::1" || plain === "::" || plain === "0.0.0.0") return true;
  const v4 = plain.startsWith("::ffff:") ? plain.slice(7) : plain;
  return isIP(v4) === 4 && v4.startsWith("127.");
}

function refused(address: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(
    `the test network guard refused a connection to ${address}: tests only connect to this machine`,
  );
  err.code = OFF_MACHINE_REFUSED;
  return err;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;
type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/** `lookup`, with every address it answers checked. */
function guardedLookup(lookup: Lookup): Lookup {
  return (hostname, options, callback) =>
    lookup(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      const all = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const off = all.find((a) => !onThisMachine(a));
      if (off !== undefined) return callback(refused(off), address, family);
      callback(null, address, family);
    });
}

let installed = false;

/** Keeps every later connection of this process on this machine (idempotent). */
export function keepNetworkOnThisMachine(): void {
  if (installed) return;
  installed = true;
  const connect = Socket.prototype.connect;
  Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
    // Node passes its normalized arguments as one array; a caller passes (options), (port, host) or (path).
    const list = Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
    const [first, second] = list;
    const options =
      typeof first === "object" && first !== null ? (first as { host?: string; path?: string }) : undefined;
    if (options?.path !== undefined || (typeof first === "string" && Number.isNaN(Number(first))))
      return connect.apply(this, args as never); // a local socket
    const host = options ? (options.host ?? "localhost") : typeof second === "string" ? second : "localhost";
    if (isIP(host.replace(/^\[|\]$/g, ""))) {
      if (!onThisMachine(host)) {
        process.nextTick(() => this.destroy(refused(host)));
        return this;
      }
      return connect.apply(this, args as never);
    }
    if (options) {
      const withLookup = options as { lookup?: Lookup };
      withLookup.lookup = guardedLookup(withLookup.lookup ?? (dnsLookup as unknown as Lookup));
      return connect.apply(this, args as never);
    }
    // (port, name): the same connection, through options that carry the guarded lookup.
    return connect.call(
      this,
      { port: Number(first), host, lookup: guardedLookup(dnsLookup as unknown as Lookup) } as never,
      ...(list.slice(2) as never[]),
    );
  } as typeof connect;
}
