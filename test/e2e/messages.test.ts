// What the person running `pulumi` reads when something goes wrong, as the CLI prints it (run as a user runs
// it, not through the Automation API): data sources whose settings do not work fail in one line each, without a
// stack trace or colour codes, and a replace's warning sits on the vault's own row and says what `up` will do.
import * as assert from "node:assert/strict";
import type { Stack } from "@pulumi/pulumi/automation";
import { assertReadable, cliOutput, diagnosticsByRow } from "../support/cli-output";
import { configureForEmulator, startTestEmulator, type TestEmulator } from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";

describe("messages the CLI prints (real engine, emulator)", () => {
  let emulator: TestEmulator;

  before(async function () {
    this.timeout(10 * 60_000);
    await enginePaths();
    emulator = await startTestEmulator();
  });
  after(async () => {
    if (emulator) await emulator.stop();
  });

  describe("data sources whose settings do not work: one line each, no stack trace", () => {
    const lookups = ["getBlockchains", "getUsers", "getVaultsOutput", "getUserGroupsOutput"];
    let stack: Stack;
    before(async () => {
      stack = await createLocalStack({
        projectDir: repoPath("test", "fixtures", "messages"),
        stackName: "data-sources",
      });
      await configureForEmulator(stack, emulator, { lookups: { value: JSON.stringify(lookups) } });
    });
    after(async () => {
      if (stack) await disposeLocalStack(stack);
    });
    afterEach(async () => configureForEmulator(stack, emulator));

    it("the program runs with working settings", async () => {
      const { failed, output } = await cliOutput(stack, ["preview"]);
      assert.equal(failed, false, output);
    });

    it("a refused token: each failed data source is one line naming the setting, on the stack's row", async () => {
      await stack.setConfig("custody:accessToken", { value: "not-a-valid-token", secret: true });
      const { failed, output } = await cliOutput(stack, ["preview"]);
      assert.ok(failed, output);
      assertReadable(output);
      assert.doesNotMatch(output, /not-a-valid-token/);
      const rows = diagnosticsByRow(output);
      assert.deepEqual([...rows.keys()], ["pulumi:pulumi:Stack custody-messages-data-sources"], output);
      const lines = rows.get("pulumi:pulumi:Stack custody-messages-data-sources") ?? [];
      assert.ok(lines.length >= 1 && lines.length <= lookups.length, lines.join("\n"));
      for (const line of lines) {
        assert.match(
          line,
          /^error: get\w+: The custody API at http:\/\/127\.0\.0\.1:\d+ refused the access token from stack config custody:accessToken \(401 Unauthorized\): it is wrong, expired or revoked\. Set a valid one with `pulumi config set --secret custody:accessToken <token>` or the CUSTODY_ACCESS_TOKEN environment variable\.$/,
        );
      }
    });

    it("plain http to a host that is not loopback (ERR_CUSTODY_INSECURE_URL): one line each, naming custody:baseUrl", async () => {
      await stack.setConfig("custody:baseUrl", { value: "http://custody.example.com" });
      const { failed, output } = await cliOutput(stack, ["preview"]);
      assert.ok(failed, output);
      assertReadable(output);
      const rows = diagnosticsByRow(output);
      const lines = rows.get("pulumi:pulumi:Stack custody-messages-data-sources") ?? [];
      assert.ok(lines.length >= 1, output);
      for (const line of lines) {
        assert.match(
          line,
          /^error: get\w+: Invalid base URL from stack config custody:baseUrl: baseUrl http:\/\/custody\.example\.com uses plain http; the custody API requires https:\/\/\./,
        );
      }
    });
  });
});
