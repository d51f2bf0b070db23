// Rotating a bearer token while keeping the state: through the control API, through the CLI against a
// running emulator (`custody-emulator rotate-token`), and across a restart (`--access-token` with
// `--state-file`). After a rotation the old token answers 401, the new one works, every record is kept, and
// a state file keeps the new token.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import {
  assertError,
  type CliProcess,
  type Harness,
  rawCall,
  runCli,
  startCli,
  startHarness,
} from "@pulumi-custody/testing";

const CONTROL_ENV = "CUSTODY_EMULATOR_CONTROL_TOKEN";

describe("emulator: token rotation", function () {
  this.timeout(60_000);

  describe("through the control API", () => {
    let h: Harness;
    before(async () => {
      h = await startHarness();
    });
    after(async () => h.close());

    it("POST /__emulator/tokens/rotate: the old access token is a 401, the new one works, vaults are kept", async () => {
      const vault = (await h.api("POST", "/api/v1/vaults", { json: { name: "kept", type: "evm" } })).body;
      const old = h.emulator.accessToken;
      const res = await rawCall(h.emulator.baseUrl, "POST", "/__emulator/tokens/rotate", {
        token: h.emulator.controlToken,
        json: { token: "access" },
      });
      assert.equal(res.status, 200, res.text);
      const fresh = res.body.accessToken as string;
      assert.equal(res.body.token, "access");
      assert.notEqual(fresh, old);
      assertError(await h.api("GET", "/api/v1/vaults", { token: old }), 401);
      const kept = await h.api("GET", `/api/v1/vaults/${vault.id}`, { token: fresh });
      assert.equal(kept.status, 200, kept.text);
      assert.equal(kept.body.name, "kept");
      // The viewer's token is untouched, and rotates on its own.
      const viewer = h.emulator.viewerAccessToken;
      assert.equal((await h.api("GET", "/api/v1/vaults", { token: viewer })).status, 200);
      const freshViewer = await h.emulator.control.rotateToken("viewer");
      assertError(await h.api("GET", "/api/v1/vaults", { token: viewer }), 401);
      assert.equal((await h.api("GET", "/api/v1/vaults", { token: freshViewer })).status, 200);
      assertError(
        await h.api("POST", "/api/v1/vaults", { token: freshViewer, json: { name: "v", type: "evm" } }),
        403,
      );
    });

    it("refuses a bad body with a 422 naming the field", async () => {
      const res = await rawCall(h.emulator.baseUrl, "POST", "/__emulator/tokens/rotate", {
        token: h.emulator.controlToken,
        json: { token: "root" },
      });
      assert.equal(res.status, 422, res.text);
      assert.deepEqual(res.body.detail[0].loc, ["body", "token"]);
    });
  });

  describe("from the command line", () => {
    let dir: string;
    const running: CliProcess[] = [];
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), "custody-emulator-rotation-"));
    });
    afterEach(async () => {
      for (const p of running.splice(0))
        if (p.child.exitCode === null && p.child.signalCode === null) await p.kill();
      rmSync(dir, { recursive: true, force: true });
    });
    const start = async (args: string[]) => {
      const p = await startCli(args);
      running.push(p);
      return p;
    };
    const status = async (p: CliProcess, token: string, url = "/api/v1/vaults") =>
      (await rawCall(p.info.baseUrl, "GET", url, { token })).status;

    it("`rotate-token` rotates a running emulator's token; the state file keeps it over a restart", async () => {
      const file = path.join(dir, "state.json");
      const first = await start(["--state-file", file]);
      const vault = (
        await rawCall(first.info.baseUrl, "POST", "/api/v1/vaults", {
          token: first.info.accessToken,
          json: { name: "kept over a rotation", type: "evm" },
        })
      ).body;
      const run = await runCli(["rotate-token", "--url", first.info.baseUrl], 10_000, {
        [CONTROL_ENV]: first.info.controlToken,
      });
      assert.equal(run.code, 0, run.stderr);
      const fresh = run.stdout.trim();
      assert.match(fresh, /^[\w-]+\.[\w-]+\.[\w-]+$/, "one JWT-shaped token on stdout, nothing else");
      assert.notEqual(fresh, first.info.accessToken);
      assert.match(run.stderr, /old one now answers 401/);
      assert.equal(await status(first, first.info.accessToken), 401);
      assert.equal(await status(first, fresh, `/api/v1/vaults/${vault.id}`), 200);
      // Acknowledged, so on disk: a restart from the state file keeps the new token and the vault.
      assert.equal(JSON.parse(readFileSync(file, "utf8")).credentials.accessToken, fresh);
      assert.equal(await first.stop(), 0);
      const second = await start(["--state-file", file]);
      assert.equal(second.info.accessToken, fresh);
      assert.equal(await status(second, first.info.accessToken), 401);
      assert.equal(await status(second, fresh, `/api/v1/vaults/${vault.id}`), 200);
      // The viewer's token, on request.
      const viewerRun = await runCli(
        ["rotate-token", "--url", second.info.baseUrl, "--token", "viewer"],
        10_000,
        {
          [CONTROL_ENV]: second.info.controlToken,
        },
      );
      assert.equal(viewerRun.code, 0, viewerRun.stderr);
      assert.equal(await status(second, second.info.viewerAccessToken), 401);
      assert.equal(await status(second, viewerRun.stdout.trim()), 200);
      assert.equal(await status(second, fresh), 200);
    });

    it("`--access-token` and `--viewer-access-token` with --state-file replace the stored tokens and keep the state", async () => {
      const file = path.join(dir, "state.json");
      const first = await start(["--state-file", file]);
      const vault = (
        await rawCall(first.info.baseUrl, "POST", "/api/v1/vaults", {
          token: first.info.accessToken,
          json: { name: "kept over a restart", type: "evm" },
        })
      ).body;
      assert.equal(await first.stop(), 0);
      const access = "rotated-access-token-0123456789";
      const viewer = "rotated-viewer-token-0123456789";
      const second = await start([
        "--state-file",
        file,
        "--access-token",
        access,
        "--viewer-access-token",
        viewer,
      ]);
      assert.equal(second.info.accessToken, access);
      assert.equal(second.info.viewerAccessToken, viewer);
      assert.equal(await status(second, first.info.accessToken), 401);
      assert.equal(await status(second, first.info.viewerAccessToken), 401);
      assert.equal(await status(second, access, `/api/v1/vaults/${vault.id}`), 200);
      assert.equal(await status(second, viewer, `/api/v1/vaults/${vault.id}`), 200);
      assert.equal(await second.stop(), 0);
      // Stored: a start without the flags keeps them.
      const third = await start(["--state-file", file]);
      assert.equal(third.info.accessToken, access);
      assert.equal(await status(third, access, `/api/v1/vaults/${vault.id}`), 200);
    });

    it("exits 2 naming the flag or variable for a command-line mistake", async () => {
      const cases: [string[], Record<string, string>, RegExp][] = [
        [["rotate-token", "--url", "http://127.0.0.1:9"], {}, /set CUSTODY_EMULATOR_CONTROL_TOKEN/],
        [["rotate-token", "--token", "root"], { [CONTROL_ENV]: "x" }, /--token must be 'access' or 'viewer'/],
        [
          ["rotate-token", "--url", "localhost:9"],
          { [CONTROL_ENV]: "x" },
          /--url must be an http or https URL/,
        ],
        [["rotate-token", "--port", "1"], { [CONTROL_ENV]: "x" }, /Unknown option '--port'/],
        [["--access-token", ""], {}, /--access-token must not be empty/],
        [
          ["--access-token", "has a space"],
          {},
          /--access-token must be visible ASCII characters without spaces/,
        ],
        [["--access-token", "same-token", "--viewer-access-token", "same-token"], {}, /must differ/],
      ];
      for (const [args, env, message] of cases) {
        const run = await runCli(args, 10_000, env);
        assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
        assert.match(run.stderr, message);
        assert.equal(run.stdout, "");
      }
    });

    it("`rotate-token` exits 1 with a clear message when the token is refused or nothing listens", async () => {
      const p = await start([]);
      const refused = await runCli(["rotate-token", "--url", p.info.baseUrl], 10_000, {
        [CONTROL_ENV]: "wrong",
      });
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /refused the control token.*CUSTODY_EMULATOR_CONTROL_TOKEN/);
      assert.doesNotMatch(refused.stderr, /wrong/, "the token given is not echoed");
      assert.equal(await status(p, p.info.accessToken), 200, "nothing rotated");
      const port = new URL(p.info.baseUrl).port;
      assert.equal(await p.stop(), 0);
      const unreachable = await runCli(["rotate-token", "--url", `http://127.0.0.1:${port}`], 10_000, {
        [CONTROL_ENV]: "x",
      });
      assert.equal(unreachable.code, 1, unreachable.stderr);
      assert.match(unreachable.stderr, /cannot reach the emulator at http:\/\/127\.0\.0\.1:\d+/);
    });
  });
});
