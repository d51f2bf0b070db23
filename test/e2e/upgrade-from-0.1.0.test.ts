// A stack deployed by release 0.1.0 (its serialized shims and output shapes, kept as fixtures) under the current
// runtime, with the real engine: refresh shows no drift, `up` without a change has nothing to do (no spurious
// diff), an update works, and destroy archives.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { CustodyClient } from "@pulumi-custody/sdk";
import { type CliProcess, startCli } from "@pulumi-custody/testing";
import { declare, fixtureDir, stateResources, VAULT_TYPE } from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";

const FIXTURES = repoPath("test", "fixtures", "release-0.1.0");

describe("a stack deployed by release 0.1.0 (real engine, emulator process)", () => {
  let dir: string;
  let emulator: CliProcess;
  let client: CustodyClient;
  let stack: Stack;
  const declared = JSON.parse(fs.readFileSync(path.join(FIXTURES, "declared.json"), "utf8"));

  before(async function () {
    this.timeout(10 * 60_000);
    await enginePaths();
    dir = fs.mkdtempSync(path.join(tmpdir(), "custody-upgrade-"));
    const stateFile = path.join(dir, "emulator-state.json");
    fs.copyFileSync(path.join(FIXTURES, "emulator-state.json"), stateFile);
    emulator = await startCli(["--state-file", stateFile]);
    client = new CustodyClient({ baseUrl: emulator.info.baseUrl, accessToken: emulator.info.accessToken });
    stack = await createLocalStack({
      projectDir: await fixtureDir(),
      stackName: "upgrade",
      envVars: {
        CUSTODY_BASE_URL: emulator.info.baseUrl,
        CUSTODY_ACCESS_TOKEN: emulator.info.accessToken,
        CUSTODY_REQUESTS_PER_MINUTE: "0",
      },
    });
    fs.copyFileSync(
      path.join(FIXTURES, "Pulumi.upgrade.yaml"),
      path.join(stack.workspace.workDir, "Pulumi.upgrade.yaml"),
    );
    await stack.importStack(JSON.parse(fs.readFileSync(path.join(FIXTURES, "stack-export.json"), "utf8")));
    await declare(stack, declared);
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    await client?.close();
    if (emulator && emulator.child.exitCode === null) await emulator.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("holds 0.1.0's serialized shims", async () => {
    const exported = JSON.stringify(await stack.exportStack());
    assert.match(exported, /require\(\\"pulumi-custody\/provider-runtime\\"\)/);
  });

  it("refresh finds no drift", async () => {
    await stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("up without a change has nothing to do", async () => {
    const up = await stack.up();
    assert.deepEqual(up.summary.resourceChanges, { same: 6 });
  });

  it("an update works: a rename in code renames the same vault", async () => {
    const before = (await stateResources(stack, VAULT_TYPE)).get("treasury");
    await declare(stack, {
      ...declared,
      vaults: { ...declared.vaults, treasury: { name: "upgrade Treasury (renamed)", type: "evm" } },
    });
    const up = await stack.up();
    assert.equal(up.summary.resourceChanges?.update, 1);
    assert.equal((await client.vaults.get(String(before?.id))).name, "upgrade Treasury (renamed)");
  });

  it("destroy archives every vault", async () => {
    const vaults = await stateResources(stack, VAULT_TYPE);
    assert.equal((await stack.destroy()).summary.result, "succeeded");
    for (const [, resource] of vaults) {
      assert.equal((await client.vaults.get(String(resource.id))).state, "archived");
    }
  });
});
