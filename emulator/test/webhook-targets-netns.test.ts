// The webhook test refuses a target by what its address is, before any connection is attempted, proven where a
// connection could not hide: an emulator in a network namespace that has nothing but loopback (`ip netns`, as
// root). There, a connection to any other address fails at once (ENETUNREACH), so an answer that is a 422
// `url_host_not_allowed`, with no delivery recorded and no connection attempted (a spy on every socket's
// `connect`), was decided before connecting. The control run allows every target: then each is tried, and
// the spy sees it. Without root or iproute2 this file cannot make the namespace and says so (pending);
// ./webhook-targets.test.ts and ./webhooks.test.ts check the same rule without one.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";

/** Every form the rule must refuse by default, each with the class its answer must name. */
const REFUSED: [url: string, rule: RegExp][] = [
  ["http://169.254.169.254/latest/meta-data/", /link-local \(169\.254\.0\.0\/16\)/],
  ["http://0xa9fea9fe/", /link-local \(169\.254\.0\.0\/16\)/],
  ["http://[::ffff:169.254.169.254]/", /link-local \(169\.254\.0\.0\/16\)/],
  [
    "http://[::ffff:0:a9fe:a9fe]/",
    /link-local \(::ffff:0:0:0\/96 → 169\.254\.169\.254 in 169\.254\.0\.0\/16\)/,
  ],
  ["http://[64:ff9b::a9fe:a9fe]/", /link-local \(64:ff9b::\/96 → 169\.254\.169\.254/],
  ["http://[64:ff9b:1::a9fe:a9fe]/", /nat64-local \(64:ff9b:1::\/48\)/],
  ["http://[2002:a9fe:a9fe::1]/", /link-local \(2002::\/16 → 169\.254\.169\.254/],
  // Teredo: server 65.54.227.120, client 169.254.169.254 (its address is written inverted).
  ["http://[2001:0:4136:e378:8000:63bf:5601:5601]/", /link-local \(2001::\/32 → 169\.254\.169\.254/],
  ["http://198.18.0.1/", /benchmarking \(198\.18\.0\.0\/15\)/],
  ["http://192.0.0.192/", /protocol-assignment \(192\.0\.0\.0\/24\)/],
  ["http://10.1.2.3/", /private \(10\.0\.0\.0\/8\)/],
  ["http://100.100.100.200/", /shared \(100\.64\.0\.0\/10\)/],
  ["http://0.0.0.0:9/", /unspecified \(0\.0\.0\.0\/8\)/],
  ["http://[::]/", /unspecified \(::\/128\)/],
  ["http://[fd00::1]/", /private \(fc00::\/7\)/],
  ["http://[fe80::1]/", /link-local \(fe80::\/10\)/],
  ["http://224.0.0.1/", /multicast \(224\.0\.0\.0\/4\)/],
  ["http://[2001:db8::1]/", /documentation \(2001:db8::\/32\)/],
  // Public addresses too: by default only loopback is allowed.
  ["http://8.8.8.8/", /is public/],
  ["http://[2606:4700::1111]/", /is public/],
];

interface ProbeResult {
  answers: { url: string; status: number; type?: string; msg?: string; errorType?: string }[];
  attempts: string[];
  deliveries: number;
}

const NAMESPACE = `custody-webhooks-${process.pid}`;
const probe = path.join(__dirname, "netns-webhook-probe.js");

/** Whether this process can make a network namespace (root, with iproute2). */
function canMakeNamespaces(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync("ip", ["netns", "list"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function runProbe(urls: readonly string[], ...flags: string[]): ProbeResult {
  const out = execFileSync(
    "ip",
    ["netns", "exec", NAMESPACE, process.execPath, probe, JSON.stringify(urls), ...flags],
    {
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  return JSON.parse(out.trim().split("\n").pop() as string) as ProbeResult;
}

describe("emulator: webhook targets in a loopback-only network namespace", function () {
  this.timeout(180_000);

  before(function () {
    if (!canMakeNamespaces()) {
      this.skip();
      return;
    }
    execFileSync("ip", ["netns", "add", NAMESPACE]);
    execFileSync("ip", ["netns", "exec", NAMESPACE, "ip", "link", "set", "lo", "up"]);
    // Nothing but loopback: no other interface, no route off it.
    const links = execFileSync("ip", ["netns", "exec", NAMESPACE, "ip", "-o", "link"], { encoding: "utf8" });
    assert.deepEqual(
      links
        .trim()
        .split("\n")
        .map((l) => l.split(":")[1]?.trim()),
      ["lo"],
    );
  });
  after(() => {
    try {
      execFileSync("ip", ["netns", "del", NAMESPACE], { stdio: "ignore" });
    } catch {
      // Not made (no root), or already gone.
    }
  });

  it("answers 422 to every form, naming what the address is, before any connection is attempted", () => {
    const result = runProbe(REFUSED.map(([url]) => url));
    for (const [url, rule] of REFUSED) {
      const answer = result.answers.find((a) => a.url === url);
      assert.equal(answer?.status, 422, `${url}: ${JSON.stringify(answer)}`);
      assert.equal(answer?.type, "url_host_not_allowed", url);
      assert.match(answer?.msg ?? "", rule, url);
    }
    assert.deepEqual(result.attempts, [], "no connection was attempted");
    assert.equal(result.deliveries, 0, "no delivery was recorded (one is recorded before its first attempt)");
  });

  it("control: an emulator that allows every target tries each, and the namespace lets none through", () => {
    const urls = ["http://169.254.169.254/", "http://198.18.0.1/", "http://[64:ff9b:1::a9fe:a9fe]/"];
    const result = runProbe(urls, "--allow-private");
    for (const answer of result.answers) {
      assert.equal(answer.status, 400, JSON.stringify(answer));
      assert.equal(answer.errorType, "client_connection_error", JSON.stringify(answer));
    }
    assert.deepEqual(
      result.attempts.map((a) => a.replace(/:\d*$/, "")).sort(),
      ["169.254.169.254", "198.18.0.1", "64:ff9b:1::a9fe:a9fe"].sort(),
    );
    assert.equal(result.deliveries, urls.length);
  });
});
