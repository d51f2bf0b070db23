// End-to-end check that the engine from scripts/install-pulumi.sh (CLI + our language host +
// dynamic-provider plugin) runs a program with one dynamic resource through up, preview and destroy.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { createLocalStack, disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";

const projectDir = repoPath("test", "fixtures", "engine-smoke");
const greetingType = "pulumi-nodejs:dynamic/smoke:Greeting";

async function greetingsInState(
  stack: Stack,
): Promise<Array<{ id?: string; outputs?: Record<string, unknown> }>> {
  const state = await stack.exportStack();
  const resources: Array<{ type: string; id?: string; outputs?: Record<string, unknown> }> =
    state.deployment.resources ?? [];
  return resources.filter((r) => r.type === greetingType);
}

describe("engine smoke test (real Pulumi engine)", () => {
  let binDir: string;

  before(async function () {
    // On a machine without a cached engine this builds it first (minutes).
    this.timeout(40 * 60_000);
    ({ binDir } = await enginePaths());
  });

  // The steps share one stack and run in order: up, then preview, then destroy.
  describe("up, preview, destroy", () => {
    let stack: Stack;

    before(async () => {
      stack = await createLocalStack({ projectDir, stackName: "smoke" });
      await stack.setConfig("who", { value: "custody" });
      await stack.setConfig("token", { value: "s3cret-token", secret: true });
    });

    after(async () => {
      if (stack) await disposeLocalStack(stack);
    });

    it("up creates the dynamic resource and returns its outputs", async () => {
      const up = await stack.up();

      assert.equal(up.summary.result, "succeeded");
      // The stack resource and the Greeting.
      assert.deepEqual(up.summary.resourceChanges, { create: 2 });
      const greetings = await greetingsInState(stack);
      assert.equal(greetings.length, 1);
      assert.equal(greetings[0]?.id, "greeting-custody");
      // Values computed by the provider's create(), from stack config passed through the language host.
      assert.deepEqual(up.outputs.message, { value: "hello, custody", secret: false });
      assert.deepEqual(up.outputs.greetingId, { value: "greeting-custody", secret: false });
      // A secret config value reaches the program decrypted, and stays secret in the outputs.
      assert.deepEqual(up.outputs.tokenLength, { value: "s3cret-token".length, secret: true });
    });

    it("a second preview reports no changes", async () => {
      const preview = await stack.preview({ expectNoChanges: true });

      assert.deepEqual(preview.changeSummary, { same: 2 });
    });

    it("destroy deletes the resource", async () => {
      const destroy = await stack.destroy();

      assert.equal(destroy.summary.result, "succeeded");
      assert.deepEqual(destroy.summary.resourceChanges, { delete: 2 });
      assert.deepEqual(await greetingsInState(stack), []);
    });
  });

  describe("with pulumi-language-nodejs missing", () => {
    let brokenRoot: string | undefined;
    let stack: Stack | undefined;

    after(async () => {
      if (stack) await disposeLocalStack(stack);
      if (brokenRoot) await fs.promises.rm(brokenRoot, { recursive: true, force: true });
    });

    it("up fails and names the missing language plugin", async () => {
      brokenRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "pulumi-custody-broken-engine-"));
      const brokenBin = path.join(brokenRoot, "bin");
      await fs.promises.mkdir(brokenBin);
      // A real file, not a symlink: pulumi resolves symlinks to its own executable and would find
      // the language host beside the original.
      await linkOrCopy(path.join(binDir, "pulumi"), path.join(brokenBin, "pulumi"));
      await linkOrCopy(
        path.join(binDir, "pulumi-resource-pulumi-nodejs"),
        path.join(brokenBin, "pulumi-resource-pulumi-nodejs"),
      );

      stack = await createLocalStack({
        projectDir,
        stackName: "broken",
        binDir: brokenBin,
        // Otherwise a pulumi-language-nodejs on the developer's PATH would still be found.
        envVars: { PULUMI_IGNORE_AMBIENT_PLUGINS: "true" },
      });
      await stack.setConfig("token", { value: "unused", secret: true });

      await assert.rejects(stack.up(), (err: unknown) => {
        assert.match(String(err), /language plugin/);
        assert.match(String(err), /pulumi-language-nodejs/);
        return true;
      });
    });
  });
});

async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await fs.promises.link(from, to);
  } catch {
    // Different file systems.
    await fs.promises.copyFile(from, to);
    await fs.promises.chmod(to, 0o755);
  }
}
