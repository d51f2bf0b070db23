// Adopting vaults that already exist (the substitute for `pulumi import`, which dynamic resources lack):
// without `adoptExisting` an existing name is refused with the vault's id; with it, examples/adopt-existing
// takes over the emulator's seeded vaults and their address without creating any. The README's next steps (a
// destroy archives them, the next up restores the very same vaults) run in its session of
// test/e2e/documented-commands.test.ts, which checks them.
import * as assert from "node:assert/strict";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  apiAddresses,
  apiAllVaults,
  apiVaultsNamed,
  declare,
  exampleStack,
  fixtureStack,
  outputValue,
  startTestEmulator,
  type TestEmulator,
} from "../support/e2e-custody";
import { disposeLocalStack, enginePaths } from "../support/pulumi-engine";

const SEEDED = { treasury: "Treasury ETH", operations: "Solana Operations", coldStorage: "BTC Cold Storage" };

describe("adopting existing vaults (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let seededIds: Record<string, string>;
  let vaultCount: number;

  before(async function () {
    this.timeout(40 * 60_000);
    await enginePaths();
    emulator = await startTestEmulator();
    const seeded = await apiVaultsNamed(emulator.client, Object.values(SEEDED));
    seededIds = Object.fromEntries(
      Object.entries(SEEDED).map(([key, name]) => [key, seeded.find((v) => v.name === name)!.id]),
    );
    vaultCount = (await apiAllVaults(emulator.client)).length;
  });

  after(async () => {
    if (emulator) await emulator.stop();
  });

  describe("without adoptExisting", () => {
    let stack: Stack;

    after(async () => {
      if (stack) await disposeLocalStack(stack);
    });

    it("up refuses to take over an existing vault, and names it", async () => {
      stack = await fixtureStack(emulator, "no-adopt");
      await declare(stack, { vaults: { treasury: { name: SEEDED.treasury, type: "evm" } } });

      await assert.rejects(stack.up(), (err: unknown) => {
        assert.match(String(err), new RegExp(`already exists \\(id ${seededIds.treasury}`));
        assert.match(String(err), /adoptExisting: true/);
        return true;
      });
      assert.equal((await apiAllVaults(emulator.client)).length, vaultCount, "nothing created");
    });
  });

  describe("examples/adopt-existing", () => {
    let stack: Stack;

    before(async () => {
      stack = await exampleStack(emulator, "adopt-existing", "adopt");
    });

    after(async () => {
      if (stack) await disposeLocalStack(stack);
    });

    it("up adopts the existing vaults and address: same ids, nothing created", async () => {
      const up = await stack.up();

      assert.deepEqual(outputValue(up.outputs, "vaultIds"), seededIds);
      assert.deepEqual(outputValue(up.outputs, "acquisitions"), {
        treasury: "adopted",
        operations: "adopted",
        coldStorage: "adopted",
      });
      assert.equal((await apiAllVaults(emulator.client)).length, vaultCount, "no vault created");
      const deposits = (await apiAddresses(emulator.client, seededIds.coldStorage!)).filter(
        (a) => a.name === "Deposits",
      );
      assert.equal(deposits.length, 1, "no address created");
      assert.equal(outputValue(up.outputs, "depositAddress"), deposits[0]?.address.address);
      await stack.preview({ expectNoChanges: true });
    });
  });
});
