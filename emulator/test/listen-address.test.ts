// Where the emulator listens and what it advertises: a bind to every interface (or any other non-loopback
// address) is warned about, since it exposes every API user's data and the control API to the network, and
// the advertised baseUrl is one a client can use (the sdk refuses plain http to anything but loopback).
import assert from "node:assert/strict";
import { CustodyClient } from "@pulumi-custody/sdk";
import { rawCall } from "@pulumi-custody/testing";
import { advertisedHost, exposureWarning, type RunningEmulator, startEmulator } from "../start-emulator";

describe("emulator: listen address", () => {
  const started: RunningEmulator[] = [];
  afterEach(async () => {
    for (const e of started.splice(0)) await e.close();
  });

  /** Starts an emulator on `host` and collects the warnings it gives. */
  async function start(host: string): Promise<{ emulator: RunningEmulator; warnings: string[] }> {
    const warnings: string[] = [];
    const emulator = await startEmulator({
      host,
      port: 0,
      seed: "empty",
      onWarning: (m) => warnings.push(m),
    });
    started.push(emulator);
    return { emulator, warnings };
  }

  it("on 0.0.0.0 warns that every API user's data and the control API are exposed, and advertises 127.0.0.1", async () => {
    const { emulator, warnings } = await start("0.0.0.0");
    assert.match(emulator.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.match(warnings[0]!, /0\.0\.0\.0/);
    assert.match(warnings[0]!, /not a loopback address/);
    assert.match(warnings[0]!, /every API user's data/);
    assert.match(warnings[0]!, /control API/);
    assert.match(warnings[0]!, /network/);
    // The advertised URL is usable: it serves, and the sdk accepts it.
    const res = await rawCall(emulator.baseUrl, "GET", "/api/v1/vaults", { token: emulator.accessToken });
    assert.equal(res.status, 200, res.text);
    assert.doesNotThrow(() => new CustodyClient({ baseUrl: emulator.baseUrl, accessToken: "x" }));
    assert.equal((await emulator.control.health()).ok, true);
  });

  it("on a loopback address or localhost gives no warning and advertises that address", async () => {
    for (const [host, url] of [
      ["127.0.0.1", /^http:\/\/127\.0\.0\.1:\d+$/],
      ["localhost", /^http:\/\/localhost:\d+$/],
    ] as const) {
      const { emulator, warnings } = await start(host);
      assert.match(emulator.baseUrl, url);
      assert.deepEqual(warnings, [], host);
    }
  });

  it("advertises the loopback address of the family for every interface, else the host as given", () => {
    assert.equal(advertisedHost("0.0.0.0", "0.0.0.0"), "127.0.0.1");
    assert.equal(advertisedHost("::", "::"), "[::1]");
    assert.equal(advertisedHost("::1", "::1"), "[::1]");
    assert.equal(advertisedHost("127.0.0.1", "127.0.0.1"), "127.0.0.1");
    assert.equal(advertisedHost("localhost", "127.0.0.1"), "localhost");
    assert.equal(advertisedHost("192.168.1.5", "192.168.1.5"), "192.168.1.5");
    assert.equal(advertisedHost("fd00::5", "fd00::5"), "[fd00::5]");
  });

  it("warns for every bind that is not loopback only", () => {
    for (const addresses of [
      ["127.0.0.1"],
      ["127.0.0.2"],
      ["::1"],
      ["127.0.0.1", "::1"],
      ["::ffff:127.0.0.1"],
    ])
      assert.equal(exposureWarning("h", addresses, 1), undefined, addresses.join());
    for (const addresses of [["0.0.0.0"], ["::"], ["192.168.1.5"], ["127.0.0.1", "10.0.0.2"], ["fe80::1"]])
      assert.match(String(exposureWarning("h", addresses, 1)), /not a loopback address/, addresses.join());
  });

  it("writes the warning to stderr when no onWarning is given", async () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      started.push(await startEmulator({ host: "0.0.0.0", port: 0, seed: "empty" }));
    } finally {
      process.stderr.write = write;
    }
    assert.match(written.join(""), /^custody-emulator: warning: .*0\.0\.0\.0.*control API/m);
  });
});
