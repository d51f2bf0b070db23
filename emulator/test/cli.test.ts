// The `custody-emulator` command line as a child process: help, flag errors, the JSON line, flags taking
// effect, and clean stops.
import assert from "node:assert/strict";
import { createPublicKey } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  CLI_PATH,
  type CliLine,
  type CliProcess,
  rawCall,
  runCli,
  type StartCliOptions,
  startCli,
} from "@pulumi-custody/testing";
import { startWebhookReceiver } from "./emulator-webhook-receiver";

describe("emulator: CLI", function () {
  // Generous: one test starts eleven node processes, which is slow on a busy machine.
  this.timeout(120_000);
  const started: CliProcess<CliLine>[] = [];
  const start = async (args: string[]) => {
    const p = await startCli(args);
    started.push(p);
    return p;
  };
  /** Starts the CLI as a user would: without `--print-credentials`. */
  const startPlain = async (args: string[], options: StartCliOptions = {}) => {
    const p = await startCli(args, { ...options, printCredentials: false });
    started.push(p);
    return p;
  };
  /** stderr once it holds the "listening" line (written just after the JSON line on stdout). */
  const startupMessage = async (p: CliProcess<CliLine>) => {
    for (let i = 0; i < 100 && !p.stderr().includes("listening on"); i++) await sleep(20);
    return p.stderr();
  };
  afterEach(async () => {
    for (const p of started.splice(0))
      if (p.child.exitCode === null && p.child.signalCode === null) await p.kill();
  });

  it("is the package's bin, with a node shebang", () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
    // A committed launcher, so that `npm ci` links the bin before the build writes dist/.
    assert.equal(pkg.bin["custody-emulator"], "bin/custody-emulator.js");
    const launcher = path.join(__dirname, "..", "..", pkg.bin["custody-emulator"]);
    assert.equal(readFileSync(launcher, "utf8").split("\n")[0], "#!/usr/bin/env node");
    assert.ok(statSync(launcher).mode & 0o111, "the launcher is executable");
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
      "--public-url",
      "--print-credentials",
      "--credentials-file",
      "--allow-private-webhook-targets",
      "--headers-timeout",
      "--request-timeout",
      "--idle-timeout",
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
      [["--rate-limit-window", "0"], /--rate-limit-window must be between 1 and 86400/],
      [["--progression", "slow"], /--progression must be immediate, manual or clock/],
      [["--public-url", "localhost:8787"], /--public-url must be an http or https URL/],
      [["--public-url", "http://x.example/?a=1"], /--public-url must have no query/],
      [["extra"], /Unexpected argument 'extra'/],
      [["--port"], /--port/],
      [["--credentials-file", ""], /--credentials-file must not be empty/],
      [["--headers-timeout", "0"], /--headers-timeout must be between 1 and/],
      [["--request-timeout", "soon"], /--request-timeout must be an integer/],
      [["--idle-timeout", "-1"], /--idle-timeout/],
      [
        ["--headers-timeout", "5000", "--request-timeout", "1000"],
        /--request-timeout must be at least --headers-timeout/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args);
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.match(run.stderr, /--help/);
      assert.equal(run.stdout, "");
    }
  });

  it("prints one JSON line with the connection details but no private key, serves, and stops cleanly on SIGTERM", async () => {
    const p = await startPlain([]);
    assert.deepEqual(Object.keys(p.info).sort(), [
      "accessToken",
      "baseUrl",
      "controlToken",
      "viewerAccessToken",
      "webhookPublicKeyPem",
    ]);
    assert.match(p.info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(p.info.webhookPublicKeyPem, /BEGIN PUBLIC KEY/);
    const stderr = await startupMessage(p);
    assert.doesNotMatch(stderr, /PRIVATE KEY/);
    // The startup output says how to get the key.
    assert.match(stderr, /private key .*--print-credentials.*--credentials-file/s);
    const res = await rawCall(p.info.baseUrl, "GET", "/api/v1/vaults", { token: p.info.accessToken });
    assert.equal(res.status, 200);
    assert.ok(res.body.total > 0, "default seed");
    assert.equal(await p.stop("SIGTERM"), 0);
  });

  it("--print-credentials adds the API user's private key, the one registered for request signing", async () => {
    const p = await start([]);
    assert.match(p.info.apiUserPrivateKeyPem, /BEGIN PRIVATE KEY/);
    const info = await rawCall(p.info.baseUrl, "GET", "/__emulator/info", { token: p.info.controlToken });
    assert.equal(
      createPublicKey(p.info.apiUserPrivateKeyPem).export({ type: "spki", format: "pem" }),
      info.body.api_user_public_key_pem,
    );
    assert.doesNotMatch(await startupMessage(p), /--print-credentials/);
  });

  it("--credentials-file writes every credential to a file only its owner can read, even over a readable one", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "emulator-credentials-"));
    try {
      const file = path.join(dir, "credentials.json");
      writeFileSync(file, "{}", { mode: 0o644 });
      const p = await startPlain(["--credentials-file", file]);
      // Written before the JSON line: a caller that saw the line can read the file.
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const written = JSON.parse(readFileSync(file, "utf8"));
      assert.deepEqual(Object.keys(written).sort(), [
        "accessToken",
        "apiUserPrivateKeyPem",
        "apiUserPublicKeyPem",
        "baseUrl",
        "controlToken",
        "viewerAccessToken",
        "webhookPublicKeyPem",
      ]);
      assert.equal(written.baseUrl, p.info.baseUrl);
      assert.match(written.apiUserPrivateKeyPem, /BEGIN PRIVATE KEY/);
      // The file's tokens are the emulator's.
      const res = await rawCall(p.info.baseUrl, "GET", "/api/v1/vaults", { token: written.accessToken });
      assert.equal(res.status, 200);
      const info = await rawCall(p.info.baseUrl, "GET", "/__emulator/info", { token: written.controlToken });
      assert.equal(info.status, 200);
      assert.equal("apiUserPrivateKeyPem" in p.info, false);
      const stderr = await startupMessage(p);
      assert.ok(stderr.includes(file), stderr);
      assert.doesNotMatch(stderr, /PRIVATE KEY/);
      assert.equal(await p.stop(), 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--credentials-file leaves the tokens off stdout and says where they went", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "emulator-credentials-"));
    try {
      const file = path.join(dir, "credentials.json");
      const p = await startPlain(["--credentials-file", file]);
      const written = JSON.parse(readFileSync(file, "utf8"));
      // A CI log that captures stdout and stderr holds no token: neither the control token (it reads all
      // state and rotates tokens) nor an access token.
      assert.deepEqual(Object.keys(p.info).sort(), ["baseUrl", "credentialsFile", "webhookPublicKeyPem"]);
      assert.equal((p.info as unknown as { credentialsFile: string }).credentialsFile, file);
      assert.equal(p.info.baseUrl, written.baseUrl);
      const stderr = await startupMessage(p);
      for (const token of [written.accessToken, written.viewerAccessToken, written.controlToken]) {
        assert.ok(!stderr.includes(token), "a token on stderr");
      }
      assert.match(stderr, /tokens .*written to .*credentials\.json/);
      assert.equal(await p.stop(), 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses --print-credentials with --credentials-file (exit 2): the key goes to the file", async () => {
    const file = path.join(tmpdir(), "no-such-directory-for-the-emulator", "credentials.json");
    const run = await runCli(["--port", "0", "--print-credentials", "--credentials-file", file]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--print-credentials and --credentials-file/);
    assert.equal(run.stdout, "");
  });

  it("--host 0.0.0.0 warns on stderr that the API and the control API are exposed, and prints a usable loopback baseUrl", async () => {
    const p = await startPlain(["--host", "0.0.0.0"]);
    assert.match(p.info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    const stderr = await startupMessage(p);
    assert.match(stderr, /warning: .*0\.0\.0\.0.*not a loopback address/);
    assert.match(stderr, /every API user's data/);
    assert.match(stderr, /control API/);
    const res = await rawCall(p.info.baseUrl, "GET", "/api/v1/vaults", { token: p.info.accessToken });
    assert.equal(res.status, 200);
    assert.equal(await p.stop(), 0);
  });

  it("gives no warning on the default loopback address", async () => {
    const p = await startPlain([]);
    assert.doesNotMatch(await startupMessage(p), /warning/i);
  });

  it("exits 1 naming the file when --credentials-file cannot be written, and stops serving", async () => {
    const file = path.join(tmpdir(), "no-such-directory-for-the-emulator", "credentials.json");
    const run = await runCli(["--host", "127.0.0.1", "--port", "0", "--credentials-file", file]);
    assert.equal(run.code, 1, run.stderr);
    assert.ok(run.stderr.includes(`cannot write credentials file ${file}`), run.stderr);
    assert.equal(run.stdout, "");
  });

  it("applies --seed empty, --rate-limit and --rate-limit-window", async () => {
    const p = await start(["--seed", "empty", "--rate-limit", "2", "--rate-limit-window", "5"]);
    const first = await rawCall(p.info.baseUrl, "GET", "/api/v1/vaults", { token: p.info.accessToken });
    assert.equal(first.body.total, 0);
    assert.equal(first.headers["x-ratelimit-limit"], "2, 2;w=5");
    assert.ok(Number(first.headers["x-ratelimit-reset"]) <= 5, "the reset falls within the 5 s window");
    await rawCall(p.info.baseUrl, "GET", "/api/v1/vaults", { token: p.info.accessToken });
    const third = await rawCall(p.info.baseUrl, "GET", "/api/v1/vaults", { token: p.info.accessToken });
    assert.equal(third.status, 429);
    assert.ok(third.headers["retry-after"]);
  });

  it("applies --allow-private-webhook-targets and --headers-timeout", async () => {
    const receiver = await startWebhookReceiver();
    try {
      // 0.0.0.0 as a destination reaches this machine; only the flag lets the test webhook go there.
      const target = receiver.url.replace("127.0.0.1", "0.0.0.0");
      const strict = await start(["--seed", "empty"]);
      const refused = await rawCall(strict.info.baseUrl, "POST", "/api/v1/webhooks/test", {
        token: strict.info.accessToken,
        json: { url: target },
      });
      assert.equal(refused.status, 422, refused.text);
      const open = await start([
        "--seed",
        "empty",
        "--allow-private-webhook-targets",
        "--headers-timeout",
        "300",
      ]);
      const sent = await rawCall(open.info.baseUrl, "POST", "/api/v1/webhooks/test", {
        token: open.info.accessToken,
        json: { url: target },
      });
      assert.equal(sent.status, 204, sent.text);
      assert.equal(receiver.received.length, 1);
      // A request head that never completes is answered 408 and closed after the header timeout.
      const { hostname, port } = new URL(open.info.baseUrl);
      const socket = connect(Number(port), hostname);
      await once(socket, "connect");
      let text = "";
      socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
      socket.write("GET /api/v1/vaults HTTP/1.1\r\nHost: x\r\n");
      const closed = await Promise.race([
        once(socket, "end").then(() => true),
        sleep(10_000).then(() => false),
      ]);
      socket.destroy();
      assert.ok(closed, "the server kept a half-sent request head open for 10 s");
      assert.match(text, /^HTTP\/1\.1 408 /);
    } finally {
      await receiver.close();
    }
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
