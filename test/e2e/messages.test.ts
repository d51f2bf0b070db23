// What the person running `pulumi` reads when something goes wrong, as the CLI prints it (run as a user runs
// it, not through the Automation API): data sources whose settings do not work fail in one line each, without a
// stack trace or colour codes; the service's error text arrives escaped (a forged line, control characters and a
// bidi override stay visible as escapes); and a replace's warning sits on the vault's own row and says what
// `up` will do.
import * as assert from "node:assert/strict";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type { Stack } from "@pulumi/pulumi/automation";
import { assertReadable, cliOutput, diagnosticsByRow } from "../support/cli-output";
import {
  ADDRESS_TYPE,
  apiVaultsNamed,
  cliStackExport,
  configureForEmulator,
  declare,
  fixtureStack,
  messagesFixtureDir,
  pulumiCli,
  startTestEmulator,
  stateResources,
  type TestEmulator,
  VAULT_TYPE,
} from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths } from "../support/pulumi-engine";

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
        projectDir: await messagesFixtureDir(),
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

  describe("the service's error text: it reaches `pulumi up` escaped", () => {
    // A service (a proxy in front of the emulator) that answers the create with a forged 400: its detail would
    // add a line to the output, ring the bell, open a C1 CSI, reverse the text after it and colour the rest.
    const forged = "x\r\n    error: forged line\u0007\u009b31m name \u202Egnp.exe\u001b[31m red";
    let proxy: http.Server;
    let stack: Stack;
    before(async () => {
      const upstream = new URL(emulator.baseUrl);
      proxy = http.createServer((req, res) => {
        if (req.method === "POST" && req.url === "/api/v1/vaults") {
          req.resume();
          const body = JSON.stringify({ title: "Bad request", detail: forged });
          res.writeHead(400, {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          });
          res.end(body);
          return;
        }
        const forward = http.request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on("error", () => res.destroy());
        req.pipe(forward);
      });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
      stack = await fixtureStack(emulator, "forged");
      const { port } = proxy.address() as AddressInfo;
      await stack.setConfig("custody:baseUrl", { value: `http://127.0.0.1:${port}` });
      await declare(stack, { vaults: { forged: { name: "e2e-messages Forged", type: "evm" } } });
    });
    after(async () => {
      if (stack) await disposeLocalStack(stack);
      await new Promise((resolve) => proxy?.close(resolve));
    });

    it("CR/LF, BEL, ESC, the C1 CSI and U+202E arrive as escapes, on the vault's one line", async () => {
      const { failed, output } = await cliOutput(stack, ["up", "--yes"]);
      assert.ok(failed, output);
      assertReadable(output);
      // Nothing the service sent reaches the terminal raw: no forged line, no control or bidi character.
      assert.doesNotMatch(output, /^\s*error: forged line/m, output);
      for (const raw of ["\u0007", "\u001b", "\u009b", "\u202e"]) {
        assert.ok(!output.includes(raw), `${JSON.stringify(raw)} raw in ${JSON.stringify(output)}`);
      }
      const lines = diagnosticsByRow(output).get(`${VAULT_TYPE} forged`) ?? [];
      assert.equal(lines.length, 1, output);
      assert.match(
        lines[0] ?? "",
        /^error: Could not create vault "e2e-messages Forged": POST \/api\/v1\/vaults failed with 400 Bad request: x\\r\\n {4}error: forged line\\x07\\x9b31m name \\u202egnp\.exe\\x1b\[31m red/,
      );
      assert.equal((await apiVaultsNamed(emulator.client, ["e2e-messages Forged"])).length, 0);
    });
  });

  describe("a replace's warning: on the vault's row, and what `up` will do", () => {
    const name = "e2e-messages Treasury";
    const vaultRow = `${VAULT_TYPE} treasury`;
    let stack: Stack;
    let originalId: string;
    before(async () => {
      stack = await fixtureStack(emulator, "replace");
      // The fixture program warns on the stack's row when this output is left unset.
      await stack.setConfig("signingKeyPem", { value: "not a key", secret: true });
      await declare(stack, { vaults: { treasury: { name, type: "evm" } } });
      await pulumiCli(stack, ["up", "--yes"]);
      originalId = (await stateResources(stack, VAULT_TYPE)).get("treasury")?.id ?? "";
      assert.ok(originalId);
    });
    after(async () => {
      if (stack) await disposeLocalStack(stack);
    });

    /** The warnings of the preview of `declared`, by row. */
    async function previewWarnings(type: string): Promise<Map<string, string[]>> {
      await declare(stack, { vaults: { treasury: { name, type } } });
      const { failed, output } = await cliOutput(stack, ["preview"]);
      assert.equal(failed, false, output);
      assertReadable(output);
      const rows = diagnosticsByRow(output);
      for (const [row, lines] of rows) {
        if (row !== vaultRow) assert.deepEqual(lines, [], `${row} has diagnostics`);
      }
      return rows;
    }

    it("a replace: the warning is on the vault's row and promises a new vault", async () => {
      const rows = await previewWarnings("solana");
      const lines = rows.get(vaultRow) ?? [];
      assert.equal(lines.length, 1, lines.join("\n"));
      assert.match(
        lines[0] ?? "",
        new RegExp(
          `^warning: vault "${name}" \\(${originalId}\\) must be replaced \\(type "evm" -> "solana"\\)\\.`,
        ),
      );
      assert.match(lines[0] ?? "", /the old vault will be ARCHIVED, not deleted/);
      assert.match(lines[0] ?? "", /a new vault with a new address is created/);
      await pulumiCli(stack, ["up", "--yes"]);
      assert.notEqual((await stateResources(stack, VAULT_TYPE)).get("treasury")?.id, originalId);
    });

    it("its revert: the warning says the original is restored, and `up` restores it", async () => {
      const rows = await previewWarnings("evm");
      const lines = rows.get(vaultRow) ?? [];
      assert.equal(lines.length, 1, lines.join("\n"));
      assert.match(lines[0] ?? "", /must be replaced \(type "solana" -> "evm"\)/);
      assert.ok(
        (lines[0] ?? "").includes(
          `(${originalId}), archived earlier and matching the new declaration, is restored`,
        ),
        lines[0],
      );
      assert.doesNotMatch(lines[0] ?? "", /a new vault with a new address is created/);
      await pulumiCli(stack, ["up", "--yes"]);
      assert.equal((await stateResources(stack, VAULT_TYPE)).get("treasury")?.id, originalId);
    });
  });

  describe("a vault whose name is secret: no warning and no command prints it, the state holds it encrypted", () => {
    // `pulumi.secret(…)` of an environment variable, as a program that writes `pulumi.secret("…")`: not a secret
    // config value, which the CLI itself would mask in every message it prints.
    const name = "e2e-messages Secret Reserve 7";
    const nameVariable = "CUSTODY_E2E_SECRET_VAULT_NAME";
    const vaultRow = `${VAULT_TYPE} treasury`;
    let stack: Stack;
    let originalId: string;
    const printed: string[] = [];

    /** Runs the CLI; what it printed is kept for the final check, and it must succeed. */
    async function run(args: string[]): Promise<string> {
      const { failed, output } = await cliOutput(stack, args);
      printed.push(output);
      assert.equal(failed, false, output);
      assert.ok(!output.includes(name), `pulumi ${args.join(" ")} printed the secret name:\n${output}`);
      return output;
    }

    async function declareType(type: string): Promise<void> {
      await declare(stack, { vaults: { treasury: { name: "", secretNameFromEnv: nameVariable, type } } });
    }

    before(async () => {
      stack = await fixtureStack(emulator, "secret-name");
      await stack.setConfig("signingKeyPem", { value: "not a key", secret: true });
      // The CLI runs with this process's environment, and the program with the CLI's.
      process.env[nameVariable] = name;
      await declareType("evm");
      await run(["up", "--yes"]);
      originalId = (await stateResources(stack, VAULT_TYPE)).get("treasury")?.id ?? "";
      assert.ok(originalId);
      const [vault] = await apiVaultsNamed(emulator.client, [name]);
      assert.equal(vault?.id, originalId, "the vault has the secret name");
    });
    after(async () => {
      delete process.env[nameVariable];
      if (stack) await disposeLocalStack(stack);
    });

    it("a replace: the warning writes [secret] for the name, and `up` replaces", async () => {
      await declareType("solana");
      const lines = diagnosticsByRow(await run(["preview"])).get(vaultRow) ?? [];
      assert.equal(lines.length, 1, lines.join("\n"));
      assert.match(
        lines[0] ?? "",
        new RegExp(
          `^warning: vault "\\[secret\\]" \\(${originalId}\\) must be replaced \\(type "evm" -> "solana"\\)\\.`,
        ),
      );
      assert.match(lines[0] ?? "", /renamed to "\[secret\] \(archived [0-9a-f]{8}\)"/);
      await run(["up", "--yes"]);
      assert.notEqual((await stateResources(stack, VAULT_TYPE)).get("treasury")?.id, originalId);
    });

    it("its revert: the warning names the archived original it restores as [secret] too", async () => {
      await declareType("evm");
      const lines = diagnosticsByRow(await run(["preview"])).get(vaultRow) ?? [];
      assert.equal(lines.length, 1, lines.join("\n"));
      assert.ok(
        (lines[0] ?? "").includes(
          `vault "[secret] (archived ${originalId.slice(0, 8)})" (${originalId}), archived earlier and matching`,
        ),
        lines[0],
      );
      await run(["up", "--yes"]);
      assert.equal((await stateResources(stack, VAULT_TYPE)).get("treasury")?.id, originalId);
    });

    it("`pulumi stack export` holds the name only encrypted, and the flag that keeps it out of notices", async () => {
      const exported = await cliStackExport(stack);
      assert.ok(!exported.includes(name), "the exported state has the name in plain text");
      const vault = (await stateResources(stack, VAULT_TYPE)).get("treasury");
      assert.equal(vault?.outputs?.__nameIsSecret, true, "delete sees the flag in the outputs");
      assert.equal(vault?.inputs?.__nameIsSecret, true);
    });

    it("destroy archives the vault and prints no name; nothing printed all along had it", async () => {
      await run(["destroy", "--yes"]);
      assert.equal((await emulator.client.vaults.get(originalId)).state, "archived");
      assert.ok(printed.length >= 6);
      for (const output of printed) assert.ok(!output.includes(name));
    });
  });

  describe("an address removed from the program: the warning is on the address's row", () => {
    let stack: Stack;
    before(async () => {
      stack = await fixtureStack(emulator, "address-removal");
      await stack.setConfig("signingKeyPem", { value: "not a key", secret: true });
      await declare(stack, {
        vaults: { cold: { name: "e2e-messages Cold", type: "utxo", chain: "bitcoin_testnet" } },
        addresses: { deposit: { vault: "cold", name: "deposit" } },
      });
      await pulumiCli(stack, ["up", "--yes"]);
    });
    after(async () => {
      if (stack) await disposeLocalStack(stack);
    });

    it("`up` without the address: one warning, on the address's row, none on the stack's", async () => {
      await declare(stack, {
        vaults: { cold: { name: "e2e-messages Cold", type: "utxo", chain: "bitcoin_testnet" } },
      });
      const { failed, output } = await cliOutput(stack, ["up", "--yes"]);
      assert.equal(failed, false, output);
      assertReadable(output);
      const rows = diagnosticsByRow(output);
      const addressRow = `${ADDRESS_TYPE} deposit`;
      assert.deepEqual([...rows.keys()], [addressRow], output);
      const lines = rows.get(addressRow) ?? [];
      assert.equal(lines.length, 1, lines.join("\n"));
      assert.match(
        lines[0] ?? "",
        /^warning: vault address "deposit" .* is only removed from the Pulumi state/,
      );
    });
  });
});
