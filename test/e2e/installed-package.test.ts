// The package as users get it: `npm pack`, installed into a new project made the way `pulumi new typescript`
// makes one (its tsconfig with `moduleResolution: node`, TypeScript run by ts-node), outside this repository.
// The install prints no engine warning on this Node, every entry point's types resolve under each module
// resolution, and the program runs `up`, `preview --refresh` and `destroy` with the real engine.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { build } from "esbuild";
import { apiVaultsNamed, startTestEmulator, type TestEmulator } from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";

const execFileAsync = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The tsconfig of `pulumi new typescript` (v3.248.0's template). */
const TEMPLATE_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { Vault, VaultAddress, getBlockchains } from "pulumi-custody";
import { CustodyClient } from "pulumi-custody/sdk";
import type { EmulatorOptions } from "pulumi-custody/emulator";
import type { VaultInputs } from "pulumi-custody/provider-runtime";

const options: EmulatorOptions = { port: 0 };
const declared: Partial<VaultInputs> = { name: "e2e-installed Cold" };
const cold = new Vault("cold", { name: String(declared.name), type: "utxo", chain: "bitcoin_testnet" });
const deposits = new VaultAddress("deposits", { vaultId: cold.id, addressType: "segwit" });
export const coldId = cold.id;
export const depositAddress = deposits.address;
export const chains = pulumi.output(getBlockchains()).apply((list) => list.length);
export const clientName = CustodyClient.name + String(options.port);
`;

describe("the package installed from its tarball into a new project (real engine, emulator)", () => {
  let work: string;
  let app: string;
  let emulator: TestEmulator;
  let stack: Stack | undefined;
  let installLog = "";

  before(async function () {
    this.timeout(15 * 60_000);
    await enginePaths();
    work = fs.mkdtempSync(path.join(tmpdir(), "custody-installed-"));
    const { stdout } = await execFileAsync(npm, ["pack", "--silent", "--pack-destination", work], {
      cwd: repoPath(),
    });
    const tarball = path.join(work, stdout.trim().split("\n").pop()!);
    app = path.join(work, "app");
    fs.mkdirSync(app);
    const pulumiVersion = JSON.parse(
      fs.readFileSync(repoPath("node_modules/@pulumi/pulumi/package.json"), "utf8"),
    ).version;
    fs.writeFileSync(
      path.join(app, "package.json"),
      JSON.stringify({
        name: "installed-app",
        main: "index.ts",
        devDependencies: { "@types/node": "^20.19.0", typescript: "~5.9.3" },
        dependencies: { "@pulumi/pulumi": pulumiVersion, "pulumi-custody": `file:${tarball}` },
      }),
    );
    fs.writeFileSync(path.join(app, "tsconfig.json"), JSON.stringify(TEMPLATE_TSCONFIG, null, 2));
    fs.writeFileSync(path.join(app, "Pulumi.yaml"), "name: installed-app\nruntime: nodejs\n");
    fs.writeFileSync(path.join(app, "index.ts"), PROGRAM);
    const install = await execFileAsync(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline"], {
      cwd: app,
      maxBuffer: 16 * 1024 * 1024,
    });
    installLog = `${install.stdout}\n${install.stderr}`;
    emulator = await startTestEmulator();
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it("installs without an engine warning, and ships README, LICENSE, docs and declarations", () => {
    assert.doesNotMatch(installLog, /EBADENGINE/);
    const pkg = path.join(app, "node_modules", "pulumi-custody");
    for (const file of [
      "README.md",
      "LICENSE",
      "docs/provider.md",
      "dist/sdk/index.d.ts",
      "dist/provider/index.d.ts",
    ])
      assert.ok(fs.existsSync(path.join(pkg, file)), `${file} is in the package`);
    // Source maps carry their sources, since the .ts files are not shipped.
    const map = JSON.parse(fs.readFileSync(path.join(pkg, "dist/sdk/custody-client.js.map"), "utf8"));
    assert.equal(map.sourcesContent?.length, map.sources.length);
  });

  for (const [moduleResolution, module, skipLibCheck] of [
    ["node", "commonjs", false],
    ["node16", "node16", false],
    ["nodenext", "nodenext", false],
    ["bundler", "esnext", false],
  ] as const) {
    it(`every entry point type-checks with moduleResolution ${moduleResolution} (skipLibCheck ${skipLibCheck})`, async () => {
      const config = {
        ...TEMPLATE_TSCONFIG,
        compilerOptions: {
          ...TEMPLATE_TSCONFIG.compilerOptions,
          module,
          moduleResolution,
          skipLibCheck,
          noEmit: true,
        },
      };
      const file = path.join(app, `tsconfig.${moduleResolution}.json`);
      fs.writeFileSync(file, JSON.stringify(config));
      const result = await execFileAsync(
        process.execPath,
        [path.join(app, "node_modules/typescript/bin/tsc"), "-p", file],
        {
          cwd: app,
        },
      ).catch((err: { stdout?: string }) => ({ stdout: String(err.stdout) }));
      assert.equal(result.stdout.trim(), "", result.stdout);
    });
  }

  it("a program bundled with esbuild (pulumi-custody bundled in) runs up, preview --refresh and destroy", async () => {
    const bundleDir = path.join(work, "bundled");
    fs.mkdirSync(bundleDir);
    // Only @pulumi/pulumi stays external: the engine needs the program's own copy of it.
    await build({
      entryPoints: [path.join(app, "index.ts")],
      bundle: true,
      platform: "node",
      format: "cjs",
      external: ["@pulumi/pulumi"],
      outfile: path.join(app, "bundle", "index.js"),
      absWorkingDir: app,
      logLevel: "silent",
    });
    fs.writeFileSync(
      path.join(bundleDir, "Pulumi.yaml"),
      `name: bundled-app\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: ${path.join(app, "bundle", "index.js")}\n`,
    );
    const bundled = await createLocalStack({ projectDir: bundleDir, stackName: "bundled" });
    try {
      await bundled.setAllConfig({
        "custody:baseUrl": { value: emulator.baseUrl },
        "custody:accessToken": { value: emulator.accessToken, secret: true },
      });
      const source = fs.readFileSync(path.join(app, "bundle", "index.js"), "utf8");
      assert.match(source, /function loadCustodyRuntime/, "the package is bundled in");
      const up = await bundled.up();
      assert.deepEqual(up.summary.resourceChanges, { create: 3 });
      await bundled.preview({ refresh: true, expectNoChanges: true });
      assert.equal((await bundled.destroy()).summary.result, "succeeded");
    } finally {
      await disposeLocalStack(bundled);
    }
  });

  it("runs up, preview --refresh and destroy with ts-node and the real engine", async () => {
    stack = await createLocalStack({ projectDir: app, stackName: "installed" });
    await stack.setAllConfig({
      "custody:baseUrl": { value: emulator.baseUrl },
      "custody:accessToken": { value: emulator.accessToken, secret: true },
    });
    const up = await stack.up();
    assert.deepEqual(up.summary.resourceChanges, { create: 3 });
    // Installed from the registry (here, its tarball), each resource's serialized provider is a bare require of
    // the package's provider module, a few hundred bytes, rather than the provider's code.
    const { deployment } = await stack.exportStack();
    const providers = new Map<string, string>();
    for (const resource of deployment.resources ?? []) {
      const text = resource.inputs?.__provider;
      if (typeof text === "string") providers.set(resource.type, text);
    }
    for (const [type, module] of [
      ["pulumi-nodejs:dynamic/custody:Vault", "pulumi-custody/provider-runtime/vault"],
      ["pulumi-nodejs:dynamic/custody:VaultAddress", "pulumi-custody/provider-runtime/vault-address"],
    ]) {
      const text = providers.get(type) ?? "";
      assert.ok(text.includes(`require("${module}")`), `${type}: ${text}`);
      assert.ok(Buffer.byteLength(text) < 400, `${type}: ${Buffer.byteLength(text)} bytes`);
    }
    const [vault] = await apiVaultsNamed(emulator.client, ["e2e-installed Cold"]);
    assert.equal(up.outputs.coldId?.value, vault?.id);
    assert.match(String(up.outputs.depositAddress?.value), /^tb1/);
    await stack.preview({ refresh: true, expectNoChanges: true });
    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.equal((await emulator.client.vaults.get(String(vault?.id))).state, "archived");
  });
});
