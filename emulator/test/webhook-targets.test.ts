// The rule of which addresses `POST /webhooks/test` may send to (emulator/README.md, "Webhooks"): by what an
// address is, not by its spelling. Loopback by default, public addresses too when allowed, and every
// special-purpose range (IANA's registries, multicast, reserved) refused unless every address is allowed; IPv4
// carried in IPv6 (mapped, translated, NAT64, 6to4, Teredo) judged by what it reaches. A host name is resolved
// and every address it resolves to must pass, also at connect time (DNS rebinding).
import assert from "node:assert/strict";
import type { LookupAddress } from "node:dns";
import { addressClass, checkWebhookTarget, guardedLookup, refusedAddressRule } from "../webhooks/targets";

describe("emulator: webhook test targets", () => {
  it("allows loopback by default, in each of its forms", () => {
    for (const address of ["127.0.0.1", "127.255.3.4", "::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "[::1]"]) {
      assert.equal(refusedAddressRule(address), undefined, address);
    }
  });

  it("allows public addresses only when asked to (allowPublicWebhookTargets), and then only those", () => {
    const publicOnes = [
      "8.8.8.8",
      "172.15.255.255",
      "172.32.0.1",
      "192.169.0.1",
      "100.63.255.255",
      "198.20.0.1",
      "192.0.1.1",
      "2001:4860:4860::8888",
      "2606:4700::1111",
      // Public IPv4 addresses carried by IPv6 forms: mapped, NAT64, 6to4, Teredo.
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "2002:808:808::1",
      "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
    ];
    for (const address of publicOnes) {
      assert.equal(refusedAddressRule(address), "public", address);
      assert.equal(refusedAddressRule(address, "public"), undefined, address);
      assert.equal(refusedAddressRule(address, "any"), undefined, address);
    }
    assert.equal(refusedAddressRule("::1", "public"), undefined);
  });

  it("refuses every special-purpose range, in every form, naming what the address is", () => {
    const cases: [string, RegExp][] = [
      ["169.254.169.254", /^link-local \(169\.254\.0\.0\/16\)$/],
      ["169.254.0.0", /link-local/],
      ["fe80::1", /^link-local \(fe80::\/10\)$/],
      ["febf:ffff::1", /link-local/],
      ["10.0.0.0", /^private \(10\.0\.0\.0\/8\)$/],
      ["10.255.255.255", /private \(10\.0\.0\.0\/8\)/],
      ["172.16.0.0", /private \(172\.16\.0\.0\/12\)/],
      ["172.31.255.255", /private \(172\.16\.0\.0\/12\)/],
      ["192.168.0.1", /private \(192\.168\.0\.0\/16\)/],
      ["100.100.100.200", /shared \(100\.64\.0\.0\/10\)/],
      ["fc00::1", /^private \(fc00::\/7\)$/],
      ["fdff:ffff::1", /private \(fc00::\/7\)/],
      ["fec0::1", /private \(fec0::\/10\)/],
      ["0.0.0.0", /0\.0\.0\.0\/8/],
      ["0.1.2.3", /0\.0\.0\.0\/8/],
      ["::", /unspecified \(::\/128\)/],
      ["224.0.0.1", /^multicast \(224\.0\.0\.0\/4\)$/],
      ["239.255.255.255", /multicast/],
      ["ff02::1", /^multicast \(ff00::\/8\)$/],
      ["240.0.0.1", /reserved \(240\.0\.0\.0\/4\)/],
      ["255.255.255.255", /reserved/],
      // The IANA IPv4 special-purpose registry.
      ["192.0.0.192", /^protocol-assignment \(192\.0\.0\.0\/24\)$/],
      ["192.0.0.8", /protocol-assignment/],
      ["192.0.0.170", /protocol-assignment/],
      ["192.0.2.1", /^documentation \(192\.0\.2\.0\/24\)$/],
      ["198.51.100.7", /documentation/],
      ["203.0.113.9", /documentation/],
      ["198.18.0.1", /^benchmarking \(198\.18\.0\.0\/15\)$/],
      ["198.19.255.255", /benchmarking/],
      ["192.88.99.1", /6to4-relay/],
      ["192.31.196.1", /as112/],
      ["192.52.193.1", /amt/],
      ["192.175.48.1", /as112/],
      // The IANA IPv6 special-purpose registry, and what is not global unicast.
      ["100::1", /^discard \(100::\/64\)$/],
      ["2001:db8::1", /^documentation \(2001:db8::\/32\)$/],
      ["3fff::1", /documentation \(3fff::\/20\)/],
      ["2001:2::1", /protocol-assignment \(2001::\/23\)/],
      ["2001:10::1", /protocol-assignment/],
      ["2620:4f:8000::1", /as112/],
      ["5f00::1", /srv6/],
      ["4000::1", /reserved \(not in 2000::\/3\)/],
      ["::1.2.3.4", /reserved \(::\/8\)/],
      ["::a9fe:a9fe", /reserved \(::\/8\)/],
      // IPv4 inside IPv6: mapped is the address itself; translated, NAT64, 6to4 and Teredo reach what they carry.
      ["::ffff:169.254.169.254", /^link-local \(169\.254\.0\.0\/16\)$/],
      ["::ffff:a9fe:a9fe", /link-local \(169\.254\.0\.0\/16\)/],
      ["::ffff:10.1.1.1", /private \(10\.0\.0\.0\/8\)/],
      ["::ffff:0:a9fe:a9fe", /^link-local \(::ffff:0:0:0\/96 → 169\.254\.169\.254 in 169\.254\.0\.0\/16\)$/],
      ["64:ff9b::a9fe:a9fe", /^link-local \(64:ff9b::\/96 → 169\.254\.169\.254 in 169\.254\.0\.0\/16\)$/],
      ["64:ff9b::7f00:1", /^reserved \(64:ff9b::\/96 → 127\.0\.0\.1 in 127\.0\.0\.0\/8\)$/],
      ["64:ff9b:1::a9fe:a9fe", /^nat64-local \(64:ff9b:1::\/48\)$/],
      ["64:ff9b:1:ffff::808:808", /nat64-local/],
      ["2002:a9fe:a9fe::1", /^link-local \(2002::\/16 → 169\.254\.169\.254/],
      ["2002:c612:1::1", /benchmarking \(2002::\/16 → 198\.18\.0\.1/],
      ["2001:0:4136:e378:8000:63bf:5601:5601", /^link-local \(2001::\/32 → 169\.254\.169\.254/],
      ["2001:0:a9fe:a9fe::1", /^link-local \(2001::\/32 → 169\.254\.169\.254/],
      ["2001:0:4136:e378:8000:63bf:3fff:fdd2", /documentation \(2001::\/32 → 192\.0\.2\.45/],
      ["FE80::1", /link-local/],
      ["fe80::1%eth0", /link-local/],
      ["[fe80::1]", /link-local/],
    ];
    for (const [address, rule] of cases) {
      assert.match(String(refusedAddressRule(address)), rule, address);
      assert.match(String(refusedAddressRule(address, "public")), rule, address);
      assert.equal(refusedAddressRule(address, "any"), undefined, address);
    }
  });

  it("classes addresses by what they are (unit)", () => {
    assert.deepEqual(addressClass("127.0.0.1"), { kind: "loopback", range: "127.0.0.0/8" });
    assert.deepEqual(addressClass("::ffff:127.0.0.1"), { kind: "loopback", range: "127.0.0.0/8" });
    assert.deepEqual(addressClass("8.8.8.8"), { kind: "public" });
    assert.equal(addressClass("example.com"), undefined);
    assert.equal(addressClass("1.2.3"), undefined);
  });

  it("checks an address literal without resolving, and every address a host name resolves to", async () => {
    const lookups: string[] = [];
    const lookup = async (name: string) => {
      lookups.push(name);
      if (name === "internal.example") return ["127.0.0.1", "10.0.0.5"];
      if (name === "loopback.example") return ["127.0.0.1", "::1"];
      if (name === "public.example") return ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
    };
    const refusal = await checkWebhookTarget(new URL("http://internal.example:8080/hooks"), "public", lookup);
    assert.match(String(refusal), /internal\.example resolves to a private address \(10\.0\.0\.0\/8\)/);
    assert.doesNotMatch(String(refusal), /8080/);
    assert.equal(
      await checkWebhookTarget(new URL("http://loopback.example/"), "loopback", lookup),
      undefined,
    );
    assert.equal(await checkWebhookTarget(new URL("https://public.example/"), "public", lookup), undefined);
    // By default a name that resolves to a public address is refused too.
    assert.match(
      String(await checkWebhookTarget(new URL("https://public.example/"), "loopback", lookup)),
      /^public\.example resolves to a public address$/,
    );
    // A name that does not resolve passes the check: the delivery reports it (client_connection_error).
    assert.equal(await checkWebhookTarget(new URL("http://nowhere.invalid/"), "loopback", lookup), undefined);
    assert.match(
      String(await checkWebhookTarget(new URL("http://[::ffff:a9fe:a9fe]/"), "loopback", lookup)),
      /^\[::ffff:a9fe:a9fe\] is link-local \(169\.254\.0\.0\/16\)$/,
    );
    assert.deepEqual(lookups, [
      "internal.example",
      "loopback.example",
      "public.example",
      "public.example",
      "nowhere.invalid",
    ]);
  });

  it("checks again at connect time, so a name that resolves elsewhere on the second lookup is refused", async () => {
    const answers: LookupAddress[][] = [[{ address: "10.0.0.5", family: 4 }]];
    const lookup = guardedLookup((_host, _options, callback) => callback(null, answers[0]!));
    const result = await new Promise<{ err: NodeJS.ErrnoException | null; address?: unknown }>((resolve) =>
      lookup("rebinding.example", { all: true }, (err, address) => resolve({ err, address })),
    );
    assert.equal(result.err?.code, "ERR_WEBHOOK_TARGET_REFUSED");
    assert.match(String(result.err?.message), /rebinding\.example resolves to a private address/);
    answers[0] = [
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ];
    const ok = await new Promise<{ err: NodeJS.ErrnoException | null; address?: unknown }>((resolve) =>
      lookup("loopback.example", { all: true }, (err, address) => resolve({ err, address })),
    );
    assert.equal(ok.err, null);
    assert.deepEqual(ok.address, answers[0]);
    const one = await new Promise<{ err: NodeJS.ErrnoException | null; address?: unknown; family?: number }>(
      (resolve) =>
        lookup("loopback.example", {}, (err, address, family) =>
          resolve({ err, address, family: family as number }),
        ),
    );
    assert.deepEqual(one, { err: null, address: "127.0.0.1", family: 4 });
  });
});
