// An `up` whose CLI is killed (SIGKILL, as a cancelled CI job does) while vaults are being created: the
// service holds vaults the state only knows as pending creates. The next `up` must say how to finish the job,
// and the documented recovery must finish it without touching the program: every declared vault managed, none
// duplicated, nothing adopted that this stack did not create. The processes the CLI started must not outlive it.
//
// The messages are those docs/provider.md quotes, in its order: the lock first, then (after `pulumi cancel`) the
// vaults that already exist.
//
// Deterministic: two vaults exist from an earlier `up`; the next `up` runs at most two creates at a time, both
// wait at the emulator, and the CLI is killed once they have arrived and the state file lists them as pending
// creates (the engine records a pending create before it sends the create). Nothing else is left to write until
// the creates answer, so the kill cannot land inside a write. A kill that does land inside one (it once did, on
// a loaded machine: `pulumi stack export` answered `failed to load checkpoint: EOF`) is reproduced by writing
// what it leaves: the file backend writes the state file by renaming a temporary file over it, but truncates
// and rewrites the state's metadata sidecar `<stack>.json.attrs` in place (cli/recover/file-backend.ts).
import * as assert from "node:assert/strict";
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { assertReadable, cliOutput, diagnosticsByRow } from "../support/cli-output";
import {
  apiVaultsNamed,
  declare,
  fixtureStack,
  pulumiCli,
  startTestEmulator,
  stateResources,
  type TestEmulator,
  VAULT_TYPE,
  type VaultSpec,
} from "../support/e2e-custody";
import { disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";

const execFileAsync = promisify(execFile);

/** How long the creates of the killed `up` wait at the emulator: far longer than the test needs to kill it. */
const SLOW_CREATE_MS = 15_000;

/** Six vaults named `<prefix> 0` … `<prefix> 5`. */
function sixVaults(prefix: string): Record<string, VaultSpec> {
  const vaults: Record<string, VaultSpec> = {};
  for (let i = 0; i < 6; i++) vaults[`v${i}`] = { name: `${prefix} ${i}`, type: "evm" };
  return vaults;
}

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

/** The environment the stack's CLI runs with. */
function cliEnv(stack: Stack): NodeJS.ProcessEnv {
  const ws = stack.workspace;
  return { ...process.env, ...(ws.pulumiHome ? { PULUMI_HOME: ws.pulumiHome } : {}), ...ws.envVars };
}

/** The stack's state file in its file backend (`.pulumi/stacks/<project>/<stack>.json`). */
function stateFile(stack: Stack): string {
  const backend = (stack.workspace.envVars.PULUMI_BACKEND_URL ?? "").replace(/^file:\/\//, "");
  return path.join(backend, ".pulumi", "stacks", "custody-stack", `${stack.name}.json`);
}

/**
 * The resource names the state file holds as pending creates, read from the file itself: it is whole whatever
 * happened to its metadata sidecar.
 */
function pendingCreates(stack: Stack): string[] {
  const file = JSON.parse(fs.readFileSync(stateFile(stack), "utf8")) as {
    checkpoint: { latest?: { pending_operations?: Array<{ type: string; resource: { urn: string } }> } };
  };
  return (file.checkpoint.latest?.pending_operations ?? [])
    .filter((op) => op.type === "creating")
    .map((op) => op.resource.urn.slice(op.resource.urn.lastIndexOf("::") + 2))
    .sort();
}

/**
 * The two messages docs/provider.md quotes in "An interrupted `up`", in its order: the lock the next `up` stops
 * at first, then the one an `up` after `pulumi cancel --yes` stops at.
 */
function documentedMessages(): string[] {
  const text = fs.readFileSync(repoPath("docs", "provider.md"), "utf8");
  const start = text.indexOf("### An interrupted `up`");
  const section = text.slice(start, text.indexOf("\n### ", start + 1));
  const blocks = [...section.matchAll(/```text\n([\s\S]*?)\n```/g)].map((m) => m[1] as string);
  assert.equal(blocks.length, 2, "docs/provider.md quotes the two messages");
  assert.match(blocks[0] as string, /^error: the stack is currently locked/);
  assert.match(blocks[1] as string, /^A vault named "Treasury" already exists/);
  return blocks;
}

/** `custody recover` of the stack, as a user runs it; its exit code, stdout and stderr. */
async function custodyRecover(stack: Stack): Promise<{ code: number; stdout: string; stderr: string }> {
  // Asynchronously: the emulator answering it runs in this process.
  return execFileAsync(
    process.execPath,
    [repoPath("cli", "dist", "custody.js"), "recover", "--stack", stack.name],
    { cwd: stack.workspace.workDir, env: cliEnv(stack), encoding: "utf8" },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: err.code ?? -1,
      stdout: err.stdout ?? "",
      stderr: err.stderr ?? "",
    }),
  );
}

describe("an interrupted up (real engine, emulator)", () => {
  let emulator: TestEmulator;
  const stacks: Stack[] = [];
  const clis: ChildProcess[] = [];

  before(async function () {
    this.timeout(10 * 60_000);
    await enginePaths();
    emulator = await startTestEmulator();
  });

  after(async () => {
    for (const cli of clis) if (cli.exitCode === null && cli.signalCode === null) cli.kill("SIGKILL");
    for (const stack of stacks) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
  });

  /**
   * A new stack whose `up` of `vaults` was killed with two vaults created (by an earlier `up`), two being
   * created and two not started; returns once the two being created exist at the service and every process the
   * CLI started is gone.
   */
  async function interruptedUp(stackName: string, vaults: Record<string, VaultSpec>): Promise<Stack> {
    const stack = await fixtureStack(emulator, stackName);
    stacks.push(stack);
    const [first, second] = Object.keys(vaults);
    await declare(stack, {
      vaults: Object.fromEntries(Object.entries(vaults).filter(([key]) => key === first || key === second)),
    });
    await stack.up();
    await declare(stack, { vaults });
    await emulator.control.setFaults({
      rules: [{ kind: "latency", rate: 1, route: "createVault", latencyMs: SLOW_CREATE_MS }],
    });
    const ws = stack.workspace;
    const cli = spawn(
      ws.pulumiCommand.command,
      ["up", "--yes", "--skip-preview", "--parallel", "2", "--non-interactive", "--stack", stack.name],
      { cwd: ws.workDir, env: cliEnv(stack), stdio: "ignore" },
    );
    clis.push(cli);
    const started = new Set<number>();
    await waitFor("two creates waiting at the emulator, recorded as pending creates", async () => {
      for (const pid of descendants(cli.pid ?? 0)) started.add(pid);
      const { fired } = await emulator.control.getFaults();
      return started.size >= 2 && (fired[0] ?? 0) >= 2 && pendingCreates(stack).length === 2;
    });
    cli.kill("SIGKILL");
    await new Promise((r) => cli.once("exit", r));
    const names = Object.values(vaults).map((v) => v.name);
    await waitFor("the two creates that were waiting to finish at the emulator", async () => {
      return (await apiVaultsNamed(emulator.client, names)).length === 4;
    });
    await emulator.control.clearFaults();
    // Nothing the CLI started outlives it for long.
    await waitFor(
      "the language host and provider processes to exit",
      () => ![...started].some(alive),
      30_000,
    );
    return stack;
  }

  it("SIGKILL while vaults are created: the next up says how to recover; custody recover and up finish, no duplicate", async () => {
    const vaults = sixVaults("e2e-interrupted");
    const names = Object.values(vaults).map((v) => v.name);
    const stack = await interruptedUp("interrupted", vaults);
    const pending = pendingCreates(stack);
    assert.equal(pending.length, 2, "the state holds the two creates that were waiting as pending creates");

    // What a user does next, in the order docs/provider.md gives ("An interrupted `up`"): the next `up` first
    // stops at the dead run's lock, changing nothing; once `pulumi cancel --yes` releases it, an `up` stops at
    // the vaults the killed run created, and says what to do.
    const documented = documentedMessages();
    const locked = await cliOutput(stack, ["up", "--yes"]);
    assert.ok(locked.failed, locked.output);
    assert.ok(locked.output.includes(documented[0] as string), `the lock, as documented:\n${locked.output}`);
    assert.doesNotMatch(locked.output, /already exists/);
    assert.deepEqual(pendingCreates(stack), pending, "the locked up changed nothing");
    await pulumiCli(stack, ["cancel", "--yes"]);
    const { failed, output } = await cliOutput(stack, ["up", "--yes"]);
    assert.ok(failed, output);
    assertReadable(output);
    const rows = diagnosticsByRow(output);
    // The engine stops starting creates at the first failure, so on a loaded machine the second pending create
    // may never be tried: each one tried says the one thing, and at least one is tried.
    const tried = pending.filter((resource) => rows.has(`${VAULT_TYPE} ${resource}`));
    assert.ok(tried.length > 0, output);
    const vaultRows = [...rows.keys()].filter((row) => row.startsWith(`${VAULT_TYPE} `));
    assert.deepEqual(vaultRows.sort(), tried.map((resource) => `${VAULT_TYPE} ${resource}`).sort(), output);
    // The documented message, but for the name and the id.
    const documentedExists = (documented[1] as string)
      .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      .replace('"Treasury"', '"[^"]+"')
      .replace("id …", "id [0-9a-f-]{36}");
    for (const resource of tried) {
      const lines = rows.get(`${VAULT_TYPE} ${resource}`) ?? [];
      assert.equal(lines.length, 1, `${resource}: ${lines.join("\n")}\n${output}`);
      assert.match(lines[0] ?? "", new RegExp(`^error: ${documentedExists}$`));
      assert.match(
        lines[0] ?? "",
        new RegExp(
          `^error: A vault named "${vaults[resource]?.name}" already exists \\(id [0-9a-f-]{36}, type "evm", state "active"\\), and vault names are unique\\. If an earlier \`pulumi up\` of this stack was interrupted \\(killed or cancelled\\) while creating it, run \`npx custody recover\` \\(the \`recover\` command of the \`custody\` command line, package @pulumi-custody/cli\\) to take over the vaults that run created, then \`pulumi up\` again\\. Otherwise set adoptExisting: true`,
        ),
      );
    }

    // The advice, followed.
    const recovered = await custodyRecover(stack);
    assert.equal(recovered.code, 0, recovered.stderr);
    for (const resource of pending) {
      assert.match(
        recovered.stdout,
        new RegExp(
          `^adopted {2}urn:pulumi:.*Vault::${resource}: vault "${vaults[resource]?.name}" exists`,
          "m",
        ),
      );
    }
    assert.match(recovered.stdout, /Recovered: 2 taken over, 0 left for `pulumi up` to create/);

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

  it("a kill inside the write of the state's metadata file: `failed to load checkpoint: EOF`, which custody recover repairs", async () => {
    const vaults = sixVaults("e2e-torn");
    const names = Object.values(vaults).map((v) => v.name);
    const stack = await interruptedUp("torn", vaults);
    assert.equal(pendingCreates(stack).length, 2);
    // What a kill between the truncation and the write of the sidecar leaves.
    const sidecar = `${stateFile(stack)}.attrs`;
    assert.ok(fs.existsSync(sidecar), `${sidecar} is where the file backend keeps the state's metadata`);
    fs.writeFileSync(sidecar, "");

    const cancel = await cliOutput(stack, ["cancel", "--yes"]);
    assert.ok(cancel.failed, cancel.output);
    assert.match(cancel.output, /failed to load checkpoint: EOF/);

    // As docs/provider.md says: custody recover repairs the file, then asks for the lock to be released.
    const first = await custodyRecover(stack);
    assert.equal(first.code, 1, first.stdout);
    assert.match(
      first.stdout,
      new RegExp(`^repaired {2}${sidecar.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: `, "m"),
    );
    assert.match(first.stderr, /locked/);
    assert.match(first.stderr, /release it with `pulumi cancel --yes`.*then run `custody recover` again/);
    assert.equal(first.stderr.trim().split("\n").length, 1, first.stderr);

    await pulumiCli(stack, ["cancel", "--yes"]);
    const second = await custodyRecover(stack);
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stdout, /^repaired/m);
    assert.match(second.stdout, /Recovered: 2 taken over, 0 left for `pulumi up` to create/);

    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal((await apiVaultsNamed(emulator.client, names)).length, names.length, "none duplicated");
    assert.equal((await stateResources(stack, VAULT_TYPE)).size, names.length);
    await stack.preview({ expectNoChanges: true });
  });
});
