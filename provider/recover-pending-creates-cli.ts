#!/usr/bin/env node
/**
 * `custody-recover-pending-creates [--stack <name>] [--cwd <dir>]`: finishes the creates of an `up` that was
 * killed (a cancelled CI job) so that the next `up` succeeds without touching the program. It reads the
 * stack with `pulumi stack export`, takes over every vault and address that the interrupted run was creating
 * and that exists as declared, drops the creates that never arrived, and writes the result back with
 * `pulumi stack import`. Settings come from the stack config (`custody:baseUrl`, `custody:accessToken`) or
 * the environment, as for the provider. Run `pulumi cancel` first if the dead run left the stack locked.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configure } from "./runtime";
import { type ExportedDeployment, recoverPendingCreates } from "./runtime/pending-creates";

const USAGE = "usage: custody-recover-pending-creates [--stack <name>] [--cwd <dir>]";

function parseArgs(argv: string[]): { stack?: string; cwd?: string } {
  const out: { stack?: string; cwd?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--help" || flag === "-h") {
      console.log(USAGE);
      process.exit(0);
    }
    const value = argv[i + 1];
    if ((flag === "--stack" || flag === "-s" || flag === "--cwd" || flag === "-C") && value !== undefined) {
      if (flag === "--stack" || flag === "-s") out.stack = value;
      else out.cwd = value;
      i++;
      continue;
    }
    console.error(
      `custody-recover-pending-creates: unknown or incomplete argument ${JSON.stringify(flag)}\n${USAGE}`,
    );
    process.exit(2);
  }
  return out;
}

function pulumi(args: string[], options: { cwd?: string; stack?: string }): string {
  const stackArgs = options.stack ? ["--stack", options.stack] : [];
  return execFileSync("pulumi", [...args, ...stackArgs, "--non-interactive"], {
    cwd: options.cwd,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const exported = JSON.parse(pulumi(["stack", "export"], options)) as { deployment: ExportedDeployment };
  const config = JSON.parse(pulumi(["config", "--json", "--show-secrets"], options)) as Record<
    string,
    { value?: unknown }
  >;
  configure(Object.fromEntries(Object.entries(config).map(([key, entry]) => [key, entry.value])));

  const { deployment, outcomes } = await recoverPendingCreates(exported.deployment);
  if (outcomes.length === 0) {
    console.log("No pending creates of custody vaults or addresses: nothing to recover.");
    return;
  }
  for (const o of outcomes)
    console.log(`${o.outcome === "adopted" ? "adopted" : "dropped"}  ${o.urn}: ${o.reason}`);
  const dir = mkdtempSync(join(tmpdir(), "custody-recover-"));
  try {
    const file = join(dir, "deployment.json");
    writeFileSync(file, JSON.stringify({ ...exported, deployment }), { mode: 0o600 });
    pulumi(["stack", "import", "--file", file], options);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const adopted = outcomes.filter((o) => o.outcome === "adopted").length;
  console.log(
    `Recovered: ${adopted} taken over, ${outcomes.length - adopted} left for \`pulumi up\` to create. Run \`pulumi up\` now.`,
  );
}

main().catch((err: unknown) => {
  console.error(`custody-recover-pending-creates: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
