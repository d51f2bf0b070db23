// How users see the provider's notices: inside Pulumi's dynamic-provider host they are sent to the engine's
// `Log` RPC as warnings (the CLI prints them in the preview); when the engine cannot be reached they go to
// stderr, which the CLI shows too. A stand-in engine (a gRPC server) and a stand-in host process check both.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LOG_SEVERITY, startFakeEngine } from "./fake-engine";

const runtimeIndex = path.resolve(__dirname, "..", "core", "index.js");

/** Runs a replace `diff` in a process whose main module looks like Pulumi's dynamic-provider host. */
async function diffInHostProcess(dir: string, engineAddress: string): Promise<{ stderr: string }> {
  const hostDir = path.join(dir, "dynamic-provider");
  fs.mkdirSync(hostDir, { recursive: true });
  const host = path.join(hostDir, "index.js");
  fs.writeFileSync(
    host,
    `const runtime = require(${JSON.stringify(runtimeIndex)});
     runtime.vault
       .diff("44444444-4444-4444-8444-444444444444",
             { name: "Treasury", type: "evm", state: "active" },
             { name: "Treasury", type: "solana" })
       .then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`,
  );
  const { stderr } = await promisify(execFile)(process.execPath, [host, engineAddress], { timeout: 30_000 });
  return { stderr };
}

describe("provider notices reach the person running pulumi", () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-custody-notices-"));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("inside the provider host: as a warning through the engine's Log RPC, not on stderr", async () => {
    const engine = await startFakeEngine();
    try {
      const { stderr } = await diffInHostProcess(dir, engine.address);
      assert.equal(engine.logs.length, 1);
      assert.equal(engine.logs[0]?.severity, LOG_SEVERITY.WARNING);
      assert.match(
        engine.logs[0]?.message ?? "",
        /vault "Treasury" .* must be replaced \(type "evm" -> "solana"\)/,
      );
      assert.match(engine.logs[0]?.message ?? "", /ARCHIVED, not deleted/);
      assert.doesNotMatch(stderr, /must be replaced/);
    } finally {
      await engine.stop();
    }
  });

  it("when the engine cannot be reached: on stderr", async () => {
    const engine = await startFakeEngine();
    const unreachable = engine.address;
    await engine.stop();
    const { stderr } = await diffInHostProcess(dir, unreachable);
    assert.match(stderr, /warning: vault "Treasury" .* must be replaced/);
  });
});
