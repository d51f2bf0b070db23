// Credentials as a pipeline meets them, with the real engine: a token rotated in stack config, a read-only
// token given through the environment (the gitops example), and wrong settings, which must fail `preview`
// early with one clear message.
import * as assert from "node:assert/strict";
import type { Stack } from "@pulumi/pulumi/automation";
import { assertReadable, cliOutput, diagnosticsByRow } from "../support/cli-output";
import { declare, fixtureStack, startTestEmulator, type TestEmulator } from "../support/e2e-custody";
import { disposeLocalStack, enginePaths } from "../support/pulumi-engine";

const desired = {
  vaults: {
    main: { name: "e2e-credentials Main", type: "evm" },
    cold: { name: "e2e-credentials Cold", type: "utxo", chain: "bitcoin_testnet" },
  },
  addresses: { deposits: { vault: "cold", addressType: "segwit" } },
};

/** What a failed CLI run printed. */
function outputOf(err: unknown): string {
  const e = err as { stdout?: string; stderr?: string; message?: string };
  return `${e.stdout ?? ""}\n${e.stderr ?? ""}\n${e.message ?? ""}`;
}

async function rejection(run: Promise<unknown>): Promise<string> {
  const outcome = await run.then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(outcome, "the operation was expected to fail");
  return outputOf(outcome);
}

describe("credentials (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;

  before(async function () {
    this.timeout(10 * 60_000);
    await enginePaths();
    emulator = await startTestEmulator();
    stack = await fixtureStack(emulator, "credentials");
    await declare(stack, desired);
    await stack.up();
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
  });

  describe("a token rotated in stack config", () => {
    let fresh: string;
    before(async () => {
      fresh = await emulator.control.rotateToken();
      await stack.setConfig("custody:accessToken", { value: fresh, secret: true });
    });

    // A plain refresh, and the drift check, as a user runs them right after the rotation: the provider is configured
    // from the state, whose token is the old one. The message says which token and the commands that work.
    for (const args of [
      ["refresh", "--yes"],
      ["preview", "--refresh", "--expect-no-changes"],
    ]) {
      it(`a plain \`pulumi ${args.join(" ")}\` names the token the state recorded and the exact commands`, async () => {
        const { failed, output } = await cliOutput(stack, args);
        assert.ok(failed, output);
        assertReadable(output);
        const rows = [...diagnosticsByRow(output)].filter(([row]) => !row.startsWith("pulumi:pulumi:Stack "));
        assert.ok(rows.length >= 1, output);
        for (const [row, lines] of rows) assert.equal(lines.length, 1, `${row}: ${lines.join("\n")}`);
        const lines = rows.flatMap(([, l]) => l);
        const full = lines.filter((line) => /refused/.test(line));
        assert.equal(full.length, 1, lines.join("\n"));
        const message = full[0] ?? "";
        assert.match(
          message,
          /^error: (Preview failed: )?The custody API at http:\/\/127\.0\.0\.1:\d+ refused the access token custody:accessToken that the provider was configured with \(401 Unauthorized\)\./,
        );
        assert.match(
          message,
          /configure the provider from the state, with the custody:accessToken the last `pulumi up` recorded/,
        );
        assert.match(message, /`pulumi refresh --run-program`/);
        assert.match(message, /`pulumi preview --refresh --run-program --expect-no-changes`/);
        assert.match(message, /run `pulumi up` once/);
        for (const line of lines.filter((l) => !/refused/.test(l))) {
          assert.match(
            line,
            /custody:accessToken does not work: the error of another resource of this run says why/,
          );
        }
      });
    }

    it("the same refresh works when CUSTODY_ACCESS_TOKEN holds the new token", async () => {
      stack.workspace.envVars.CUSTODY_ACCESS_TOKEN = fresh;
      try {
        const preview = await stack.preview({ refresh: true, expectNoChanges: true });
        assert.match(
          preview.stdout,
          /custody:accessToken was refused \(401\), so CUSTODY_ACCESS_TOKEN is used/,
        );
      } finally {
        delete stack.workspace.envVars.CUSTODY_ACCESS_TOKEN;
      }
    });

    it("the commands the message names work: `pulumi refresh --run-program` and the drift check with --run-program", async () => {
      for (const args of [
        ["refresh", "--yes", "--run-program"],
        ["preview", "--refresh", "--run-program", "--expect-no-changes"],
      ]) {
        const { failed, output } = await cliOutput(stack, args);
        assert.equal(failed, false, output);
      }
    });

    it("after one up, the plain drift check works again", async () => {
      await stack.up();
      await stack.preview({ refresh: true, expectNoChanges: true });
    });
  });

  it("a read-only token through the environment, as in the gitops example, passes the drift check", async () => {
    await stack.removeConfig("custody:accessToken");
    const viewer = await emulator.control.rotateToken("viewer");
    stack.workspace.envVars.CUSTODY_ACCESS_TOKEN = viewer;
    try {
      // The state still records the token of the last up; refresh with --run-program uses the current setting.
      await stack.preview({ refresh: true, runProgram: true, expectNoChanges: true });
    } finally {
      delete stack.workspace.envVars.CUSTODY_ACCESS_TOKEN;
      await stack.setConfig("custody:accessToken", { value: emulator.accessToken, secret: true });
    }
  });

  describe("wrong settings fail preview before anything changes, naming the setting", () => {
    const changed = { vaults: { ...desired.vaults, extra: { name: "e2e-credentials Extra", type: "evm" } } };
    beforeEach(async () => declare(stack, { ...desired, ...changed }));
    afterEach(async () => {
      await stack.setConfig("custody:accessToken", { value: emulator.accessToken, secret: true });
      await stack.setConfig("custody:baseUrl", { value: emulator.baseUrl });
      await declare(stack, desired);
    });

    it("a wrong token", async () => {
      await stack.setConfig("custody:accessToken", { value: "wrong-token", secret: true });
      const output = await rejection(stack.preview());
      assert.match(
        output,
        /refused the access token custody:accessToken that the provider was configured with/,
      );
      assert.match(
        output,
        /Otherwise the token is wrong, expired or revoked: set a valid one with `pulumi config set/,
      );
      assert.doesNotMatch(output, /wrong-token/);
    });

    it("a base URL that does not serve the API", async () => {
      await stack.setConfig("custody:baseUrl", { value: `${emulator.baseUrl}/not-the-api` });
      const output = await rejection(stack.preview());
      assert.match(output, /does not serve the custody API: GET \/api\/v1\/vaults answered 404/);
    });

    it("a wrong base URL on a refresh: the message once, one pointer to it on each other resource, nothing on the stack's row", async () => {
      await stack.setConfig("custody:baseUrl", { value: "http://custody.example.com" });
      // --run-program: the provider takes the current stack config, not the one the last `up` recorded.
      const { failed, output } = await cliOutput(stack, ["refresh", "--yes", "--run-program"]);
      assert.ok(failed, output);
      assertReadable(output);
      const rows = [...diagnosticsByRow(output)];
      const stackRows = rows.filter(([row]) => row.startsWith("pulumi:pulumi:Stack "));
      for (const [, lines] of stackRows) {
        assert.deepEqual(
          lines.filter((line) => /custody|Custody|\.:$/.test(line)),
          [],
          "the stack's row repeats the error",
        );
      }
      const resourceRows = rows.filter(([row]) => !row.startsWith("pulumi:pulumi:Stack "));
      // Each resource whose refresh started fails (the engine stops starting others after the first failure).
      assert.ok(resourceRows.length >= 1, output);
      // One message per resource. A resource whose read failed in the refresh's preview and again in its update
      // (the engine prefixes the first with "Preview failed: ") shows that one message under each phase.
      for (const [row, lines] of resourceRows) {
        const messages = new Set(lines.map((line) => line.replace(/^error: Preview failed: /, "error: ")));
        assert.equal(messages.size, 1, `${row}: ${lines.join("\n")}`);
        assert.ok(lines.length <= 2, `${row}: ${lines.join("\n")}`);
      }
      const lines = resourceRows.flatMap(([, l]) => l);
      const full = lines.filter((line) => /plain http/.test(line));
      const rowsWithFull = resourceRows.filter(([, l]) => l.some((line) => /plain http/.test(line)));
      assert.equal(rowsWithFull.length, 1, lines.join("\n"));
      assert.match(
        full[0] ?? "",
        /^error: (Preview failed: )?Invalid base URL from stack config custody:baseUrl: baseUrl http:\/\/custody\.example\.com uses plain http/,
      );
      for (const line of lines.filter((l) => !/plain http/.test(l))) {
        assert.match(
          line,
          /^error: (Preview failed: )?custody:baseUrl does not work: the error of another resource of this run says why and what to do\.$/,
        );
      }
    });

    it("plain http to a host that is not loopback", async () => {
      await stack.setConfig("custody:baseUrl", { value: "http://custody.example.com" });
      const output = await rejection(stack.preview());
      assert.match(output, /Invalid base URL from stack config custody:baseUrl: .*plain http/);
    });
  });
});
