/** Constructor checks: https only (loopback http allowed), well-formed options, usable signing keys. */
import { strict as assert } from "node:assert";
import { generateKeyPairSync } from "node:crypto";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";
import { CustodyClient, CustodyConfigurationError, CustodyConnectionError, isLoopbackHost } from "../index";
import { evmTransferRequest, evmVault, fixture, IDS, TOKEN, testClient } from "./helpers";

function configError(fn: () => unknown): CustodyConfigurationError {
  try {
    fn();
  } catch (err) {
    assert.ok(
      err instanceof CustodyConfigurationError,
      `expected CustodyConfigurationError, got ${String(err)}`,
    );
    return err;
  }
  assert.fail("expected the constructor to throw");
}

const make =
  (baseUrl: string, extra: Record<string, unknown> = {}) =>
  () =>
    new CustodyClient({ baseUrl, accessToken: TOKEN, ...extra });

describe("sdk client configuration", () => {
  describe("https only", () => {
    for (const url of [
      "http://api.example.com",
      "http://10.0.0.1:8080",
      "http://localhost.example.com",
      "http://127.0.0.1.nip.io",
      "http://[::2]:80",
    ]) {
      it(`refuses ${url}`, () => {
        const err = configError(make(url));
        assert.equal(err.code, "ERR_CUSTODY_INSECURE_URL");
        assert.match(err.message, /plain http/);
        assert.match(err.message, /https:\/\//);
        assert.match(err.message, /loopback/);
      });
    }

    for (const url of [
      "http://127.0.0.1:8080",
      "http://127.1.2.3",
      "http://localhost:3000",
      "http://[::1]:8443",
    ]) {
      it(`allows loopback ${url} explicitly`, () => {
        const client = make(url)();
        assert.equal(client.baseUrl, url.replace(/\/$/, ""));
      });
    }

    it("keeps https as https and strips one trailing slash", () => {
      assert.equal(make("https://api.example.com/")().baseUrl, "https://api.example.com");
      assert.equal(make("https://gw.example.com/custody/")().baseUrl, "https://gw.example.com/custody");
    });

    it("never falls back to plain http: an https URL to an http-only server fails without a request", async () => {
      const server: LoopbackServer = await startLoopbackServer(() => ({ body: evmVault }));
      const https = server.url.replace("http://", "https://");
      const { client } = testClient({ ...server, url: https }, { maxRetries: 0 });
      const err = await client.vaults.get(IDS.vault).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyConnectionError, String(err));
      assert.equal(server.requests.length, 0, "no plain-http request was made");
      await client.close();
      await server.close();
    });

    it("isLoopbackHost", () => {
      assert.ok(isLoopbackHost("127.0.0.1"));
      assert.ok(isLoopbackHost("127.255.0.9"));
      assert.ok(isLoopbackHost("LOCALHOST"));
      assert.ok(isLoopbackHost("[::1]"));
      assert.ok(!isLoopbackHost("128.0.0.1"));
      assert.ok(!isLoopbackHost("127.example.com"));
      assert.ok(!isLoopbackHost("0.0.0.0"));
    });
  });

  describe("base URL shape", () => {
    const cases: [string, RegExp][] = [
      ["", /baseUrl is required/],
      ["api.example.com", /not an absolute URL/],
      ["ftp://api.example.com", /must use https/],
      ["https://api.example.com/?x=1", /query string or fragment/],
      ["https://api.example.com/#top", /query string or fragment/],
      ["https://user:pw@api.example.com", /must not contain credentials/],
      ["https://api.example.com/api/v1", /must not end in \/api\/v1.*pass https:\/\/api\.example\.com$/],
    ];
    for (const [url, message] of cases) {
      it(`rejects ${JSON.stringify(url)}`, () => {
        const err = configError(make(url));
        assert.equal(err.code, "ERR_CUSTODY_INVALID_CONFIG");
        assert.match(err.message, message);
      });
    }
  });

  describe("other options", () => {
    const base = "https://api.example.com";
    it("requires a bare, header-safe access token and never echoes it", () => {
      for (const accessToken of ["", "   ", undefined, 42]) {
        const err = configError(() => new CustodyClient({ baseUrl: base, accessToken } as never));
        assert.match(err.message, /accessToken is required/);
      }
      const bearer = configError(() => new CustodyClient({ baseUrl: base, accessToken: `Bearer ${TOKEN}` }));
      assert.match(bearer.message, /bare token/);
      assert.ok(!bearer.message.includes(TOKEN));
      const spaced = configError(
        () => new CustodyClient({ baseUrl: base, accessToken: `${TOKEN}\r\nx-evil: 1` }),
      );
      assert.match(spaced.message, /whitespace or non-printable/);
      assert.ok(!spaced.message.includes(TOKEN));
    });

    const numeric: [string, unknown, RegExp][] = [
      ["maxRetries", -1, /maxRetries must be an integer from 0 to 10/],
      ["maxRetries", 1.5, /maxRetries must be an integer/],
      ["maxRetries", 11, /from 0 to 10/],
      ["timeoutMs", 0, /timeoutMs must be an integer from 1/],
      ["timeoutMs", "30s", /timeoutMs must be an integer/],
      ["requestsPerMinute", -1, /requestsPerMinute must be a number >= 0/],
      ["requestsPerMinute", Number.NaN, /requestsPerMinute must be a number/],
      ["listConcurrency", 0, /listConcurrency must be an integer from 1 to 16/],
      ["responseValidation", "ignore", /responseValidation must be "throw" or "warn"/],
    ];
    for (const [name, value, message] of numeric) {
      it(`rejects ${name}: ${String(value)}`, () => {
        const err = configError(make(base, { [name]: value }));
        assert.equal(err.code, "ERR_CUSTODY_INVALID_CONFIG");
        assert.match(err.message, message);
      });
    }
  });

  describe("apiUserPrivateKey", () => {
    const base = "https://api.example.com";
    it("accepts PKCS#8 and SEC1 PEM", () => {
      make(base, { apiUserPrivateKey: fixture("api-user-p256.pem") })();
      make(base, { apiUserPrivateKey: fixture("api-user-p256.sec1.pem") })();
      make(base, { apiUserPrivateKey: Buffer.from(fixture("api-user-p256.pem")) })();
    });

    it("rejects keys on other curves or of other types, naming what it got", () => {
      const k1 = generateKeyPairSync("ec", { namedCurve: "secp256k1" }).privateKey.export({
        type: "pkcs8",
        format: "pem",
      });
      const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({
        type: "pkcs8",
        format: "pem",
      });
      const onK1 = configError(make(base, { apiUserPrivateKey: k1 }));
      assert.equal(onK1.code, "ERR_CUSTODY_INVALID_PRIVATE_KEY");
      assert.match(onK1.message, /secp256k1.*needs an EC P-256/);
      const onRsa = configError(make(base, { apiUserPrivateKey: rsa }));
      assert.match(onRsa.message, /an RSA key.*P-256/);
    });

    it("rejects a public key or garbage without quoting it", () => {
      const pub = fixture("api-user-p256.pub.pem");
      const err = configError(make(base, { apiUserPrivateKey: pub }));
      assert.equal(err.code, "ERR_CUSTODY_INVALID_PRIVATE_KEY");
      assert.match(err.message, /not a PEM private key/);
      const body = pub.split("\n")[1];
      assert.ok(!err.message.includes(body));
      configError(
        make(base, { apiUserPrivateKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----" }),
      );
    });

    it("transactions.create without a key fails locally with ERR_CUSTODY_SIGNING_KEY_MISSING", async () => {
      const server = await startLoopbackServer();
      const { client } = testClient(server);
      const err = await client.transactions.create(evmTransferRequest).catch((e: unknown) => e);
      assert.ok(err instanceof CustodyConfigurationError);
      assert.equal(err.code, "ERR_CUSTODY_SIGNING_KEY_MISSING");
      assert.match(err.message, /apiUserPrivateKey/);
      assert.equal(server.requests.length, 0);
      await client.close();
      await server.close();
    });
  });

  it("userAgent is appended to the SDK's own", async () => {
    const server = await startLoopbackServer(() => ({ body: evmVault }));
    const { client } = testClient(server, { userAgent: "acme-deployer/2.1" });
    await client.vaults.get(IDS.vault);
    assert.match(
      String(server.requests[0].headers["user-agent"]),
      /^pulumi-custody-sdk\/\S+ node\/\S+ acme-deployer\/2\.1$/,
    );
    await client.close();
    await server.close();
  });
});
