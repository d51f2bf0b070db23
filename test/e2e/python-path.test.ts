// The `custody` provider plugin as users get it: installed from its release archive with
// `pulumi plugin install resource custody <version> --file <archive>`, and the SDKs generated from its schema,
// installed from their release files (scripts/release-artifacts.sh; test/support/release.ts).
//
// From Python: examples/python-quickstart, copied out of the repository, on the SDK's wheel installed by pip into
// a new virtualenv, run by our Python language host (language-hosts/python) under the real CLI, against the
// emulator, with no Node.js on the stack's PATH (the plugin's archive holds one self-contained executable). What
// only the language can break: the SDK loads and its program runs `up`, `pulumi import` prints Python that runs
// with no changes, the typed functions, and `pulumi install` creating the project's virtualenv from its
// requirements.txt. The steps share one stack and run in order.
//
// A second suite does the same from a JavaScript program (test/fixtures/sdk-nodejs) through the npm package
// generated from the same schema, installed from its tarball into the project the suites of the delivered
// product share.
//
// The provider's own lifecycle on this path (rename, drift and its repair, archive and restore, adoption,
// `pulumi import` of a vault) is proven once, by test/e2e/native-plugin.test.ts (docs/testing.md).
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  apiAddresses,
  apiVaultsNamed,
  configureForEmulator,
  importAndRunPrintedCode,
  pulumiCli,
  startTestEmulator,
  stateResources,
  type TestEmulator,
} from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";
import {
  installedProject,
  installPluginFromArchive,
  releaseArtifacts,
  userPath,
  virtualenvWithWheel,
} from "../support/release";
import { findOnPath, pathWithoutNode } from "../support/without-node";

const execFileAsync = promisify(execFile);

const VAULT = "custody:index:Vault";
const ADDRESS = "custody:index:VaultAddress";
const PROVIDER = "pulumi:providers:custody";
const EXAMPLE = repoPath("examples", "python-quickstart");

const NAMES = {
  treasury: "py Treasury",
  bitcoin: "py Bitcoin",
  cold: "py Cold",
};

/**
 * A copy of the example in `dir`: its program, its requirements.txt, and its Pulumi.yaml with `virtualenv` set
 * to `virtualenv`; `requirements` replaces its requirements.txt.
 */
async function copyExample(dir: string, virtualenv: string, requirements?: string): Promise<string> {
  await fs.promises.mkdir(dir, { recursive: true });
  await fs.promises.copyFile(path.join(EXAMPLE, "__main__.py"), path.join(dir, "__main__.py"));
  await fs.promises.copyFile(path.join(EXAMPLE, "requirements.txt"), path.join(dir, "requirements.txt"));
  const project = await fs.promises.readFile(path.join(EXAMPLE, "Pulumi.yaml"), "utf8");
  assert.match(project, /virtualenv: venv\n/, "the example's Pulumi.yaml names its virtualenv");
  await fs.promises.writeFile(
    path.join(dir, "Pulumi.yaml"),
    project.replace(/virtualenv: venv\n/, `virtualenv: ${JSON.stringify(virtualenv)}\n`),
  );
  if (requirements !== undefined)
    await fs.promises.writeFile(path.join(dir, "requirements.txt"), requirements);
  return dir;
}

describe("Python program through the generated SDK and the plugin (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;
  let tempRoot: string;
  let binDirs: string;
  let schemaVersion: string;
  let releaseDir: string;
  let virtualenvDir: string;
  const ids = new Map<string, string>();

  /** Sets the example's config: the treasury's name and the further vaults of `vaults`. */
  async function declare(treasuryName: string, vaults: Record<string, object>): Promise<void> {
    await stack.setAllConfig({
      treasuryName: { value: treasuryName },
      bitcoinName: { value: NAMES.bitcoin },
      vaults: { value: JSON.stringify(vaults) },
    });
  }

  before(async function () {
    this.timeout(40 * 60_000);
    const engine = await enginePaths();
    await fs.promises
      .access(path.join(engine.binDir, "pulumi-language-python"), fs.constants.X_OK)
      .catch(() => {
        throw new Error(`${engine.binDir} has no pulumi-language-python: run scripts/install-pulumi.sh`);
      });
    const release = await releaseArtifacts();
    releaseDir = release.dir;
    schemaVersion = JSON.parse(await fs.promises.readFile(release.schema, "utf8")).version;
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "python-path-e2e-"));
    const virtualenv = await virtualenvWithWheel(path.join(tempRoot, "venv"));
    virtualenvDir = virtualenv;
    // No plugin on PATH: the engine takes the one installed from the archive (`installPluginFromArchive`). No
    // Node.js either: neither the Python host nor the plugin needs it.
    binDirs = await pathWithoutNode(userPath(engine.binDir), tempRoot);
    emulator = await startTestEmulator();
    stack = await createLocalStack({
      projectDir: await copyExample(path.join(tempRoot, "project"), virtualenv),
      stackName: "python",
      envVars: { PATH: binDirs },
    });
    await installPluginFromArchive(stack);
    await configureForEmulator(stack, emulator);
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  it("the stack's PATH holds the engine and its Python host, and no node", () => {
    assert.equal(findOnPath("node", binDirs), undefined);
    assert.ok(findOnPath("pulumi-language-python", binDirs), binDirs);
    assert.ok(findOnPath("pulumi", binDirs), binDirs);
  });

  it("up creates the vaults and the address of the Python program", async () => {
    await declare(NAMES.treasury, { cold: { name: NAMES.cold, type: "utxo", chain: "bitcoin_testnet" } });

    const up = await stack.up();

    assert.equal(up.summary.result, "succeeded");
    assert.deepEqual(up.summary.resourceChanges, { create: 5 }, "the stack, 3 vaults and 1 address");
    const vaults = await stateResources(stack, VAULT);
    assert.deepEqual([...vaults.keys()].sort(), ["bitcoin", "cold", "treasury"]);
    for (const [key, resource] of vaults) ids.set(key, String(resource.id));
    const live = await apiVaultsNamed(emulator.client, [NAMES.treasury, NAMES.bitcoin, NAMES.cold]);
    assert.deepEqual(live.map((v) => v.id).sort(), [...vaults.values()].map((r) => String(r.id)).sort());
    assert.equal(vaults.get("treasury")?.outputs?.acquisition, "created");
    const deposits = (await apiAddresses(emulator.client, ids.get("bitcoin")!)).find(
      (a) => a.name === "Deposits",
    );
    assert.ok(deposits, "the declared address exists in the vault");
    assert.equal((await stateResources(stack, ADDRESS)).get("deposits")?.id, deposits.id);
    assert.equal(up.outputs.depositAddress.value, deposits.address.address);
    assert.deepEqual(up.outputs.vaultStates.value, { treasury: "active", bitcoin: "active", cold: "active" });
    // The SDK registers its resources with the schema's version, so the engine asks for that provider.
    const provider = [...(await stateResources(stack, PROVIDER)).values()][0];
    assert.equal(provider?.inputs?.version, schemaVersion);
  });

  it("`pulumi import` prints Python that, run as the program, has no changes", async () => {
    const dir = await copyExample(path.join(tempRoot, "printed"), virtualenvDir);

    const { code } = await importAndRunPrintedCode({
      emulator,
      projectDir: dir,
      programFile: "__main__.py",
      path: binDirs,
      vaultName: "py printed code",
      prepare: installPluginFromArchive,
    });

    assert.match(code, /^import pulumi_custody as custody$/m);
    assert.match(
      code,
      /custody\.Vault\("printed",\s*name="py printed code",\s*type=custody\.VaultType\.EVM,\s*vault_group_ids=\["[0-9a-f-]{36}"\]\)/,
    );
  });

  it("the Python program calls typed functions: get_vaults(names=...), get_vault(id=...), get_suggested_fees", async () => {
    const made = await emulator.client.vaults.create({ name: "py function target", type: "evm" });
    const dir = await copyExample(path.join(tempRoot, "functions"), virtualenvDir);
    // A program of its own: the example declares resources, this one only reads through the functions.
    await fs.promises.writeFile(
      path.join(dir, "__main__.py"),
      [
        "import pulumi",
        "import pulumi_custody as custody",
        "",
        'found = custody.get_vaults(names=[pulumi.Config().require("target")], max_items=5)',
        'pulumi.export("ids", [item.id for item in found.items])',
        'pulumi.export("types", [item.type for item in found.items])',
        'pulumi.export("createdAt", custody.get_vault(id=found.items[0].id).created_at)',
        'fees = custody.get_suggested_fees(chains=["evm_ethereum_mainnet"]).items',
        'pulumi.export("evmPricing", fees["evm_ethereum_mainnet"].evm.pricing)',
        'pulumi.export("groupNames", [g.name for g in found.items[0].vault_groups])',
        "",
      ].join("\n"),
    );
    const functions = await createLocalStack({
      projectDir: dir,
      stackName: "functions",
      envVars: { PATH: binDirs },
    });
    try {
      await installPluginFromArchive(functions);
      await configureForEmulator(functions, emulator, { target: { value: made.name } });
      const { outputs } = await functions.up();
      assert.deepEqual(outputs.ids.value, [made.id]);
      assert.deepEqual(outputs.types.value, ["evm"]);
      assert.equal(outputs.createdAt.value, made.created_at);
      // Nested results are typed classes of the SDK, read by attribute (not dicts).
      assert.match(String(outputs.evmPricing.value), /^(legacy|dynamic)$/);
      assert.ok(
        (outputs.groupNames.value as string[]).length > 0,
        "vault_groups items, read by their name attribute",
      );
    } finally {
      await disposeLocalStack(functions);
    }
  });

  it("`pulumi install` creates the project's virtualenv from its requirements.txt, with the SDK's wheel", async function () {
    this.timeout(10 * 60_000);
    const dir = await copyExample(path.join(tempRoot, "install"), "venv");
    const requirements = await fs.promises.readFile(path.join(dir, "requirements.txt"), "utf8");
    // The example names the SDK as a package index serves it; pip finds it in the release files here.
    assert.match(requirements, /^pulumi_custody\b/m);
    stack.workspace.envVars.PIP_FIND_LINKS = releaseDir;
    try {
      await pulumiCli(stack, ["install"], { cwd: dir, onStack: false });
    } finally {
      delete stack.workspace.envVars.PIP_FIND_LINKS;
    }

    const { stdout } = await execFileAsync(path.join(dir, "venv", "bin", "python"), [
      "-c",
      "import importlib.metadata as m, pulumi_custody; print(m.version('pulumi'), m.version('pulumi_custody'))",
    ]);
    const [pulumiVersion, sdkVersion] = stdout.trim().split(" ");
    assert.match(pulumiVersion, /^3\.\d+\.\d+$/);
    assert.ok(Number(pulumiVersion.split(".")[1]) >= 248, `pip pulumi ${pulumiVersion} >= 3.248.0`);
    assert.equal(sdkVersion, schemaVersion, "the SDK carries the schema's version");
  });

  it("a runtime option the host does not implement is refused by name, not ignored", async () => {
    const dir = await copyExample(path.join(tempRoot, "poetry"), "venv", "pulumi==3.248.0\n");
    const project = await fs.promises.readFile(path.join(dir, "Pulumi.yaml"), "utf8");
    await fs.promises.writeFile(
      path.join(dir, "Pulumi.yaml"),
      project.replace(/(virtualenv: .*\n)/, "$1    toolchain: poetry\n"),
    );

    await assert.rejects(
      pulumiCli(stack, ["install"], { cwd: dir, onStack: false }),
      (err: { stderr?: string }) => {
        assert.match(
          String(err.stderr),
          /runtime option toolchain: this language host runs pip only, got poetry/,
        );
        return true;
      },
    );
    assert.ok(!fs.existsSync(path.join(dir, "venv")), "nothing was installed");
  });
});

describe("JavaScript program through the generated npm SDK and the plugin (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;
  let tempRoot: string;
  let schemaVersion: string;
  let project: { dir: string };
  const cold = { name: "js Cold", type: "utxo", chain: "bitcoin_testnet" };

  async function declare(vaults: Record<string, object>): Promise<void> {
    await stack.setConfig("vaults", { value: JSON.stringify(vaults) });
  }

  before(async function () {
    this.timeout(40 * 60_000);
    const engine = await enginePaths();
    const release = await releaseArtifacts();
    schemaVersion = JSON.parse(await fs.promises.readFile(release.schema, "utf8")).version;
    // The fixture program inside the project where the npm SDK is installed from its tarball, as a user's
    // program sits beside its node_modules.
    project = await installedProject();
    tempRoot = await fs.promises.mkdtemp(path.join(project.dir, "sdk-nodejs-"));
    const programDir = path.join(tempRoot, "program");
    await fs.promises.cp(repoPath("test", "fixtures", "sdk-nodejs"), programDir, { recursive: true });
    emulator = await startTestEmulator();
    stack = await createLocalStack({
      projectDir: programDir,
      stackName: "nodejs",
      envVars: { PATH: userPath(engine.binDir) },
    });
    await installPluginFromArchive(stack);
    await configureForEmulator(stack, emulator);
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  it("the plugin installed from its archive is listed, and serves its schema by name", async () => {
    const { stdout: listed } = await pulumiCli(stack, ["plugin", "ls", "--json"], { onStack: false });
    const plugins = JSON.parse(listed) as { name: string; kind: string; version: string }[];
    assert.ok(
      plugins.some((p) => p.name === "custody" && p.kind === "resource" && p.version === schemaVersion),
      listed,
    );
    const { stdout } = await pulumiCli(stack, ["package", "get-schema", "custody"], { onStack: false });
    const schema = JSON.parse(stdout) as { name: string; version: string; pluginDownloadURL: string };
    assert.equal(schema.name, "custody");
    assert.equal(schema.version, schemaVersion);
    assert.equal(schema.pluginDownloadURL, "github://api.github.com/pulumi-custody/pulumi-custody");
  });

  it("up creates the vaults of the JavaScript program", async () => {
    await declare({ treasury: { name: "js Treasury", type: "evm" }, cold });
    const created = await stack.up();
    assert.deepEqual(created.summary.resourceChanges, { create: 3 }, "the stack and 2 vaults");
    assert.equal(created.outputs.sdkVersion.value, schemaVersion, "the SDK carries the schema's version");
    const vaults = await stateResources(stack, VAULT);
    assert.equal((await emulator.client.vaults.get(String(vaults.get("treasury")?.id))).name, "js Treasury");
    assert.equal((await emulator.client.vaults.get(String(vaults.get("cold")?.id))).name, "js Cold");
  });

  it("`pulumi import` prints TypeScript that, run as the program, has no changes", async () => {
    // A project as users have it, beside the node_modules where @pulumi/pulumi and the SDK are installed.
    const dir = path.join(tempRoot, "printed");
    await fs.promises.mkdir(dir, { recursive: true });
    await fs.promises.writeFile(
      path.join(dir, "Pulumi.yaml"),
      "name: printed-import\nruntime: nodejs\nmain: index.ts\n",
    );

    const { code } = await importAndRunPrintedCode({
      emulator,
      projectDir: dir,
      programFile: "index.ts",
      path: String(stack.workspace.envVars.PATH),
      vaultName: "js printed code",
      prepare: installPluginFromArchive,
    });

    assert.match(code, /^import \* as custody from "@pulumi-custody\/custody";$/m);
    assert.match(
      code,
      /new custody\.Vault\("printed", \{\s*name: "js printed code",\s*type: custody\.VaultType\.Evm,\s*vaultGroupIds: \["[0-9a-f-]{36}"\],?\s*\}\);/,
    );
  });
});
