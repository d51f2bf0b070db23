// A settings error is printed once. Pulumi's dynamic-provider host writes `${error}: ${error.stack}` of a failed
// check, diff, read or delete to its stderr, which the CLI prints on the stack's row on top of the error it
// shows on the resource's row (with a stray `.:`, since the error has no stack). A stand-in host process (its
// main module under `dynamic-provider/`, as Pulumi's) does exactly that here; the CLI's own output is checked
// in test/e2e/credentials.test.ts.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodySettingsError, configure, disconnect, setNoticeSink } from "../core/index";
import { vaultProvider } from "../shims/index";

const runtimeIndex = path.resolve(__dirname, "..", "core", "index.js");

/**
 * Runs `check` of three vaults in a stand-in host with `config`, catching each failure as the host does, and
 * returns what the process wrote to stderr and the errors' messages (on stdout, as JSON).
 */
async function checksInHost(
  dir: string,
  config: Record<string, string>,
): Promise<{ stderr: string; messages: string[] }> {
  const hostDir = path.join(dir, "dynamic-provider");
  fs.mkdirSync(hostDir, { recursive: true });
  const host = path.join(hostDir, "index.js");
  fs.writeFileSync(
    host,
    `const runtime = require(${JSON.stringify(runtimeIndex)});
     runtime.configure(${JSON.stringify(config)});
     const messages = [];
     async function check(name) {
       try {
         await runtime.vault.check({}, { name, type: "evm", __provider: "p" });
       } catch (e) {
         // What @pulumi/pulumi/cmd/dynamic-provider does with an error of check, diff, read or delete.
         console.error(\`\${e}: \${e.stack}\`);
         messages.push(e.message);
       }
     }
     Promise.all(["A", "B", "C"].map(check)).then(() => {
       console.log(JSON.stringify(messages));
       process.exit(0);
     });`,
  );
  // The address of an engine that is not there: the host's notices fall back to stderr, none is expected.
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [host, "127.0.0.1:9"], {
    timeout: 30_000,
  });
  return { stderr, messages: JSON.parse(stdout) as string[] };
}

describe("settings errors are printed once", () => {
  let emulator: RunningEmulator;
  let dir: string;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-custody-settings-once-"));
  });
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  });

  it("inside the provider host: nothing on stderr, the full message for one resource, one line for the others", async () => {
    const { stderr, messages } = await checksInHost(dir, {
      "custody:baseUrl": "http://custody.example.com",
      "custody:accessToken": emulator.accessToken,
    });
    assert.equal(stderr, "");
    assert.equal(messages.length, 3);
    const full = messages.filter((m) => /plain http/.test(m));
    assert.equal(full.length, 1, messages.join("\n"));
    for (const pointer of messages.filter((m) => !/plain http/.test(m))) {
      // The CLI sorts diagnostics by resource, so "first" would point at nothing in particular.
      assert.equal(
        pointer,
        "custody:baseUrl does not work: the error of another resource of this run says why and what to do.",
      );
    }
  });

  it("outside the host, the errors stay as they are (nothing is filtered)", async () => {
    const restore = setNoticeSink(() => undefined);
    await disconnect();
    const written: string[] = [];
    const original = console.error;
    try {
      configure({ "custody:baseUrl": "http://custody.example.com", "custody:accessToken": "t" });
      console.error = (...args: unknown[]) => {
        written.push(args.map(String).join(" "));
      };
      assert.ok(vaultProvider.check);
      const err = await vaultProvider.check({}, { name: "A", type: "evm", __provider: "p" }).catch((e) => e);
      assert.ok(err instanceof CustodySettingsError);
      console.error(`${err}: ${err.stack}`);
      assert.equal(written.length, 1);
    } finally {
      console.error = original;
      configure(undefined);
      await disconnect();
      restore();
    }
  });
});
