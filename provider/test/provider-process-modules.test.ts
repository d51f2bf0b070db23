// What the provider process loads: the serialized provider requires `pulumi-custody/provider-runtime/vault`
// (provider/shims), and a create, a read and a check then run. Nothing of the emulator, a server or the tests
// may come along, and no signing code: the provider never signs, and the sdk loads signing only for a client
// that has a key. Nor undici: the provider's client uses the sdk's `node:http` transport (BENCHMARKS.md,
// figure 5, says what undici's WebAssembly parser cost the provider process's peak memory).
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { type CliProcess, startCli } from "@pulumi-custody/testing";
import { installedPackage } from "./installed-package";

/** The nearest package.json above `dir` that names a package: that package's directory and name. */
const packageRoots = new Map<string, { dir: string; name: string } | undefined>();
function packageRoot(dir: string): { dir: string; name: string } | undefined {
  if (!packageRoots.has(dir)) {
    const manifest = path.join(dir, "package.json");
    const name: unknown = fs.existsSync(manifest)
      ? JSON.parse(fs.readFileSync(manifest, "utf8")).name
      : undefined;
    const parent = path.dirname(dir);
    packageRoots.set(
      dir,
      typeof name === "string" ? { dir, name } : parent === dir ? undefined : packageRoot(parent),
    );
  }
  return packageRoots.get(dir);
}

/**
 * A loaded file as `<package name>/<path in the package>`: the path after the last `node_modules/`, or for a
 * linked package (resolved to its own directory) the path in the package that its package.json names, e.g.
 * `@pulumi-custody/sdk/dist/custody-client.js`.
 */
function packagePath(file: string): string {
  const posix = file.split(path.sep).join("/");
  const nodeModules = posix.lastIndexOf("/node_modules/");
  if (nodeModules >= 0) return posix.slice(nodeModules + "/node_modules/".length);
  const root = packageRoot(path.dirname(file));
  return root ? `${root.name}/${path.relative(root.dir, file).split(path.sep).join("/")}` : posix;
}

/**
 * Runs `script` in a fresh Node.js process in a program directory that has the package installed
 * (./installed-package.ts); returns the modules it loaded, each as `<package name>/<path in the package>`.
 */
async function modulesLoadedBy(script: string, env: Record<string, string>): Promise<string[]> {
  const report = `${script}
    .then(() => console.log(JSON.stringify(Object.keys(require.cache))), (e) => { console.error(e); process.exit(1); });`;
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", report], {
    cwd: installedPackage().dir,
    env: { ...process.env, ...env },
  });
  return (JSON.parse(stdout.trim().split("\n").pop()!) as string[]).map(packagePath);
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

  it("loads no data source, emulator, server, test, signing or undici code for a check, a create and a read", async () => {
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
    assert.ok(loaded.includes("@pulumi-custody/sdk/dist/custody-client.js"), loaded.join("\n"));
    assert.ok(loaded.includes("pulumi-custody/dist/core/vault/lifecycle.js"));
    const unwanted = loaded.filter((file) =>
      /(^|\/)(emulator|test|bench|plugin|policy|cli|data-sources)\/|(^|\/)sdk\/dist\/signing\/|^(fastify|light-my-request|@noble|ajv-formats|mocha|undici|@pulumi\/policy)\//.test(
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
    assert.ok(loaded.includes("@pulumi-custody/sdk/dist/signing/sign-request.js"), loaded.join("\n"));
  });
});
