// The emulator as users run it (the CLI with a state file) killed with SIGKILL right after an `up`: every
// vault the engine recorded is still there after a restart, under the same id, and the next vault gets a new
// id, so no two Pulumi resources ever manage one vault.
import * as assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { CustodyClient } from "@pulumi-custody/sdk";
import { type CliProcess, freeLoopbackPort, startCli } from "@pulumi-custody/testing";
import {
  declare,
  fixtureStack,
  stateResources,
  type TestEmulator,
  VAULT_TYPE,
  type VaultSpec,
} from "../support/e2e-custody";
import { disposeLocalStack, enginePaths } from "../support/pulumi-engine";

describe("an emulator killed right after an up (real engine, emulator process)", () => {
  let dir: string;
  let running: CliProcess | undefined;
  let stack: Stack;
  const vaults: Record<string, VaultSpec> = {
    a: { name: "e2e-crash A", type: "evm" },
    b: { name: "e2e-crash B", type: "solana" },
    c: { name: "e2e-crash C", type: "utxo", chain: "bitcoin_testnet" },
  };

  before(async function () {
    this.timeout(10 * 60_000);
    await enginePaths();
    dir = mkdtempSync(path.join(tmpdir(), "custody-e2e-crash-"));
  });

  after(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) await running.kill();
    if (stack) await disposeLocalStack(stack);
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every vault the engine recorded, and never hands out an id twice", async () => {
    const port = String(await freeLoopbackPort());
    // Background writes wait a minute: what the engine was told is on disk must not depend on them.
    const file = path.join(dir, "state.json");
    const args = ["--state-file", file, "--state-write-delay", "60000", "--port", port, "--rate-limit", "0"];
    running = await startCli(args);
    const emulator = { baseUrl: running.info.baseUrl, accessToken: running.info.accessToken } as TestEmulator;
    stack = await fixtureStack(emulator, "crash");
    await declare(stack, { vaults });
    await stack.up();
    await running.kill(); // SIGKILL, right after the engine got its answers

    running = await startCli(args);
    const client = new CustodyClient({
      baseUrl: running.info.baseUrl,
      accessToken: running.info.accessToken,
    });
    try {
      const recorded = await stateResources(stack, VAULT_TYPE);
      for (const [key, resource] of recorded) {
        assert.equal((await client.vaults.get(String(resource.id))).name, vaults[key]?.name, `vault ${key}`);
      }
      await stack.preview({ refresh: true, expectNoChanges: true });

      await declare(stack, { vaults: { ...vaults, d: { name: "e2e-crash D", type: "evm" } } });
      await stack.up();
      const after = await stateResources(stack, VAULT_TYPE);
      const ids = [...after.values()].map((r) => r.id);
      assert.equal(new Set(ids).size, 4, "four resources, four vaults");
      assert.equal((await client.vaults.get(String(after.get("d")?.id))).name, "e2e-crash D");
    } finally {
      await client.close();
    }
  });
});
