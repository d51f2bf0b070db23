// Onboarding at scale: `custody import` and `pulumi import --file` of 1,000 vaults (the emulator with its default
// settings: its rate limit and latency), from the installed command line and the plugin's release archive, into a
// YAML program, ending with a clean preview. What onboarding does is test/e2e/onboarding.test.ts's; this proves
// that it holds at a thousand: the import file, the engine's import and the report's advice for that size. It runs
// on the pinned leg only (docs/testing.md).
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { pulumiCli, startTestEmulator, stateResources, type TestEmulator } from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths } from "../support/pulumi-engine";
import { installedProject, installPluginFromArchive, userPath } from "../support/release";

const execFileAsync = promisify(execFile);

const VAULT = "custody:index:Vault";

describe("onboarding 1,000 vaults (emulator with its default settings, YAML)", () => {
  let emulator: TestEmulator;
  let stack: Stack;
  let tempRoot: string;

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  it("custody import and pulumi import --file of 1,000 vaults end with a clean preview", async function () {
    this.timeout(40 * 60_000);
    const engineBin = (await enginePaths()).binDir;
    const project = await installedProject();
    emulator = await startTestEmulator();
    await emulator.control.seedLargeDataSet({ vaults: 1000 });
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "onboarding-1000-"));
    await fs.promises.writeFile(path.join(tempRoot, "Pulumi.yaml"), "name: onboard-1000\nruntime: yaml\n");
    stack = await createLocalStack({
      projectDir: tempRoot,
      stackName: "large",
      envVars: { PATH: userPath(engineBin) },
    });
    await installPluginFromArchive(stack);
    // The API settings only: the provider and `custody import` pace themselves by the service's quota.
    await stack.setAllConfig({
      "custody:baseUrl": { value: emulator.baseUrl },
      "custody:accessToken": { value: emulator.accessToken, secret: true },
    });
    const ws = stack.workspace;
    const env = { ...process.env, ...(ws.pulumiHome ? { PULUMI_HOME: ws.pulumiHome } : {}), ...ws.envVars };
    const importFile = path.join(tempRoot, "custody-import.json");

    const started = Date.now();
    const { stdout } = await execFileAsync(
      project.bin("custody"),
      [
        "import",
        "--language",
        "yaml",
        "--name-prefix",
        "Load Vault ",
        "--out",
        path.join(tempRoot, "Main.yaml"),
        "--import-file",
        importFile,
      ],
      { cwd: ws.workDir, env, maxBuffer: 64 * 1024 * 1024 },
    );
    const generated = Date.now();
    assert.match(stdout, /^1000 vaults to import/m);
    // A thousand resources: the report suggests the import without the engine's per-resource checkpoints. It
    // names no rate: the provider of the import follows the quota the service announces, with its defaults.
    assert.match(stdout, /^ {2}PULUMI_SKIP_CHECKPOINTS=true pulumi import --file /m);
    assert.doesNotMatch(stdout, /CUSTODY_REQUESTS_PER_MINUTE/);
    Object.assign(ws.envVars, { PULUMI_SKIP_CHECKPOINTS: "true" });
    await pulumiCli(stack, ["import", "--file", importFile, "--generate-code=false", "--yes"]);
    const imported = Date.now();
    await stack.preview({ expectNoChanges: true });
    assert.equal((await stateResources(stack, VAULT)).size, 1000);
    console.log(
      `      1,000 vaults: custody import ${((generated - started) / 1000).toFixed(1)} s, pulumi import --file ${((imported - generated) / 1000).toFixed(1)} s, preview ${((Date.now() - imported) / 1000).toFixed(1)} s`,
    );
  });
});
