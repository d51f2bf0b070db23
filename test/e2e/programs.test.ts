// The programs users see first run as they are: the root program (what `npm run demo` runs) and the
// examples, each against its own emulator, with the real engine.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  apiVaultsNamed,
  exampleStack,
  outputValue,
  rootProgramStack,
  startTestEmulator,
  stateResources,
  type TestEmulator,
  VAULT_TYPE,
} from "../support/e2e-custody";
import { disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";

const execFileAsync = promisify(execFile);

describe("programs users run first (real engine, emulator)", () => {
  let binDir: string;

  before(async function () {
    this.timeout(40 * 60_000);
    ({ binDir } = await enginePaths());
  });

  describe("the root program (npm run demo)", () => {
    let emulator: TestEmulator;
    let stack: Stack;

    before(async () => {
      emulator = await startTestEmulator();
      stack = await rootProgramStack(emulator, "root");
    });

    after(async () => {
      if (stack) await disposeLocalStack(stack);
      if (emulator) await emulator.stop();
    });

    it("up creates vaults of four types and two UTXO addresses, fed by the lookups", async () => {
      const up = await stack.up();

      assert.deepEqual(up.summary.resourceChanges, { create: 7 });
      const names = ["Demo Treasury", "Demo Operations", "Demo Cold Storage", "Demo Signer"];
      const live = await apiVaultsNamed(emulator.client, names);
      assert.deepEqual(live.map((v) => v.type).sort(), ["black_box", "evm", "solana", "utxo"]);
      const treasury = live.find((v) => v.name === "Demo Treasury");
      assert.equal(outputValue(up.outputs, "treasuryVaultId"), treasury?.id);
      // The chain came from getBlockchains, the groups from an existing vault found with getVaults.
      const cold = live.find((v) => v.type === "utxo");
      assert.equal(
        outputValue(up.outputs, "coldStorageChain"),
        (cold as { chain?: { unique_id: string } })?.chain?.unique_id,
      );
      const [template] = await apiVaultsNamed(emulator.client, ["Treasury ETH"]);
      assert.deepEqual(
        treasury?.vault_groups?.map((g) => g.id),
        template?.vault_groups?.map((g) => g.id),
      );
      assert.ok(outputValue<string[]>(up.outputs, "approvers").length > 0, "admins found with getUsers");
      assert.equal(Object.keys(outputValue(up.outputs, "summary")).length, 4);
    });

    it("the demo's drift check: an out-of-band rename is caught, and up --refresh repairs it", async () => {
      await stack.preview({ expectNoChanges: true });
      const treasuryId = (await stateResources(stack, VAULT_TYPE)).get("treasury")?.id;
      await emulator.client.vaults.rename(String(treasuryId), "renamed-out-of-band");

      await assert.rejects(stack.preview({ refresh: true, expectNoChanges: true }));
      await stack.up({ refresh: true });

      assert.equal((await emulator.client.vaults.get(String(treasuryId))).name, "Demo Treasury");
      await stack.preview({ refresh: true, expectNoChanges: true });
    });
  });

  describe("examples/quickstart", () => {
    let emulator: TestEmulator;
    let stack: Stack;

    before(async () => {
      emulator = await startTestEmulator();
      stack = await exampleStack(emulator, "quickstart", "quickstart");
    });

    after(async () => {
      if (stack) await disposeLocalStack(stack);
      if (emulator) await emulator.stop();
    });

    it("up creates its two vaults and the address; a second preview has nothing to do", async () => {
      const up = await stack.up();

      assert.deepEqual(up.summary.resourceChanges, { create: 4 });
      const live = await apiVaultsNamed(emulator.client, ["Quickstart Treasury", "Quickstart Bitcoin"]);
      assert.equal(live.length, 2);
      assert.equal(outputValue(up.outputs, "treasuryAddress"), live.find((v) => v.type === "evm")?.address);
      assert.match(outputValue<string>(up.outputs, "depositAddress"), /^tb1/);
      await stack.preview({ expectNoChanges: true });
    });
  });

  describe("examples/treasury-layout", () => {
    let emulator: TestEmulator;
    let stack: Stack;

    before(async () => {
      emulator = await startTestEmulator();
      stack = await exampleStack(emulator, "treasury-layout", "layout");
    });

    after(async () => {
      if (stack) await disposeLocalStack(stack);
      if (emulator) await emulator.stop();
    });

    it("up lays out eight vaults; vaults in two groups wait for approval of a proposal", async () => {
      const up = await stack.up();

      assert.equal(up.summary.result, "succeeded");
      const vaultIds = outputValue<Record<string, string>>(up.outputs, "vaultIds");
      assert.equal(Object.keys(vaultIds).length, 8);
      assert.equal(Object.keys(outputValue(up.outputs, "addresses")).length, 3);
      const waiting = outputValue<string[]>(up.outputs, "awaitingApproval");
      assert.deepEqual([...waiting].sort(), [
        "Layout Bitcoin Cold Storage",
        "Layout Ethereum Market Making",
        "Layout Ethereum Payroll",
        "Layout Solana Staking",
      ]);
      const pending = await emulator.control.listProposals({ state: "pending" });
      assert.equal(pending.length, 4);
    });

    it("once the proposals are approved, a refresh converges and nothing waits", async () => {
      for (const proposal of await emulator.control.listProposals({ state: "pending" })) {
        await emulator.control.approveProposal(proposal.id);
      }

      await stack.refresh();
      await stack.preview({ refresh: true, expectNoChanges: true });
      const up = await stack.up();

      assert.deepEqual(outputValue(up.outputs, "awaitingApproval"), []);
      const payroll = await emulator.client.vaults.get(
        outputValue<Record<string, string>>(up.outputs, "vaultIds")["Layout Ethereum Payroll"]!,
      );
      assert.deepEqual(payroll.vault_groups?.map((g) => g.name).sort(), ["Default", "Treasury"]);
    });
  });

  describe("examples/gitops", () => {
    it("run-local.sh runs the workflows' steps against the emulator: deploy, review, drift check, repair", async () => {
      const script = repoPath("examples", "gitops", "run-local.sh");
      const { stdout } = await execFileAsync("bash", [script], {
        env: { ...process.env, PATH: [binDir, process.env.PATH].join(path.delimiter) },
        maxBuffer: 64 * 1024 * 1024,
      });

      assert.match(stdout, /drift detected/);
      assert.match(stdout, /\| `name` \| `"Payments \(production\)"` \| `"renamed in the console"` \|/);
      assert.match(
        stdout,
        /🛑 \*\*The drift check could not run\*\*: authentication refused by the custody API .*\(401\)/,
      );
      assert.match(stdout, /token rotation: nothing to change in the state, the new secrets just work/);
      assert.match(stdout, /run-local: every workflow step behaved as in CI/);
    });
  });
});
