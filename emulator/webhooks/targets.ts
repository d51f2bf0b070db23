/**
 * Which addresses `POST /webhooks/test` may send to. Anyone with an access token can call it, and its answer
 * (204, or which error) tells a reachable service from an unreachable one, so on a shared emulator it would
 * let API users probe the emulator's network: cloud metadata services (169.254.169.254), the private
 * network, this machine's other ports through 0.0.0.0. Loopback stays allowed (the usual test set-up: a
 * receiver on 127.0.0.1 next to the emulator), and so do public addresses; the rest is refused unless the
 * emulator is started with `allowPrivateWebhookTargets` (`--allow-private-webhook-targets`).
 *
 * A host name is resolved and every address it resolves to must pass; the delivery's connection checks the
 * addresses again when it resolves the name itself, so a name that resolves elsewhere the second time
 * (DNS rebinding) is refused too.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns";
import { isIPv4, isIPv6 } from "node:net";

/** A refused range: what kind of address it holds, and the range in CIDR notation. */
interface RefusedRange {
  kind: "link-local" | "private" | "shared" | "unspecified" | "multicast" | "reserved";
  range: string;
}

/** IPv4 ranges refused as targets, as [first address, prefix length, description]. 127.0.0.0/8 is not here. */
const IPV4_RANGES: [number, number, RefusedRange][] = [
  [v4("0.0.0.0"), 8, { kind: "unspecified", range: "0.0.0.0/8" }],
  [v4("10.0.0.0"), 8, { kind: "private", range: "10.0.0.0/8" }],
  // Carrier-grade NAT; some clouds serve their metadata there (100.100.100.200).
  [v4("100.64.0.0"), 10, { kind: "shared", range: "100.64.0.0/10" }],
  [v4("169.254.0.0"), 16, { kind: "link-local", range: "169.254.0.0/16" }],
  [v4("172.16.0.0"), 12, { kind: "private", range: "172.16.0.0/12" }],
  [v4("192.168.0.0"), 16, { kind: "private", range: "192.168.0.0/16" }],
  [v4("224.0.0.0"), 4, { kind: "multicast", range: "224.0.0.0/4" }],
  // Future use and the broadcast address 255.255.255.255.
  [v4("240.0.0.0"), 4, { kind: "reserved", range: "240.0.0.0/4" }],
];

/** An IPv4 address as an unsigned 32-bit number. */
function v4(address: string): number {
  return address.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
}

function refusedV4(n: number): RefusedRange | undefined {
  for (const [first, prefix, range] of IPV4_RANGES) {
    if (Math.floor(n / 2 ** (32 - prefix)) === Math.floor(first / 2 ** (32 - prefix))) return range;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a zone id is dropped), or undefined when it is not one. */
function hextets(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, "").toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (!isIPv4(dotted[1]!)) return undefined;
    const n = v4(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function refusedV6(g: number[]): RefusedRange | undefined {
  const embedded = (hi: number, lo: number) => refusedV4(hi * 0x10000 + lo);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return { kind: "unspecified", range: "::/128" };
  if (zeros(0, 7) && g[7] === 1) return undefined; // ::1, loopback
  // IPv4 inside IPv6: mapped (::ffff:0:0/96), the deprecated compatible form (::/96), NAT64 (64:ff9b::/96)
  // and 6to4 (2002::/16) reach the IPv4 address they carry, so they are judged as that address.
  if (zeros(0, 5) && g[5] === 0xffff) return embedded(g[6]!, g[7]!);
  if (zeros(0, 6)) return embedded(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return embedded(g[6]!, g[7]!);
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!);
  const top = g[0]!;
  if ((top & 0xffc0) === 0xfe80) return { kind: "link-local", range: "fe80::/10" };
  if ((top & 0xffc0) === 0xfec0) return { kind: "private", range: "fec0::/10" }; // site-local, deprecated
  if ((top & 0xfe00) === 0xfc00) return { kind: "private", range: "fc00::/7" };
  if ((top & 0xff00) === 0xff00) return { kind: "multicast", range: "ff00::/8" };
  return undefined;
}

function refusedRange(address: string): RefusedRange | undefined {
  if (isIPv4(address)) return refusedV4(v4(address));
  const groups = isIPv6(address.replace(/%.*$/, "")) ? hextets(address) : undefined;
  return groups ? refusedV6(groups) : undefined;
}

/**
 * Why `address` (an IP address) may not be a webhook test target, e.g. `link-local (169.254.0.0/16)`; undefined
 * when it may (loopback, public).
 */
export function refusedAddressRule(address: string): string | undefined {
  const range = refusedRange(address);
  return range && `${range.kind} (${range.range})`;
}

/** "resolves to a private address (10.0.0.0/8)". */
function resolvesTo(host: string, range: RefusedRange): string {
  const article = /^[aeiou]/.test(range.kind) ? "an" : "a";
  return `${host} resolves to ${article} ${range.kind} address (${range.range})`;
}

/** Resolves a host name to every address it has. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

const resolveWithDns: ResolveHost = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses.map((a) => a.address)),
    ),
  );

/**
 * Why the target `url` is refused (its address, or one its host name resolves to, is link-local, private,
 * unspecified, multicast or reserved), e.g. `169.254.169.254 is link-local (169.254.0.0/16)`; undefined when it
 * may be sent to. Never names the port: a refused target answers the same whatever port it gives. A name that
 * does not resolve passes: the delivery then fails to connect, and says so.
 */
export async function checkWebhookTarget(
  url: URL,
  resolve: ResolveHost = resolveWithDns,
): Promise<string | undefined> {
  // The URL parser has already normalized the host: 0xa9fea9fe and 0300.0250.1.1 arrive as dotted quads.
  const host = url.hostname;
  const literal = host.startsWith("[") ? host.slice(1, -1) : host;
  if (isIPv4(literal) || isIPv6(literal)) {
    const rule = refusedAddressRule(literal);
    return rule && `${host} is ${rule}`;
  }
  let addresses: string[];
  try {
    addresses = await resolve(literal);
  } catch {
    return undefined;
  }
  for (const address of addresses) {
    const range = refusedRange(address);
    if (range) return resolvesTo(literal, range);
  }
  return undefined;
}

/** The `code` of the error a connection gets when its host name resolves to a refused address. */
export const TARGET_REFUSED = "ERR_WEBHOOK_TARGET_REFUSED";

/** The host name resolver of `net.connect`, in the shape `guardedLookup` wraps (always asked for every address). */
export type LookupAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for `net.connect` that refuses a host name when any address it resolves to is refused, so the
 * connection checks the addresses it actually uses (a name may resolve differently than when it was checked).
 */
export function guardedLookup(
  resolve: LookupAll = dnsLookup,
): (
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      for (const a of addresses) {
        const range = refusedRange(a.address);
        if (range) {
          const refused: NodeJS.ErrnoException = new Error(resolvesTo(hostname, range));
          refused.code = TARGET_REFUSED;
          return callback(refused, "");
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) {
        const none: NodeJS.ErrnoException = new Error(`${hostname} resolves to no address`);
        none.code = "ENOTFOUND";
        return callback(none, "");
      }
      callback(null, first.address, first.family);
    });
  };
}
