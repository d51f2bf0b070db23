// The `custody-emulator` command line as a child process: help, flag errors, the JSON line, flags taking
// effect, and clean stops.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { CLI_PATH, type CliProcess, runCli, startCli } from "../../support/emulator-cli";
import { rawCall } from "../../support/emulator-harness";

describe("emulator: CLI", function () {
  // Generous: one test starts eleven node processes, which is slow on a busy machine.
  this.timeout(120_000);
  const started: CliProcess[] = [];
  const start = async (args: string[]) => {
    const p = await startCli(args);
    started.push(p);
    return p;
  };
  afterEach(async () => {
    for (const p of started.splice(0))
      if (p.child.exitCode === null && p.child.signalCode === null) await p.kill();
  });

  it("is the package's bin, with a node shebang", () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, "../../../../package.json"), "utf8"));
    assert.equal(pkg.bin["custody-emulator"], "dist/emulator/cli.js");
    assert.equal(readFileSync(CLI_PATH, "utf8").split("\n")[0], "#!/usr/bin/env node");
  });

  it("prints the usage with --help and exits 0", async () => {
    const run = await runCli(["--help"]);
    assert.equal(run.code, 0);
    for (const flag of [
      "--host",
      "--port",
      "--state-file",
      "--seed",
      "--latency-ms",
      "--fault-rate",
      "--fault-seed",
      "--rate-limit",
    ]) {
      assert.ok(run.stdout.includes(flag), flag);
    }
  });

  it("exits 2 with a message naming the flag for every bad flag", async () => {
    const cases: [string[], RegExp][] = [
      [["--bogus"], /Unknown option '--bogus'/],
      [["--port", "abc"], /--port must be an integer, got 'abc'/],
      [["--port", "70000"], /--port must be between 0 and 65535/],
      [["--seed", "full"], /--seed must be 'default' or 'empty'/],
      [["--fault-rate", "2"], /--fault-rate must be a number between 0 and 1/],
      [["--latency-ms=-5"], /--latency-ms must be between 0/],
      [["--latency-ms", "-5"], /--latency-ms/],
      [["--rate-limit", "1.5"], /--rate-limit must be an integer/],
      [["--progression", "slow"], /--progression must be immediate, manual or clock/],
      [["--public-url", "localhost:8787"], /--public-url must be an http or https URL/],
      [["--public-url", "http://x.example/?a=1"], /--public-url must have no query/],
      [["extra"], /Unexpected argument 'extra'/],
      [["--port"], /--port/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args);
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.match(run.stderr, /--help/);
      assert.equal(run.stdout, "");
    }
  });

  it("prints one JSON line with the connection details, serves, and stops cleanly on SIGTERM", async () => {
    const p = await start([]);
    assert.deepEqual(Object.keys(p.info).sort(), [
      "accessToken",
      "apiUserPrivateKeyPem",
      "baseUrl",
      "controlToken",
      "viewerAccessToken",
      "webhookPublicKeyPem",
    ]);
    assert.match(p.info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(p.info.apiUserPrivateKeyPem, /BEGIN PRIVATE KEY/);
    assert.match(p.info.webhookPublicKeyPem, /BEGIN PUBLIC KEY/);
    const res = await rawCall(p.info.baseUrl, "GET", "/api/v1/vaults", { token: p.info.accessToken });
    assert.equal(res.status, 200);
    assert.ok(res.body.total > 0, "default seed");
    assert.equal(await p.stop("SIGTERM"), 0);
  });

  it("applies --seed empty and --rate-limit", async () => {
    const p = await start(["--seed", "empty", "--rate-limit", "2"]);
    const first = await rawCall(p.info.baseUrl, "GET", "/api/v1/vaults", { token: p.info.accessToken });
    assert.equal(first.body.total, 0);
    assert.equal(first.headers["x-ratelimit-limit"], "2, 2;w=60");
    await rawCall(p.info.baseUrl, "GET", "/api/v1/vaults", { token: p.info.accessToken });
    const third = await rawCall(p.info.baseUrl, "GET", "/api/v1/vaults", { token: p.info.accessToken });
    assert.equal(third.status, 429);
    assert.ok(third.headers["retry-after"]);
  });

  it("gives the same fault sequence in two processes with the same --fault-seed", async () => {
    const statuses = async (p: CliProcess) => {
      const out: number[] = [];
      for (let i = 0; i < 30; i++) {
        try {
          out.push(
            (await rawCall(p.info.baseUrl, "GET", "/api/v1/blockchains", { token: p.info.accessToken }))
              .status,
          );
        } catch {
          out.push(0);
        }
      }
      return out;
    };
    const a = await statuses(await start(["--fault-rate", "0.4", "--fault-seed", "7", "--latency-ms", "1"]));
    const b = await statuses(await start(["--fault-rate", "0.4", "--fault-seed", "7", "--latency-ms", "1"]));
    assert.deepEqual(a, b);
    assert.ok(a.some((s) => s !== 200) && a.some((s) => s === 200));
  });

  it("exits 1 with a clear message when the port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = await runCli(["--host", "127.0.0.1", "--port", String(port)]);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /cannot start: .*EADDRINUSE/);
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });
});
