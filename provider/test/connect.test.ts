// One door for settings: every part of the package gets a verified connection from `connect` (explicit values,
// stack config, the environment); the provider process connects the same way from its configuration. A refused configured token with a working one in the environment switches the
// client it already made to that token, rather than building a second client.
import * as assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import {
  CustodySettingsError,
  checkSetting,
  configure,
  connect,
  disconnect,
  providerClient,
} from "../core/index";
import { cachedClient } from "../core/settings/connect";
import { settingsFrom } from "../core/settings/sources";

describe("one door for settings", () => {
  let emulator: RunningEmulator;
  const savedEnv = { ...process.env };
  before(async () => {
    emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
  });
  after(async () => {
    await emulator?.close();
  });
  afterEach(async () => {
    process.env = { ...savedEnv };
    await disconnect();
  });

  it("settingsFrom: explicit values win over stack config, which wins over the environment; each origin is named", () => {
    const env = { CUSTODY_BASE_URL: "https://env.test", CUSTODY_ACCESS_TOKEN: "env-token-0123456789" };
    const config = (key: string) => ({ "custody:accessToken": "config-token-0123456789" })[key];
    const fromAll = settingsFrom({ overrides: { baseUrl: "https://option.test" }, config, env });
    assert.equal(fromAll.settings.baseUrl, "https://option.test");
    assert.equal(fromAll.settings.accessToken, "config-token-0123456789");
    assert.equal(fromAll.origins.baseUrl.source, "the baseUrl option");
    assert.equal(fromAll.origins.accessToken.source, "stack config custody:accessToken");
    const fromEnv = settingsFrom({ env });
    assert.equal(fromEnv.origins.baseUrl.source, "the CUSTODY_BASE_URL environment variable");
    assert.throws(() => settingsFrom({ env: {} }), CustodySettingsError);
  });

  it("checkSetting judges one value alone, by the rules of the resolution, and passes what is unset", () => {
    assert.equal(checkSetting("baseUrl", "https://custody.example.com"), undefined);
    assert.match(String(checkSetting("baseUrl", "ftp://x")), /custody:baseUrl: must be an https:\/\/ URL/);
    assert.match(
      String(checkSetting("maxRetries", "three")),
      /custody:maxRetries: must be a non-negative integer/,
    );
    assert.equal(checkSetting("requestsPerMinute", 120), undefined);
    assert.equal(checkSetting("accessToken", undefined), undefined);
  });

  it("connect: a verified client from explicit values; a refused token names where it came from, with no trace", async () => {
    const { client, settings, origins } = await connect({
      overrides: { baseUrl: emulator.baseUrl, accessToken: emulator.accessToken },
    });
    assert.ok((await client.vaults.list({ size: 1 })).total >= 0);
    assert.equal(settings.baseUrl, emulator.baseUrl);
    assert.equal(origins.accessToken.source, "the accessToken option");
    const again = await connect({
      overrides: { baseUrl: emulator.baseUrl, accessToken: emulator.accessToken },
    });
    assert.equal(again.client, client, "one cached connection per settings");

    const err = await connect({
      overrides: { baseUrl: emulator.baseUrl, accessToken: "wrong-token-0123456789" },
    }).then(
      () => assert.fail("a refused token must fail"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof CustodySettingsError);
    assert.match(err.message, /refused the access token from the accessToken option \(401 Unauthorized\)/);
    assert.doesNotMatch(err.message, /wrong-token/);
    assert.equal(err.stack, "");
  });

  it("a refused configured token with a working one in the environment: the same client, switched to it", async () => {
    process.env.CUSTODY_ACCESS_TOKEN = emulator.accessToken;
    configure({ "custody:baseUrl": emulator.baseUrl, "custody:accessToken": "rotated-away-0123456789" });
    const made = cachedClient({ baseUrl: emulator.baseUrl, accessToken: "rotated-away-0123456789" });

    const ready = await providerClient();

    assert.equal(ready, made, "no second client");
    assert.ok((await ready.vaults.list({ size: 1 })).total >= 0, "it now sends the environment's token");
  });

  it("the token enters through one module: only the settings sources read it from the environment", () => {
    // Every access token comes from settingsFrom (./sources.ts): stack config, options, the environment,
    // and the environment's replacement after a rotation. Any other reader would be a second door.
    const core = path.resolve(__dirname, "../../core");
    const readers = sourceFiles(core).filter((file) =>
      /CUSTODY_ACCESS_TOKEN|accessToken\.envVar\]/.test(codeOf(readFileSync(file, "utf8"))),
    );
    assert.deepEqual(
      readers.map((file) => path.relative(core, file)),
      [path.join("settings", "sources.ts")],
    );
  });

  it("the provider process keeps its token in one place: the connection it was configured with", async () => {
    process.env.CUSTODY_ACCESS_TOKEN = emulator.accessToken;
    configure({ "custody:baseUrl": emulator.baseUrl });
    const made = cachedClient({ baseUrl: emulator.baseUrl, accessToken: emulator.accessToken });
    // The process resolved its settings once, at configure, into the one cache: its client is that connection's.
    assert.equal(await providerClient(), made);
    // The environment is not read again: no second copy of the token, and no second client.
    process.env.CUSTODY_ACCESS_TOKEN = "another-token-0123456789";
    assert.equal(await providerClient(), made);
  });
});

/** The TypeScript sources under `dir` (the package's own sources; the compiled tests run from dist/test). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The code of a source without its comments, which may name the variable. */
function codeOf(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}
