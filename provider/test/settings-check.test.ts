// The settings are checked once per provider process with one cheap authenticated call, from `check`, so a
// wrong token, a wrong base URL or plain http to a remote host fails the preview with one clear message.
import * as assert from "node:assert/strict";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { freeLoopbackPort } from "@pulumi-custody/testing";
import { CustodySettingsError, configure, disconnect, setNoticeSink } from "../core/index";
import { vaultProvider } from "../shims/index";

const VALID = { name: "Settings Check", type: "evm", __provider: "t" };

async function check(): Promise<unknown> {
  assert.ok(vaultProvider.check);
  return vaultProvider.check({}, VALID).catch((err: unknown) => err);
}

describe("provider settings check (emulator)", () => {
  let emulator: RunningEmulator;
  const notices: string[] = [];
  let restoreSink: () => void;
  const savedEnv = process.env.CUSTODY_ACCESS_TOKEN;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
    restoreSink = setNoticeSink((message) => {
      notices.push(message);
    });
  });
  after(async () => {
    restoreSink();
    configure(undefined);
    await emulator.close();
  });
  beforeEach(async () => {
    await disconnect();
    notices.length = 0;
    delete process.env.CUSTODY_ACCESS_TOKEN;
  });
  afterEach(() => {
    if (savedEnv === undefined) delete process.env.CUSTODY_ACCESS_TOKEN;
    else process.env.CUSTODY_ACCESS_TOKEN = savedEnv;
  });

  const settings = (overrides: Record<string, string>) =>
    configure({
      "custody:baseUrl": emulator.baseUrl,
      "custody:accessToken": emulator.accessToken,
      "custody:requestsPerMinute": "0",
      "custody:maxRetries": "0",
      ...overrides,
    });

  it("valid settings: check passes, after exactly one call to the API", async () => {
    settings({});
    const before = (await emulator.control.listRequests()).length;
    assert.ok(!((await check()) instanceof Error));
    assert.ok(!((await check()) instanceof Error));
    const calls = (await emulator.control.listRequests()).slice(before);
    assert.deepEqual(
      calls.map((r) => `${r.method} ${r.path} ${r.status}`),
      ["GET /api/v1/vaults 200"],
    );
  });

  it("a refused token from stack config fails check: the token as configured, and the commands for a rotation", async () => {
    settings({ "custody:accessToken": "not-a-valid-token" });
    const first = await check();
    assert.ok(first instanceof CustodySettingsError);
    assert.equal(first.setting, "custody:accessToken");
    // Which value that is depends on the command (the state's after a rotation): the message says both.
    assert.match(
      first.message,
      /refused the access token custody:accessToken that the provider was configured with \(401/,
    );
    assert.match(first.message, /from the state, with the custody:accessToken the last `pulumi up` recorded/);
    assert.match(first.message, /`pulumi refresh --run-program`/);
    assert.match(first.message, /`pulumi preview --refresh --run-program --expect-no-changes`/);
    assert.match(first.message, /pulumi config set --secret custody:accessToken <token>/);
    assert.doesNotMatch(first.message, /not-a-valid-token/);
    assert.equal(first.stack, "");
    // The next resources say it in one line.
    const second = await check();
    assert.ok(second instanceof CustodySettingsError);
    assert.equal(
      second.message,
      "custody:accessToken does not work: the error of another resource of this run says why and what to do.",
    );
  });

  it("a base URL that is not the API fails check and names custody:baseUrl", async () => {
    settings({ "custody:baseUrl": `${emulator.baseUrl}/wrong-prefix` });
    const err = await check();
    assert.ok(err instanceof CustodySettingsError);
    assert.equal(err.setting, "custody:baseUrl");
    assert.match(err.message, /does not serve the custody API: GET \/api\/v1\/vaults answered 404/);
  });

  it("a base URL where nothing listens fails check: cannot be reached", async () => {
    settings({ "custody:baseUrl": `http://127.0.0.1:${await freeLoopbackPort()}` });
    const err = await check();
    assert.ok(err instanceof CustodySettingsError);
    assert.match(err.message, /cannot be reached: .*Check custody:baseUrl \(or CUSTODY_BASE_URL\)/);
  });

  it("a refused token from CUSTODY_ACCESS_TOKEN: named as such, the environment is read at run time", async () => {
    process.env.CUSTODY_ACCESS_TOKEN = "not-a-valid-token";
    configure({ "custody:baseUrl": emulator.baseUrl, "custody:requestsPerMinute": "0" });
    const err = await check();
    assert.ok(err instanceof CustodySettingsError);
    assert.match(
      err.message,
      /refused the access token from the CUSTODY_ACCESS_TOKEN environment variable \(401 Unauthorized\): it is wrong, expired or revoked\. Set a valid one/,
    );
    assert.doesNotMatch(err.message, /--run-program/);
  });

  it("plain http to a remote host fails check before anything is sent", async () => {
    settings({ "custody:baseUrl": "http://custody.example.com" });
    const err = await check();
    assert.ok(err instanceof CustodySettingsError);
    assert.equal(err.setting, "custody:baseUrl");
    assert.match(err.message, /plain http/);
  });

  it("a recorded token refused after a rotation: CUSTODY_ACCESS_TOKEN is used instead, with a warning", async () => {
    const stale = emulator.accessToken;
    const fresh = await emulator.control.rotateToken();
    try {
      settings({ "custody:accessToken": stale });
      process.env.CUSTODY_ACCESS_TOKEN = fresh;
      assert.ok(!((await check()) instanceof Error));
      assert.match(
        notices.join("\n"),
        /custody:accessToken was refused \(401\), so CUSTODY_ACCESS_TOKEN is used/,
      );
    } finally {
      await emulator.control.reset("default");
    }
  });
});
