/**
 * Which addresses `POST /webhooks/test` may send to. Anyone with an access token can call it, and its answer
 * (204, or which error) tells a reachable service from an unreachable one, so on a shared emulator it would
 * let API users probe the emulator's network: cloud metadata services (169.254.169.254), the private network,
 * this machine's other ports through 0.0.0.0, and whatever a translator in front of it reaches.
 *
 * The rule is an allow-list of what an address *is*, not a list of spellings to refuse: the host is parsed as
 * an address (the URL parser has already turned `0xa9fea9fe` and `0300.0250.1.1` into dotted quads), an IPv6
 * address that carries an IPv4 one is judged by the address it reaches (IPv4-mapped `::ffff:a.b.c.d`, and
 * through a translator or a tunnel: the IPv4-translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`, Teredo `2001::/32`), and every range of the IANA special-purpose address registries (and the
 * multicast and reserved blocks) is a class of its own. What is allowed:
 * - `loopback` (the default): only loopback (127.0.0.0/8, ::1, and ::ffff:127.0.0.0/104, which is the same
 *   socket): a receiver next to the emulator, the usual test set-up;
 * - `public` (`allowPublicWebhookTargets`): loopback and global unicast addresses, those in no special range;
 * - `any` (`allowPrivateWebhookTargets`): every address.
 *
 * A host name is resolved and every address it resolves to must be allowed; the delivery's connection checks
 * the addresses again when it resolves the name itself, so a name that resolves elsewhere the second time (DNS
 * rebinding) is refused too. Both happen before any connection is attempted.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns";
import { isIPv4, isIPv6 } from "node:net";

/** Which addresses a webhook test may reach (see the module comment). */
export type WebhookTargetPolicy = "loopback" | "public" | "any";

/** What an address is: loopback, public (global unicast), or the special range it lies in. */
export interface AddressClass {
  /** `loopback`, `public`, or the kind of special address (`link-local`, `private`, `benchmarking`, …). */
  kind: string;
  /** The range, in CIDR notation; for an address carried inside another, both (`64:ff9b::/96 → 169.254.0.0/16`). */
  range?: string;
}

/** The IPv4 special-purpose ranges (IANA registry), multicast and reserved, as [first, prefix, class]. */
const IPV4_RANGES: [number, number, AddressClass][] = [
  [v4("0.0.0.0"), 8, { kind: "unspecified", range: "0.0.0.0/8" }],
  [v4("10.0.0.0"), 8, { kind: "private", range: "10.0.0.0/8" }],
  // Carrier-grade NAT; some clouds serve their metadata there (100.100.100.200).
  [v4("100.64.0.0"), 10, { kind: "shared", range: "100.64.0.0/10" }],
  [v4("127.0.0.0"), 8, { kind: "loopback", range: "127.0.0.0/8" }],
  [v4("169.254.0.0"), 16, { kind: "link-local", range: "169.254.0.0/16" }],
  [v4("172.16.0.0"), 12, { kind: "private", range: "172.16.0.0/12" }],
  // DS-Lite, PCP and TURN anycast, NAT64 discovery (192.0.0.170, .171), and the rest of the IETF's block.
  [v4("192.0.0.0"), 24, { kind: "protocol-assignment", range: "192.0.0.0/24" }],
  [v4("192.0.2.0"), 24, { kind: "documentation", range: "192.0.2.0/24" }],
  [v4("192.31.196.0"), 24, { kind: "as112", range: "192.31.196.0/24" }],
  [v4("192.52.193.0"), 24, { kind: "amt", range: "192.52.193.0/24" }],
  [v4("192.88.99.0"), 24, { kind: "6to4-relay", range: "192.88.99.0/24" }],
  [v4("192.168.0.0"), 16, { kind: "private", range: "192.168.0.0/16" }],
  [v4("192.175.48.0"), 24, { kind: "as112", range: "192.175.48.0/24" }],
  [v4("198.18.0.0"), 15, { kind: "benchmarking", range: "198.18.0.0/15" }],
  [v4("198.51.100.0"), 24, { kind: "documentation", range: "198.51.100.0/24" }],
  [v4("203.0.113.0"), 24, { kind: "documentation", range: "203.0.113.0/24" }],
  [v4("224.0.0.0"), 4, { kind: "multicast", range: "224.0.0.0/4" }],
  // Future use, and the broadcast address 255.255.255.255.
  [v4("240.0.0.0"), 4, { kind: "reserved", range: "240.0.0.0/4" }],
];

/** The IPv6 special-purpose ranges that carry no IPv4 address, as [prefix groups, prefix length, class]. */
const IPV6_RANGES: [number[], number, AddressClass][] = [
  [[0x0100, 0, 0, 0], 64, { kind: "discard", range: "100::/64" }],
  [[0x0100, 0, 0, 1], 64, { kind: "dummy-prefix", range: "100:0:0:1::/64" }],
  [[0x2001, 0x0db8], 32, { kind: "documentation", range: "2001:db8::/32" }],
  // The IETF protocol assignments (Teredo, which carries IPv4 addresses, is judged before).
  [[0x2001, 0], 23, { kind: "protocol-assignment", range: "2001::/23" }],
  [[0x2620, 0x004f, 0x8000], 48, { kind: "as112", range: "2620:4f:8000::/48" }],
  [[0x3fff], 20, { kind: "documentation", range: "3fff::/20" }],
  [[0x5f00], 16, { kind: "srv6", range: "5f00::/16" }],
  [[0xfc00], 7, { kind: "private", range: "fc00::/7" }],
  [[0xfe80], 10, { kind: "link-local", range: "fe80::/10" }],
  // Site-local, deprecated.
  [[0xfec0], 10, { kind: "private", range: "fec0::/10" }],
  [[0xff00], 8, { kind: "multicast", range: "ff00::/8" }],
];

/** An IPv4 address as an unsigned 32-bit number. */
function v4(address: string): number {
  return address.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
}

function dotted(n: number): string {
  return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join(".");
}

function classOfV4(n: number): AddressClass {
  for (const [first, prefix, range] of IPV4_RANGES) {
    if (Math.floor(n / 2 ** (32 - prefix)) === Math.floor(first / 2 ** (32 - prefix))) return range;
  }
  return { kind: "public" };
}

/** The eight 16-bit groups of an IPv6 address (a zone id is dropped), or undefined when it is not one. */
function hextets(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, "").toLowerCase();
  if (!isIPv6(text)) return undefined;
  const dottedTail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dottedTail) {
    const n = v4(dottedTail[1] as string);
    text = `${text.slice(0, dottedTail.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const head = parse(halves[0] as string);
  const tail = halves.length === 2 ? parse(halves[1] as string) : [];
  const missing = 8 - head.length - tail.length;
  return [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
}

/** Whether the first `bits` bits of `groups` are those of `prefix`. */
function within(groups: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if (((groups[i] as number) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** An IPv4 address carried by an IPv6 form reached through a translator or a tunnel: public, or refused. */
function carried(wrapper: string, n: number): AddressClass {
  const inner = classOfV4(n);
  if (inner.kind === "public") return inner;
  // Loopback on the far side of a translator is not this machine's: another machine's loopback is reserved.
  const kind = inner.kind === "loopback" ? "reserved" : inner.kind;
  return { kind, range: `${wrapper} → ${dotted(n)} in ${inner.range}` };
}

function classOfV6(g: number[]): AddressClass {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const low32 = (g[6] as number) * 0x10000 + (g[7] as number);
  if (zeros(0, 8)) return { kind: "unspecified", range: "::/128" };
  if (zeros(0, 7) && g[7] === 1) return { kind: "loopback", range: "::1/128" };
  // IPv4-mapped: the IPv4 address itself (a dual-stack socket connects to it).
  if (zeros(0, 5) && g[5] === 0xffff) return classOfV4(low32);
  // IPv4-translated (SIIT), NAT64 (well-known prefix): through a translator, to the IPv4 address they carry.
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return carried("::ffff:0:0:0/96", low32);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return carried("64:ff9b::/96", low32);
  // Local-use NAT64: where in the address the IPv4 one sits depends on the operator's prefix length.
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return { kind: "nat64-local", range: "64:ff9b:1::/48" };
  // 6to4: the tunnel's far end is the IPv4 address in bits 16 to 47.
  if (g[0] === 0x2002) return carried("2002::/16", (g[1] as number) * 0x10000 + (g[2] as number));
  // Teredo: the server's IPv4 address in bits 32 to 63, the client's (inverted) in the last 32.
  if (g[0] === 0x2001 && g[1] === 0) {
    const server = carried("2001::/32", (g[2] as number) * 0x10000 + (g[3] as number));
    if (server.kind !== "public") return server;
    return carried("2001::/32", ~low32 >>> 0);
  }
  // The rest of ::/8: the deprecated IPv4-compatible form (::a.b.c.d) and reserved space.
  if (g[0] !== undefined && g[0] < 0x0100) return { kind: "reserved", range: "::/8" };
  for (const [prefix, bits, range] of IPV6_RANGES) if (within(g, prefix, bits)) return range;
  // Global unicast is 2000::/3; everything else is not allocated.
  if (((g[0] as number) & 0xe000) !== 0x2000) return { kind: "reserved", range: "not in 2000::/3" };
  return { kind: "public" };
}

/** What `address` (an IP address literal, IPv6 with or without brackets) is; undefined when it is not one. */
export function addressClass(address: string): AddressClass | undefined {
  const literal = address.startsWith("[") ? address.slice(1, -1) : address;
  if (isIPv4(literal)) return classOfV4(v4(literal));
  const groups = hextets(literal);
  return groups ? classOfV6(groups) : undefined;
}

/** Whether `policy` allows an address of class `c`. */
function allows(policy: WebhookTargetPolicy, c: AddressClass): boolean {
  if (policy === "any" || c.kind === "loopback") return true;
  return policy === "public" && c.kind === "public";
}

/** `link-local (169.254.0.0/16)`, `public`. */
function describe(c: AddressClass): string {
  return c.range ? `${c.kind} (${c.range})` : c.kind;
}

/**
 * Why `policy` refuses `address` (an IP address), e.g. `link-local (169.254.0.0/16)`; undefined when it is
 * allowed (always for loopback). By default only loopback is allowed.
 */
export function refusedAddressRule(
  address: string,
  policy: WebhookTargetPolicy = "loopback",
): string | undefined {
  const c = addressClass(address);
  if (c === undefined) return "not an IP address";
  return allows(policy, c) ? undefined : describe(c);
}

/** "resolves to a private address (10.0.0.0/8)". */
function resolvesTo(host: string, c: AddressClass): string {
  const article = /^[aeiou]/.test(c.kind) ? "an" : "a";
  return `${host} resolves to ${article} ${c.kind} address${c.range ? ` (${c.range})` : ""}`;
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
 * Why the target `url` is refused under `policy` (its address, or one its host name resolves to, is not
 * allowed), e.g. `169.254.169.254 is link-local (169.254.0.0/16)`; undefined when it may be sent to. Never
 * names the port: a refused target answers the same whatever port it gives. A name that does not resolve
 * passes: the delivery then fails to connect, and says so.
 */
export async function checkWebhookTarget(
  url: URL,
  policy: WebhookTargetPolicy = "loopback",
  resolve: ResolveHost = resolveWithDns,
): Promise<string | undefined> {
  if (policy === "any") return undefined;
  // The URL parser has already normalized the host: 0xa9fea9fe and 0300.0250.1.1 arrive as dotted quads.
  const host = url.hostname;
  const literal = host.startsWith("[") ? host.slice(1, -1) : host;
  const c = addressClass(literal);
  if (c !== undefined) return allows(policy, c) ? undefined : `${host} is ${describe(c)}`;
  let addresses: string[];
  try {
    addresses = await resolve(literal);
  } catch {
    return undefined;
  }
  for (const address of addresses) {
    const resolved = addressClass(address) ?? { kind: "unknown" };
    if (!allows(policy, resolved)) return resolvesTo(literal, resolved);
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
 * A `lookup` for `net.connect` that refuses a host name when any address it resolves to is not allowed by
 * `policy`, so the connection checks the addresses it actually uses (a name may resolve differently than when
 * it was checked).
 */
export function guardedLookup(
  resolve: LookupAll = dnsLookup,
  policy: WebhookTargetPolicy = "loopback",
): (
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      for (const a of addresses) {
        const c = addressClass(a.address) ?? { kind: "unknown" };
        if (!allows(policy, c)) {
          const refused: NodeJS.ErrnoException = new Error(resolvesTo(hostname, c));
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
