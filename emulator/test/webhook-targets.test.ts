// The rule of which addresses `POST /webhooks/test` may send to (emulator/README.md, "Webhooks"): loopback and
// public addresses yes; link-local, private, unspecified, multicast and reserved no, in every spelling; a host
// name is resolved and every address it resolves to must pass, also at connect time (DNS rebinding).
import assert from "node:assert/strict";
import type { LookupAddress } from "node:dns";
import { checkWebhookTarget, guardedLookup, refusedAddressRule } from "../webhooks/targets";

describe("emulator: webhook test targets", () => {
  it("allows loopback and public addresses", () => {
    for (const address of [
      "127.0.0.1",
      "127.255.3.4",
      "::1",
      "::ffff:127.0.0.1",
      "8.8.8.8",
      "172.15.255.255",
      "172.32.0.1",
      "192.169.0.1",
      "100.63.255.255",
      "2001:4860:4860::8888",
      "2606:4700::1111",
    ]) {
      assert.equal(refusedAddressRule(address), undefined, address);
    }
  });

  it("refuses link-local, private, unspecified, multicast and reserved addresses, naming the range", () => {
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
      ["0.0.0.0", /0\.0\.0\.0\/8/],
      ["0.1.2.3", /0\.0\.0\.0\/8/],
      ["::", /unspecified \(::\/128\)/],
      ["224.0.0.1", /^multicast \(224\.0\.0\.0\/4\)$/],
      ["239.255.255.255", /multicast/],
      ["ff02::1", /^multicast \(ff00::\/8\)$/],
      ["240.0.0.1", /reserved \(240\.0\.0\.0\/4\)/],
      ["255.255.255.255", /reserved/],
      // IPv4 inside IPv6: mapped, NAT64, 6to4, and the deprecated compatible form.
      ["::ffff:169.254.169.254", /link-local \(169\.254\.0\.0\/16\)/],
      ["::ffff:a9fe:a9fe", /link-local \(169\.254\.0\.0\/16\)/],
      ["::ffff:10.1.1.1", /private \(10\.0\.0\.0\/8\)/],
      ["64:ff9b::a9fe:a9fe", /link-local \(169\.254\.0\.0\/16\)/],
      ["2002:a9fe:a9fe::1", /link-local \(169\.254\.0\.0\/16\)/],
      ["::a9fe:a9fe", /link-local/],
      ["FE80::1", /link-local/],
    ];
    for (const [address, rule] of cases) assert.match(String(refusedAddressRule(address)), rule, address);
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
    const refusal = await checkWebhookTarget(new URL("http://internal.example:8080/hooks"), lookup);
    assert.match(String(refusal), /internal\.example resolves to a private address \(10\.0\.0\.0\/8\)/);
    assert.doesNotMatch(String(refusal), /8080/);
    assert.equal(await checkWebhookTarget(new URL("http://loopback.example/"), lookup), undefined);
    assert.equal(await checkWebhookTarget(new URL("https://public.example/"), lookup), undefined);
    // A name that does not resolve passes the check: the delivery reports it (client_connection_error).
    assert.equal(await checkWebhookTarget(new URL("http://nowhere.invalid/"), lookup), undefined);
    assert.match(
      String(await checkWebhookTarget(new URL("http://[::ffff:a9fe:a9fe]/"), lookup)),
      /^\[::ffff:a9fe:a9fe\] is link-local \(169\.254\.0\.0\/16\)$/,
    );
    assert.deepEqual(lookups, ["internal.example", "loopback.example", "public.example", "nowhere.invalid"]);
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
