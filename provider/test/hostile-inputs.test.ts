// Hostile inputs: a name that cannot reach the engine as declared is refused in the program, by name and rule;
// what a message echoes of a value is escaped and bounded, and what the engine prints beside a check failure is
// never a raw value; each setting is blamed by its own name (stack config key, environment variable, option).
import * as assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { CustodyClient } from "@pulumi-custody/sdk";
import { CustodySettingsError, checkSetting } from "../core/index";
import { vaultAddressResource, vaultResource } from "../core/resources";
import { settingsFrom } from "../core/settings/sources";
import { dynamicResourceArgs } from "../resources/declare";
import { vaultAddressProvider, vaultProvider } from "../shims/index";

type Failure = { property: string; reason: string };
const PROVIDER_TEXT = "exports.handler = …";
const VAULT_ID = "44444444-4444-4444-8444-444444444444";

/** Characters a terminal or a log must never get raw from an echoed value. */
const RAW_CONTROL = /[\p{Cc}\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

async function vaultFailures(news: Record<string, unknown>): Promise<Failure[]> {
  assert.ok(vaultProvider.check);
  const result = await vaultProvider.check({}, { ...news, __provider: PROVIDER_TEXT });
  return result.failures ?? [];
}

async function addressFailures(news: Record<string, unknown>): Promise<Failure[]> {
  assert.ok(vaultAddressProvider.check);
  const result = await vaultAddressProvider.check({}, { ...news, __provider: PROVIDER_TEXT });
  return result.failures ?? [];
}

/**
 * What the engine prints for a check failure (pkg/resource/deploy/step_generator.go, issueCheckFailures): with a
 * property, the input's value itself, raw; without one, the reason alone.
 */
function enginePrints(inputs: Record<string, unknown>, failure: Failure): string {
  return failure.property === ""
    ? `resource 'v' has a problem: ${failure.reason}`
    : `resource 'v's property '${failure.property}' value {${String(inputs[failure.property])}} has a problem: ${failure.reason}`;
}

describe("hostile inputs", () => {
  describe("names never change in silence", () => {
    for (const name of ["ab\ud800c", "ab\udc00"]) {
      it(`a Vault named ${JSON.stringify(name)} is refused in the program, before registration`, () => {
        assert.throws(
          () => dynamicResourceArgs(vaultResource, "v", { name, type: "evm" }, undefined),
          (err: Error) => {
            // A RunError: the program's host prints its message alone, without a stack trace.
            assert.ok(pulumi.RunError.isInstance(err), String(err));
            assert.match(
              err.message,
              /^Vault "v": name must be well-formed Unicode text: position 3 is a lone surrogate \(U\+D[8C]00\)/,
            );
            assert.doesNotMatch(err.message, /\n/);
            return true;
          },
        );
      });
    }

    it("a lone surrogate in a list input, or in a VaultAddress's name, is refused with its position in the list", () => {
      assert.throws(
        () =>
          dynamicResourceArgs(
            vaultResource,
            "v",
            { name: "ok", type: "evm", vaultGroupIds: [VAULT_ID, "x\udbff"] },
            undefined,
          ),
        /vaultGroupIds\[1\] must be well-formed Unicode text: position 2/,
      );
      assert.throws(
        () =>
          dynamicResourceArgs(vaultAddressResource, "a", { vaultId: VAULT_ID, name: "\udfff" }, undefined),
        /VaultAddress "a": name must be well-formed Unicode text: position 1/,
      );
    });

    it("well-formed text passes as it is (a surrogate pair is one character)", () => {
      const [, props] = dynamicResourceArgs(
        vaultResource,
        "v",
        { name: "Treasury 💰", type: "evm" },
        undefined,
      );
      assert.equal(props.name, "Treasury 💰");
    });

    describe("a name given as an Output or a Promise is checked once it resolves, and sent as its refusal", () => {
      /** What the program hands the engine for these props (the registration's own serialization). */
      function sent(props: Record<string, unknown>): Promise<Record<string, unknown>> {
        return pulumi.runtime.serializeProperties("hostile-inputs", props);
      }

      function resolvedValue<T>(output: pulumi.Output<T>): Promise<T> {
        return new Promise((resolve) => output.apply(resolve));
      }

      /** What `check` says of what was sent: the engine prints each reason on the resource's row. */
      async function checkFailures(
        provider: typeof vaultProvider,
        props: Record<string, unknown>,
      ): Promise<Failure[]> {
        const values = await sent(props);
        assert.ok(provider.check);
        const result = await provider.check({}, { ...values, __provider: PROVIDER_TEXT });
        return result.failures ?? [];
      }

      const refusal = (property: string, position: number, unit = "D[89A-F][0-9A-F]{2}") =>
        new RegExp(
          `^${property.replace(/[[\]]/g, "\\$&")} must be well-formed Unicode text: position ${position} is a lone surrogate \\(U\\+${unit}\\), which encodes no character and cannot be sent as it is declared$`,
        );

      /** One failure, without a property (no value printed beside it), with the reason `pattern`. */
      function assertRefused(failures: Failure[], pattern: RegExp): void {
        assert.equal(failures.length, 1, JSON.stringify(failures));
        assert.equal(failures[0].property, "");
        assert.match(failures[0].reason, pattern);
      }

      const deferred: Array<{ title: string; name: () => pulumi.Input<string> }> = [
        { title: "pulumi.output(…)", name: () => pulumi.output("ab\ud800c") },
        { title: "a Promise", name: () => Promise.resolve("ab\udc00") },
        { title: "an apply's result", name: () => pulumi.output("ab").apply((n) => `${n}\udfff`) },
        { title: "a secret", name: () => pulumi.secret("ab\ud800c") },
      ];
      for (const { title, name } of deferred) {
        it(`a lone surrogate in ${title} is never sent; check fails the resource by name and rule`, async () => {
          const [, props] = dynamicResourceArgs(vaultResource, "v", { name: name(), type: "evm" }, undefined);
          const values = await sent(props);
          assert.doesNotMatch(JSON.stringify(values), /ab(c|\\u[dD][89a-fA-F]|\ufffd)/);
          assertRefused(await checkFailures(vaultProvider, props), refusal("name", 3));
        });
      }

      it("the registration does not fail: the resource's outputs are not rejected", async () => {
        const [, props] = dynamicResourceArgs(
          vaultResource,
          "v",
          { name: pulumi.output("ab").apply((n) => `${n}\ud800`), type: "evm" },
          undefined,
        );
        // A rejection here would fail the registration and reject every output of the resource.
        await sent(props);
        assert.equal(await pulumi.isSecret(props.name as pulumi.Output<string>), false);
      });

      it("a refusal's reason reaches the engine with its control characters escaped, as every reason does", async () => {
        assert.ok(vaultProvider.check);
        const forged = { __refusedInProgram: "name bad\u001b[31m\r\nerror: forged line" };
        const result = await vaultProvider.check(
          {},
          { name: forged, type: "evm", __provider: PROVIDER_TEXT },
        );
        assertRefused(result.failures ?? [], /^name bad\\x1b\[31m\\r\\nerror: forged line$/);
        assert.doesNotMatch(result.failures?.[0].reason ?? "", RAW_CONTROL);
      });

      it("inside a list, an Output with a lone surrogate is refused with its position in the list", async () => {
        const [, props] = dynamicResourceArgs(
          vaultResource,
          "v",
          { name: "ok", type: "evm", vaultGroupIds: [VAULT_ID, pulumi.output("x\udbff")] },
          undefined,
        );
        assertRefused(await checkFailures(vaultProvider, props), refusal("vaultGroupIds[1]", 2));
        const [, listProps] = dynamicResourceArgs(
          vaultResource,
          "v",
          { name: "ok", type: "evm", vaultGroupIds: Promise.resolve([VAULT_ID, "\ud800"]) },
          undefined,
        );
        assertRefused(await checkFailures(vaultProvider, listProps), refusal("vaultGroupIds[1]", 1));
      });

      it("a VaultAddress's name from another resource's output is refused the same way", async () => {
        const [, props] = dynamicResourceArgs(
          vaultAddressResource,
          "a",
          { vaultId: pulumi.output(VAULT_ID), name: pulumi.output("Treasury").apply((n) => `${n} \udc00`) },
          undefined,
        );
        assertRefused(await checkFailures(vaultAddressProvider, props), refusal("name", 10, "DC00"));
      });

      it("a well-formed Output, Promise or secret passes unchanged, and a secret stays secret", async () => {
        const [, props] = dynamicResourceArgs(
          vaultResource,
          "v",
          {
            name: pulumi.secret("Treasury 💰"),
            type: Promise.resolve("evm"),
            vaultGroupIds: [pulumi.output(VAULT_ID)],
          },
          undefined,
        );
        const name = props.name as pulumi.Output<string>;
        assert.equal(await pulumi.isSecret(name), true);
        assert.equal(await resolvedValue(name), "Treasury 💰");
        const values = await sent(props);
        assert.equal(values.type, "evm");
        assert.deepEqual(values.vaultGroupIds, [VAULT_ID]);
        const plain = pulumi.output("Treasury");
        const [, plainProps] = dynamicResourceArgs(
          vaultResource,
          "v",
          { name: plain, type: "evm" },
          undefined,
        );
        assert.equal(await pulumi.isSecret(plainProps.name as pulumi.Output<string>), false);
        assert.equal(await resolvedValue(plainProps.name as pulumi.Output<string>), "Treasury");
      });
    });

    it("check refuses a lone surrogate and a replacement character (what a lone surrogate may arrive as)", async () => {
      for (const name of ["ab\ud800c", "ab\ufffdc"]) {
        const failures = await vaultFailures({ name, type: "evm" });
        assert.equal(failures.length, 1, JSON.stringify(failures));
        assert.match(
          failures[0].reason,
          /well-formed Unicode|U\+FFFD \(the replacement character\) at position 3/,
        );
      }
    });
  });

  describe("no raw control characters and no unbounded values in messages", () => {
    const hostile = [
      { title: "a bidi override", name: "abc\u202edef", escaped: /\\u202e/ },
      { title: "a NUL", name: "abc\u0000def", escaped: /\\0|\\x00/ },
      { title: "a CR/LF that would forge a line", name: "abc\r\nX-Injected: 1", escaped: /\\r\\n/ },
    ];
    for (const { title, name } of hostile) {
      it(`a name with ${title} is refused, and the engine is not handed the raw value to print`, async () => {
        const inputs = { name, type: "evm" };
        const failures = await vaultFailures(inputs);
        assert.ok(failures.length > 0);
        for (const failure of failures) {
          const printed = enginePrints(inputs, failure);
          assert.doesNotMatch(printed, RAW_CONTROL, printed);
          assert.match(printed, /name /);
        }
      });
    }

    it("a 10,000-character name is refused, and nothing prints it whole", async () => {
      const inputs = { name: "n".repeat(10_000), type: "evm" };
      const failures = await vaultFailures(inputs);
      assert.ok(failures.length > 0);
      for (const failure of failures) {
        const printed = enginePrints(inputs, failure);
        assert.ok(printed.length < 500, `printed ${printed.length} characters`);
        assert.match(printed, /name must be at most 256 bytes/);
      }
    });

    it("an enum value is echoed escaped and bounded", async () => {
      const inputs = { name: "ok", type: `evm\u202e${"x".repeat(500)}` };
      const failures = await vaultFailures(inputs);
      const type = failures.find((f) => f.reason.includes("must be one of"));
      assert.ok(type, JSON.stringify(failures));
      const printed = enginePrints(inputs, type);
      assert.doesNotMatch(printed, RAW_CONTROL);
      assert.match(printed, /type must be one of .*got "evm\\u202exxx.*…"/);
      assert.ok(printed.length < 500, `printed ${printed.length} characters`);
    });

    it("an input name the resource does not have is shown escaped", async () => {
      const inputs = { vaultId: VAULT_ID, "na\u202eme": "x" };
      const failures = await addressFailures(inputs);
      assert.equal(failures.length, 1);
      assert.equal(failures[0].property, "");
      assert.match(failures[0].reason, /^input "na\\u202eme" is not an input/);
    });

    it("a short, printable bad value keeps its property (the engine prints it as it is)", async () => {
      const failures = await vaultFailures({ name: " x", type: "evm" });
      assert.deepEqual(
        failures.map((f) => f.property),
        ["name"],
      );
    });
  });

  describe("each setting is blamed by its own name", () => {
    const TOKEN = "token-for-tests";
    const config = (values: Record<string, string>) => (key: string) => values[key];
    const base = { "custody:baseUrl": "https://custody.example.com", "custody:accessToken": TOKEN };

    function settingsError(run: () => unknown): CustodySettingsError {
      try {
        run();
      } catch (err) {
        assert.ok(err instanceof CustodySettingsError, String(err));
        return err;
      }
      assert.fail("no error");
    }

    it("custody:maxRetries out of the client's range names custody:maxRetries, at check and at resolution", () => {
      assert.match(
        String(checkSetting("maxRetries", "1000000000000")),
        /^Invalid setting custody:maxRetries: must be an integer from 0 to 10, got "1000000000000"/,
      );
      const err = settingsError(() =>
        settingsFrom({ config: config({ ...base, "custody:maxRetries": "1000000000000" }), env: {} }),
      );
      assert.equal(err.setting, "custody:maxRetries");
      assert.match(err.message, /custody:maxRetries: must be an integer from 0 to 10/);
      assert.doesNotMatch(err.message, /baseUrl/i);
    });

    it("the settings check accepts exactly what the client accepts (maxRetries 10 yes, 11 no)", () => {
      assert.equal(checkSetting("maxRetries", "10"), undefined);
      assert.doesNotThrow(
        () =>
          new CustodyClient({ baseUrl: "https://custody.example.com", accessToken: TOKEN, maxRetries: 10 }),
      );
      assert.match(String(checkSetting("maxRetries", "11")), /custody:maxRetries/);
      assert.throws(
        () =>
          new CustodyClient({ baseUrl: "https://custody.example.com", accessToken: TOKEN, maxRetries: 11 }),
      );
    });

    it("requestsPerMinute beyond any quota is refused by its own name", () => {
      assert.match(
        String(checkSetting("requestsPerMinute", "99999999999999999999999")),
        /^Invalid setting custody:requestsPerMinute: must be an integer from 0 to 1000000/,
      );
    });

    it("a base URL with a 10,000-character host is refused at preview, naming custody:baseUrl and the rule", () => {
      const long = `https://${"a".repeat(10_000)}.example.com`;
      const problem = String(checkSetting("baseUrl", long));
      assert.match(
        problem,
        /^Invalid setting custody:baseUrl: has a host of 10012 characters; a host name is at most 253/,
      );
      assert.match(
        String(checkSetting("baseUrl", `https://custody.example.com/${"p".repeat(10_000)}`)),
        /^Invalid setting custody:baseUrl: must be at most 512 characters \(got 10028: "https:\/\/custody\.example\.com\/p+…"\)/,
      );
      assert.match(
        String(checkSetting("baseUrl", `https://${"abcde.".repeat(50)}com`)),
        /^Invalid setting custody:baseUrl: has a host of 303 characters; a host name is at most 253/,
      );
      assert.ok(problem.length < 400, `${problem.length} characters`);
      assert.match(
        String(checkSetting("baseUrl", `https://${"a".repeat(64)}.example.com`)),
        /^Invalid setting custody:baseUrl: has a host label of 64 characters \("a{20}…"\); each dot-separated label of a host name is at most 63/,
      );
      const manyLabels = `https://${Array.from({ length: 60 }, () => "abcde").join(".")}`;
      assert.match(
        String(checkSetting("baseUrl", manyLabels)),
        /host of 359 characters; a host name is at most 253/,
      );
      assert.match(
        String(checkSetting("baseUrl", "https://-bad-.example.com")),
        /not a valid host name label/,
      );
      assert.equal(checkSetting("baseUrl", "https://api.example-custody.com/prefix"), undefined);
      assert.equal(checkSetting("baseUrl", "http://127.0.0.1:8080"), undefined);
      assert.equal(checkSetting("baseUrl", "http://[::1]:8080"), undefined);
    });

    it("a base URL with CR/LF is refused with the line break escaped (no forged line)", () => {
      const problem = String(checkSetting("baseUrl", "https://a.example.com/\r\nX-Injected: 1"));
      assert.match(
        problem,
        /^Invalid setting custody:baseUrl: must be a URL without control or formatting characters/,
      );
      assert.match(problem, /\\r\\nX-Injected: 1/);
      assert.doesNotMatch(problem, RAW_CONTROL);
    });

    it("a token the client cannot send is blamed on custody:accessToken, without showing it", () => {
      const secret = "abc\r\ndef-secret";
      const problem = String(checkSetting("accessToken", secret));
      assert.match(problem, /^Invalid setting custody:accessToken: must be printable ASCII without spaces/);
      assert.ok(!problem.includes("def-secret"));
      const err = settingsError(() =>
        settingsFrom({ config: config({ ...base, "custody:accessToken": "Bearer abc" }), env: {} }),
      );
      assert.equal(err.setting, "custody:accessToken");
      assert.match(err.message, /custody:accessToken: must be the bare token/);
    });

    it("a value from the environment names the variable; a value from an option names the option", () => {
      const fromEnv = settingsError(() =>
        settingsFrom({ config: config(base), env: { CUSTODY_MAX_RETRIES: "99" } }),
      );
      assert.match(
        fromEnv.message,
        /^Invalid setting CUSTODY_MAX_RETRIES \(environment variable\): must be an integer from 0 to 10/,
      );
      const fromEnvUrl = settingsError(() =>
        settingsFrom({ env: { CUSTODY_BASE_URL: "https://x\u202e.test", CUSTODY_ACCESS_TOKEN: TOKEN } }),
      );
      assert.match(
        fromEnvUrl.message,
        /^Invalid setting CUSTODY_BASE_URL \(environment variable\): .*\\u202e/,
      );
      const fromOption = settingsError(() =>
        settingsFrom({ overrides: { baseUrl: "ftp://x.test" }, config: config(base), env: {} }),
      );
      assert.match(fromOption.message, /^Invalid setting the baseUrl option: must be an https:\/\/ URL/);
    });
  });
});
