// What the provider process loads: the serialized provider requires `pulumi-custody/provider-runtime/vault`
// (provider/shims), and a create, a read and a check then run. Nothing of the emulator, a server or the tests
// may come along, and no signing code: the provider never signs, and the sdk loads signing only for a client
// that has a key. Nor undici: the provider's client uses the sdk's `node:http` transport (BENCHMARKS.md,
// figure 5, says what undici's WebAssembly parser cost the provider process's peak memory).
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { type CliProcess, startCli } from "../../support/emulator-cli";

const repoRoot = path.resolve(__dirname, "..", "..", "..", "..");

/** Runs `script` in a fresh Node.js process in the repository root; returns the modules it loaded. */
async function modulesLoadedBy(script: string, env: Record<string, string>): Promise<string[]> {
  const report = `${script}
    .then(() => console.log(JSON.stringify(Object.keys(require.cache))), (e) => { console.error(e); process.exit(1); });`;
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", report], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
  return (JSON.parse(stdout.trim().split("\n").pop()!) as string[]).map((file) =>
    path.relative(repoRoot, file).split(path.sep).join("/"),
  );
}

describe("the provider process", function () {
  this.timeout(60_000);
  let emulator: CliProcess;
  before(async () => {
    emulator = await startCli([]);
  });
  after(async () => {
    await emulator?.stop();
  });

  function settings(): Record<string, string> {
    return {
      CUSTODY_BASE_URL: emulator.info.baseUrl,
      CUSTODY_ACCESS_TOKEN: emulator.info.accessToken,
      CUSTODY_REQUESTS_PER_MINUTE: "0",
    };
  }

  it("loads no emulator, server, test, signing or undici code for a check, a create and a read", async () => {
    const loaded = await modulesLoadedBy(
      `const provider = require("pulumi-custody/provider-runtime/vault");
      (async () => {
        const checked = await provider.check({}, { name: "modules", type: "utxo", chain: "bitcoin_testnet" });
        if (checked.failures?.length) throw new Error(JSON.stringify(checked.failures));
        const created = await provider.create(checked.inputs);
        await provider.read(created.id, created.outs);
      })()`,
      settings(),
    );
    // It did the work through the sdk's client (the workspace package, linked): the check below is not vacuous.
    assert.ok(loaded.includes("sdk/dist/custody-client.js"), loaded.join("\n"));
    assert.ok(loaded.includes("node_modules/pulumi-custody/dist/core/vault/lifecycle.js"));
    const unwanted = loaded.filter((file) =>
      /(^|\/)(emulator|test|bench|plugin|policy|cli)\/|(^|\/)sdk\/dist\/signing\/|node_modules\/(fastify|light-my-request|@noble|ajv-formats|mocha|undici|@pulumi\/policy)\//.test(
        file,
      ),
    );
    assert.deepEqual(unwanted, []);
  });

  it("a client given a key loads the signing modules (what the check above would see)", async () => {
    const loaded = await modulesLoadedBy(
      `const { CustodyClient } = require("@pulumi-custody/sdk");
      (async () => new CustodyClient({
        baseUrl: process.env.CUSTODY_BASE_URL, accessToken: "t", apiUserPrivateKey: process.env.KEY,
      }))()`,
      { ...settings(), KEY: emulator.info.apiUserPrivateKeyPem },
    );
    assert.ok(loaded.includes("sdk/dist/signing/sign-request.js"), loaded.join("\n"));
  });
});
