// An `up` whose CLI is killed (SIGKILL, as a cancelled CI job does) while vaults are being created: the
// service holds vaults the state only knows as pending creates. The next `up` must finish the job without
// touching the program: every declared vault managed, none duplicated, nothing adopted that this stack did not
// create. The processes the CLI started must not outlive it.
import * as assert from "node:assert/strict";
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  apiVaultsNamed,
  cliStackExport,
  declare,
  fixtureStack,
  startTestEmulator,
  stateResources,
  type TestEmulator,
  VAULT_TYPE,
  type VaultSpec,
} from "../support/e2e-custody";
import { disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";

const execFileAsync = promisify(execFile);
const vaults: Record<string, VaultSpec> = {};
for (let i = 0; i < 6; i++) vaults[`v${i}`] = { name: `e2e-interrupted ${i}`, type: "evm" };
const names = Object.values(vaults).map((v) => v.name);

/** Every process below `pid` (children, grandchildren, …). */
function descendants(pid: number): number[] {
  const table = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [child, ppid] of table) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(
  what: string,
  condition: () => Promise<boolean> | boolean,
  ms = 60_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("an interrupted up (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;
  let cli: ChildProcess | undefined;

  before(async function () {
    this.timeout(10 * 60_000);
    await enginePaths();
    emulator = await startTestEmulator();
    stack = await fixtureStack(emulator, "interrupted");
    await declare(stack, { vaults });
  });

  after(async () => {
    if (cli && cli.exitCode === null) cli.kill("SIGKILL");
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
  });

  it("SIGKILL of the CLI while vaults are created: the next up finishes, no duplicate, nothing left running", async () => {
    // Creates are slow, so the CLI is killed with some done, some in flight and some not started.
    await emulator.control.setFaults({
      rules: [{ kind: "latency", rate: 1, route: "createVault", latencyMs: 1500 }],
    });
    const ws = stack.workspace;
    cli = spawn(
      ws.pulumiCommand.command,
      ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", stack.name],
      {
        cwd: ws.workDir,
        env: { ...process.env, ...(ws.pulumiHome ? { PULUMI_HOME: ws.pulumiHome } : {}), ...ws.envVars },
        stdio: "ignore",
      },
    );
    // Wait until the provider runs and creates are in flight; remember every process the CLI started.
    const started = new Set<number>();
    await waitFor("creates in flight", async () => {
      for (const pid of descendants(cli!.pid!)) started.add(pid);
      // The latency rule fires as a create arrives: these creates are now waiting inside the emulator.
      const { fired } = await emulator.control.getFaults();
      return started.size >= 3 && (fired[0] ?? 0) >= 2;
    });
    cli.kill("SIGKILL");
    await new Promise((r) => cli!.once("exit", r));
    await new Promise((r) => setTimeout(r, 3500)); // the emulator finishes the creates it received
    await emulator.control.clearFaults();
    const orphans = await apiVaultsNamed(emulator.client, names);
    assert.ok(orphans.length > 0, "the service holds vaults of the interrupted run");
    const before = JSON.parse(await cliStackExport(stack)) as {
      deployment: { pending_operations?: unknown[] };
    };
    assert.ok((before.deployment.pending_operations ?? []).length > 0, "the state holds pending creates");

    // Nothing the CLI started outlives it for long.
    await waitFor(
      "the language host and provider processes to exit",
      () => ![...started].some(alive),
      30_000,
    );

    // The documented recovery: release the dead run's lock, recover the pending creates, then up.
    const env = { ...process.env, ...(ws.pulumiHome ? { PULUMI_HOME: ws.pulumiHome } : {}), ...ws.envVars };
    execFileSync(ws.pulumiCommand.command, ["cancel", "--yes", "--stack", stack.name, "--non-interactive"], {
      cwd: ws.workDir,
      env,
    });
    // Asynchronously: the emulator answering it runs in this process.
    const { stdout: recovered } = await execFileAsync(
      process.execPath,
      [repoPath("cli", "dist", "custody.js"), "recover", "--stack", stack.name],
      { cwd: ws.workDir, env, encoding: "utf8" },
    );
    assert.match(recovered, /^adopted {2}urn:pulumi:.*Vault::v\d: vault "e2e-interrupted \d" exists/m);
    assert.match(recovered, /Recovered: \d+ taken over, \d+ left for `pulumi up` to create/);
    const adoptedCount = Number(/Recovered: (\d+) taken over/.exec(recovered)?.[1]);
    assert.equal(adoptedCount, orphans.length, "every vault of the interrupted run is taken over");

    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    const live = await apiVaultsNamed(emulator.client, names);
    const state = await stateResources(stack, VAULT_TYPE);
    assert.equal(state.size, names.length);
    assert.equal(live.length, names.length, "one vault per name, none duplicated");
    for (const [key, resource] of state) {
      assert.equal(live.find((v) => v.id === resource.id)?.name, vaults[key]?.name);
    }
    await stack.preview({ expectNoChanges: true });
  });
});
