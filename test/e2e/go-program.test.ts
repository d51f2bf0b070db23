// A Go program as a user runs it: test/fixtures/go-program, copied out of the repository with a go.mod that
// requires the Go SDK of the release (custody-go-sdk-v<version>.tar.gz, the module `go get` fetches, put in place
// by a `replace`; test/support/go-program.ts), built and run by our Go language host (language-hosts/go) under
// the real CLI, through the plugin installed from its release archive, against the emulator, with no Node.js on
// the stack's PATH. The Go modules come from the Go module proxy (or its cache). One stack, four steps in order:
// up, a rename, a refresh, destroy.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  configureForEmulator,
  pulumiCli,
  startTestEmulator,
  stateResources,
  type TestEmulator,
} from "../support/e2e-custody";
import { GO_PROGRAM_ENV, GO_SDK_MODULE, goModWithSdk, goSdkFromRelease } from "../support/go-program";
import { createLocalStack, disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";
import { installPluginFromArchive, releaseArtifacts, userPath } from "../support/release";
import { pathWithoutNode } from "../support/without-node";

const VAULT = "custody:index:Vault";
const PROVIDER = "pulumi:providers:custody";

describe("Go program through the generated Go SDK, our Go host and the plugin (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;
  let tempRoot: string;
  let schemaVersion: string;
  let vaultId: string;

  before(async function () {
    this.timeout(40 * 60_000);
    const engine = await enginePaths();
    await fs.promises.access(path.join(engine.binDir, "pulumi-language-go"), fs.constants.X_OK).catch(() => {
      throw new Error(`${engine.binDir} has no pulumi-language-go: run scripts/install-pulumi.sh`);
    });
    const release = await releaseArtifacts();
    schemaVersion = JSON.parse(await fs.promises.readFile(release.schema, "utf8")).version;
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "go-program-e2e-"));
    const sdk = await goSdkFromRelease(path.join(tempRoot, "custody-go-sdk"));
    const program = path.join(tempRoot, "program");
    await fs.promises.cp(repoPath("test", "fixtures", "go-program"), program, { recursive: true });
    await fs.promises.writeFile(
      path.join(program, "go.mod"),
      goModWithSdk("example.com/custody-go-program", sdk),
    );
    emulator = await startTestEmulator();
    stack = await createLocalStack({
      projectDir: program,
      stackName: "go",
      envVars: {
        PATH: await pathWithoutNode(userPath(engine.binDir), tempRoot),
        ...GO_PROGRAM_ENV,
      },
    });
    await installPluginFromArchive(stack);
    await configureForEmulator(stack, emulator, { treasuryName: { value: "go Treasury" } });
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  it("up builds the program with `go build` and creates the vault through the SDK and the plugin", async function () {
    this.timeout(20 * 60_000);
    const up = await stack.up();

    assert.equal(up.summary.result, "succeeded");
    assert.deepEqual(up.summary.resourceChanges, { create: 2 }, "the stack and the vault");
    const treasury = (await stateResources(stack, VAULT)).get("treasury");
    vaultId = String(treasury?.id);
    const live = await emulator.client.vaults.get(vaultId);
    assert.equal(live.name, "go Treasury");
    assert.equal(up.outputs.treasuryId.value, vaultId);
    assert.equal(up.outputs.treasuryName.value, "go Treasury");
    // The SDK names the plugin of the schema's version (its pulumi-plugin.json), so the engine loads that one.
    const provider = [...(await stateResources(stack, PROVIDER)).values()][0];
    assert.equal(provider?.inputs?.version, schemaVersion);
    // `pulumi about` lists the program's modules (the host's GetProgramDependencies), the SDK among them.
    const { stdout } = await pulumiCli(stack, ["about", "--json"]);
    const about = JSON.parse(stdout) as { language?: { name?: string }; dependencies?: { name: string }[] };
    assert.ok(
      about.dependencies?.some((d) => d.name === GO_SDK_MODULE),
      stdout,
    );
  });

  it("renaming through the config updates the vault in place (same id)", async function () {
    this.timeout(10 * 60_000);
    await stack.setConfig("treasuryName", { value: "go Treasury (renamed)" });

    const up = await stack.up();

    assert.deepEqual(up.summary.resourceChanges, { same: 1, update: 1 });
    assert.equal((await emulator.client.vaults.get(vaultId)).name, "go Treasury (renamed)");
    assert.equal((await stateResources(stack, VAULT)).get("treasury")?.id, vaultId);
  });

  it("refresh takes an out-of-band rename into the state; up puts the declared name back", async function () {
    this.timeout(10 * 60_000);
    await emulator.client.vaults.rename(vaultId, "go renamed behind Pulumi's back");

    const refresh = await stack.refresh();

    assert.deepEqual(refresh.summary.resourceChanges, { same: 1, update: 1 });
    assert.equal(
      (await stateResources(stack, VAULT)).get("treasury")?.outputs?.name,
      "go renamed behind Pulumi's back",
    );
    const up = await stack.up();
    assert.deepEqual(up.summary.resourceChanges, { same: 1, update: 1 });
    assert.equal((await emulator.client.vaults.get(vaultId)).name, "go Treasury (renamed)");
  });

  it("destroy archives the vault (the API cannot delete it)", async function () {
    this.timeout(10 * 60_000);
    const destroy = await stack.destroy();

    assert.deepEqual(destroy.summary.resourceChanges, { delete: 2 });
    assert.equal((await emulator.client.vaults.get(vaultId)).state, "archived");
    assert.equal((await stateResources(stack, VAULT)).size, 0);
  });
});
