// Settings: stack config wins over the environment, and a missing or malformed setting fails with a message
// that names it and both ways to set it, without ever printing the token.
import * as assert from "node:assert/strict";
import { configure, vault } from "../core/index";
import { processSettings } from "../core/settings/provider-process";
import { type ConfigLookup, CustodySettingsError, settingsFrom } from "../core/settings/sources";

/** The settings resolved from a stack config lookup and an environment, as the one door resolves them. */
function resolveSettings(config: ConfigLookup, env: NodeJS.ProcessEnv) {
  return settingsFrom({ config, env }).settings;
}

/** The provider process's settings in force. */
function currentSettings() {
  return processSettings().settings;
}

const TOKEN = "tok-config-canary-123456";

function lookup(values: Record<string, string>) {
  return (key: string) => values[key];
}

describe("provider settings", () => {
  it("read stack config first, then the environment", () => {
    const env = { CUSTODY_BASE_URL: "https://env.example.test", CUSTODY_ACCESS_TOKEN: "env-token" };
    assert.deepEqual(resolveSettings(lookup({ "custody:accessToken": TOKEN }), env), {
      baseUrl: "https://env.example.test",
      accessToken: TOKEN,
    });
    assert.deepEqual(
      resolveSettings(
        lookup({ "custody:baseUrl": "https://config.example.test/", "custody:maxRetries": "5" }),
        { ...env, CUSTODY_REQUESTS_PER_MINUTE: "0" },
      ),
      {
        baseUrl: "https://config.example.test",
        accessToken: "env-token",
        maxRetries: 5,
        requestsPerMinute: 0,
      },
    );
  });

  it("a missing base URL names custody:baseUrl and CUSTODY_BASE_URL", () => {
    assert.throws(
      () => resolveSettings(lookup({ "custody:accessToken": TOKEN }), {}),
      (err: unknown) => {
        assert.ok(err instanceof CustodySettingsError);
        assert.equal(err.setting, "custody:baseUrl");
        assert.match(err.message, /Missing setting custody:baseUrl/);
        assert.match(err.message, /pulumi config set custody:baseUrl/);
        assert.match(err.message, /CUSTODY_BASE_URL/);
        return true;
      },
    );
  });

  it("a missing token names custody:accessToken (as a secret) and CUSTODY_ACCESS_TOKEN", () => {
    assert.throws(
      () =>
        resolveSettings(lookup({ "custody:baseUrl": "https://x.example.test" }), {
          CUSTODY_ACCESS_TOKEN: "  ",
        }),
      /Missing setting custody:accessToken: set it with `pulumi config set --secret custody:accessToken <token>` or the CUSTODY_ACCESS_TOKEN environment variable/,
    );
  });

  it("malformed values name the setting and the rule, and never echo the token", () => {
    const base = { "custody:accessToken": TOKEN };
    assert.throws(
      () => resolveSettings(lookup({ ...base, "custody:baseUrl": "not a url" }), {}),
      /custody:baseUrl: must be an absolute URL/,
    );
    assert.throws(
      () => resolveSettings(lookup({ ...base, "custody:baseUrl": "ftp://x.test" }), {}),
      /custody:baseUrl: must be an https:\/\/ URL/,
    );
    assert.throws(
      () =>
        resolveSettings(
          lookup({ ...base, "custody:baseUrl": "https://x.test", "custody:maxRetries": "-1" }),
          {},
        ),
      (err: unknown) => {
        assert.match(
          String(err),
          /custody:maxRetries: must be a non-negative integer, got "-1".*CUSTODY_MAX_RETRIES/,
        );
        assert.ok(!String(err).includes(TOKEN));
        return true;
      },
    );
    assert.throws(
      () =>
        resolveSettings(lookup({ ...base, "custody:baseUrl": "https://x.test" }), {
          CUSTODY_REQUESTS_PER_MINUTE: "fast",
        }),
      /Invalid setting CUSTODY_REQUESTS_PER_MINUTE \(environment variable\): must be a non-negative integer/,
    );
  });

  describe("in the provider runtime", () => {
    const saved = { ...process.env };
    beforeEach(() => {
      delete process.env.CUSTODY_BASE_URL;
      delete process.env.CUSTODY_ACCESS_TOKEN;
    });
    afterEach(() => {
      process.env = saved;
      configure(undefined);
    });

    it("configure() accepts the dynamic provider's Config (get) or a plain map", () => {
      configure({
        get: (key: string) => ({ "custody:baseUrl": "https://a.test", "custody:accessToken": TOKEN })[key],
      });
      assert.equal(currentSettings().baseUrl, "https://a.test");
      configure({ "custody:baseUrl": "https://b.test", "custody:accessToken": TOKEN });
      assert.equal(currentSettings().baseUrl, "https://b.test");
    });

    it("a resource operation without settings fails with the configuration message", async () => {
      configure({});
      await assert.rejects(
        vault.create({ name: "v", type: "evm" }),
        /Missing setting custody:baseUrl: set it with `pulumi config set custody:baseUrl/,
      );
      await assert.rejects(
        vault.read("44444444-4444-4444-8444-444444444444", {}),
        /Missing setting custody:baseUrl/,
      );
    });

    it("the environment is enough when stack config is absent", () => {
      process.env.CUSTODY_BASE_URL = "https://env.test";
      process.env.CUSTODY_ACCESS_TOKEN = TOKEN;
      configure({});
      assert.deepEqual(currentSettings(), { baseUrl: "https://env.test", accessToken: TOKEN });
    });
  });
});
