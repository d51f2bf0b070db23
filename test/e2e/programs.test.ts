// The root program (what `npm run demo` runs), with the real engine against an emulator: what it creates and
// what its lookups feed. The demo itself (.ci/run) runs its drift check and the repair; the examples run as their
// READMEs say in test/e2e/documented-commands.test.ts, where each session checks what the README promises
// (docs/testing.md).
import * as assert from "node:assert/strict";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  apiVaultsNamed,
  outputValue,
  rootProgramStack,
  startTestEmulator,
  type TestEmulator,
} from "../support/e2e-custody";
import { disposeLocalStack, enginePaths } from "../support/pulumi-engine";

describe("the root program (real engine, emulator)", () => {
  describe("the root program (npm run demo)", () => {
    let emulator: TestEmulator;
    let stack: Stack;

    before(async function () {
      this.timeout(40 * 60_000);
      await enginePaths();
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
  });
});
