/**
 * `custody recover [--stack <name>] [--cwd <dir>]`: finishes the creates of an `up` that was killed (a
 * cancelled CI job) so that the next `up` succeeds without touching the program. It reads the stack with
 * `pulumi stack export`, takes over every vault and address that the interrupted run was creating and that
 * exists as declared, drops the creates that never arrived, and writes the result back with
 * `pulumi stack import`. Settings come from the stack config (`custody:baseUrl`, `custody:accessToken`) or the
 * environment, as for the provider. Run `pulumi cancel` first if the dead run left the stack locked.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configure, type ExportedDeployment, recoverPendingCreates } from "pulumi-custody/core";
import { type Command, parseArgs } from "../command";

/** `custody recover`. */
export const recoverCommand: Command = {
  name: "recover",
  summary: "finish the creates of an `up` that was interrupted, so that the next `up` succeeds",
  usage: [
    "usage: custody recover [--stack NAME] [--cwd DIR]",
    "",
    "  --stack, -s NAME   the stack (default: the selected stack)",
    "  --cwd, -C DIR      the project directory (default: the current directory)",
  ].join("\n"),
  async run(argv, io) {
    const args = parseArgs(argv, {
      flags: { stack: "string", cwd: "string" },
      aliases: { s: "stack", C: "cwd" },
    });
    if (args.help) {
      io.stdout.write(`${this.usage}\n`);
      return 0;
    }
    const options = {
      stack: args.flags.stack as string | undefined,
      cwd: (args.flags.cwd as string | undefined) ?? io.cwd,
      env: io.env,
    };
    const exported = JSON.parse(pulumi(["stack", "export"], options)) as { deployment: ExportedDeployment };
    const config = JSON.parse(pulumi(["config", "--json", "--show-secrets"], options)) as Record<
      string,
      { value?: unknown }
    >;
    configure(Object.fromEntries(Object.entries(config).map(([key, entry]) => [key, entry.value])));

    const { deployment, outcomes } = await recoverPendingCreates(exported.deployment);
    if (outcomes.length === 0) {
      io.stdout.write("No pending creates of custody vaults or addresses: nothing to recover.\n");
      return 0;
    }
    for (const o of outcomes)
      io.stdout.write(`${o.outcome === "adopted" ? "adopted" : "dropped"}  ${o.urn}: ${o.reason}\n`);
    const dir = mkdtempSync(join(tmpdir(), "custody-recover-"));
    try {
      const file = join(dir, "deployment.json");
      writeFileSync(file, JSON.stringify({ ...exported, deployment }), { mode: 0o600 });
      pulumi(["stack", "import", "--file", file], options);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const adopted = outcomes.filter((o) => o.outcome === "adopted").length;
    io.stdout.write(
      `Recovered: ${adopted} taken over, ${outcomes.length - adopted} left for \`pulumi up\` to create. Run \`pulumi up\` now.\n`,
    );
    return 0;
  },
};

function pulumi(args: string[], options: { cwd: string; stack?: string; env: NodeJS.ProcessEnv }): string {
  const stackArgs = options.stack ? ["--stack", options.stack] : [];
  return execFileSync("pulumi", [...args, ...stackArgs, "--non-interactive"], {
    cwd: options.cwd,
    env: options.env,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
}
