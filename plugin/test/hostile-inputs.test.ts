// Hostile inputs through the plugin's Check and CheckConfig: names that would change on the way are refused,
// the engine is never handed a raw value to print beside a failure (it prints the property's value itself), and
// each setting is blamed by its own name.
import * as assert from "node:assert/strict";
import * as plugin from "../provider";
import { VAULT_TOKEN } from "../tokens";

type Failure = { property: string; reason: string };

/** Characters a terminal or a log must never get raw from an echoed value. */
const RAW_CONTROL = /[\p{Cc}\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

/**
 * What the engine prints for a check failure (pkg/resource/deploy/step_generator.go, issueCheckFailures): with a
 * property, the input's value itself, raw; without one, the reason alone.
 */
function enginePrints(inputs: Record<string, unknown>, failure: Failure): string {
  return failure.property === ""
    ? `resource 'v' has a problem: ${failure.reason}`
    : `resource 'v's property '${failure.property}' value {${String(inputs[failure.property])}} has a problem: ${failure.reason}`;
}

describe("plugin: hostile inputs", () => {
  describe("Check", () => {
    it("refuses a lone surrogate and the replacement character it may arrive as, naming the input", async () => {
      for (const name of ["ab\ud800c", "ab\udc00", "ab\ufffdc"]) {
        const { failures } = await plugin.check(VAULT_TOKEN, {}, { name, type: "evm" });
        assert.equal(failures.length, 1, JSON.stringify(failures));
        // A lone surrogate is no value to print: the failure then names the input in its reason.
        const printed = enginePrints({ name }, failures[0]);
        assert.match(printed, /'name'.*has a problem: |has a problem: name /);
        assert.match(
          printed,
          /lone surrogate \(U\+D[8C]00\)|U\+FFFD \(the replacement character\) at position 3/,
        );
        assert.doesNotMatch(printed, /[\ud800-\udfff]/);
      }
    });

    for (const name of ["abc\u202edef", "abc\u0000def", "abc\r\nX-Injected: 1", "n".repeat(10_000)]) {
      it(`a bad name ${JSON.stringify(name.slice(0, 20))}… reaches the engine's output escaped and bounded`, async () => {
        const inputs = { name, type: "evm" };
        const { failures } = await plugin.check(VAULT_TOKEN, {}, inputs);
        assert.ok(failures.length > 0);
        for (const failure of failures) {
          const printed = enginePrints(inputs, failure);
          assert.doesNotMatch(printed, RAW_CONTROL, JSON.stringify(printed));
          assert.ok(printed.length < 500, `printed ${printed.length} characters`);
          assert.match(printed, /name /);
        }
      });
    }
  });

  describe("CheckConfig", () => {
    it("a base URL with CR/LF is refused without the engine printing it raw", () => {
      const news = { baseUrl: "https://a.example.com/\r\nX-Injected: 1" };
      const { failures } = plugin.checkConfig(news);
      assert.equal(failures.length, 1);
      const printed = enginePrints(news, failures[0]);
      assert.doesNotMatch(printed, RAW_CONTROL, JSON.stringify(printed));
      assert.match(
        printed,
        /custody:baseUrl: must be a URL without control or formatting characters, got ".*\\r\\nX-Injected: 1"/,
      );
    });

    it("a 10,000-character host is refused at preview, naming custody:baseUrl and the rule, bounded", () => {
      const news = { baseUrl: `https://${"a".repeat(10_000)}.example.com` };
      const { failures } = plugin.checkConfig(news);
      assert.equal(failures.length, 1);
      const printed = enginePrints(news, failures[0]);
      assert.match(printed, /custody:baseUrl: has a host of 10012 characters; a host name is at most 253/);
      assert.ok(printed.length < 500, `printed ${printed.length} characters`);
    });

    it("maxRetries and requestsPerMinute out of range are blamed by their own names", () => {
      const { failures } = plugin.checkConfig({ maxRetries: "1000000000000", requestsPerMinute: 5_000_000 });
      assert.deepEqual(
        failures.map((f) => f.property),
        ["maxRetries", "requestsPerMinute"],
      );
      assert.match(
        failures[0].reason,
        /^Invalid setting custody:maxRetries: must be an integer from 0 to 10/,
      );
      assert.match(
        failures[1].reason,
        /^Invalid setting custody:requestsPerMinute: must be an integer from 0/,
      );
    });

    it("a token the client cannot send is refused by name, and the engine is not handed it to print", () => {
      const news = { accessToken: "Bearer token-for-tests" };
      const { failures } = plugin.checkConfig(news);
      assert.equal(failures.length, 1);
      assert.equal(failures[0].property, "");
      assert.match(failures[0].reason, /^Invalid setting custody:accessToken: must be the bare token/);
      assert.ok(!failures[0].reason.includes("token-for-tests"));
    });

    it("a setting name with a bidi override is shown escaped", () => {
      const { failures } = plugin.checkConfig({ "base\u202eUrl": "x" });
      assert.equal(failures.length, 1);
      assert.equal(failures[0].property, "");
      assert.match(failures[0].reason, /^"custody:base\\u202eUrl" is not a setting/);
    });
  });
});
