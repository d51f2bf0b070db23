/**
 * `custody recover [--stack <name>] [--cwd <dir>]`: finishes the creates of an `up` that was killed (a
 * cancelled CI job) so that the next `up` succeeds without touching the program. It reads the stack with
 * `pulumi stack export`, takes over every vault and address that the interrupted run was creating and that
 * exists as declared, drops the creates that never arrived, and writes the result back with
 * `pulumi stack import`. Settings come from the stack config (`custody:baseUrl`, `custody:accessToken`) or the
 * environment, as for the provider. Run `pulumi cancel` first if the dead run left the stack locked.
 *
 * The takeovers exist only in the state it writes back, so it says what it did once `pulumi stack import`
 * succeeded, and when the import fails it says that nothing was changed, why, and what to do.
 *
 * With the file backend it first repairs what a kill can leave unreadable there (./file-backend.ts): a
 * half-written metadata file beside the state, which makes every command, `pulumi cancel` included, fail with
 * `failed to load checkpoint: EOF`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configure, type ExportedDeployment, recoverPendingCreates } from "pulumi-custody/core";
import { type Command, parseArgs } from "../command";
import { escapeControls, shownText, withoutSecrets } from "../shown";
import { backendDirOf, repairTornMetadata, stateBackups } from "./file-backend";

/** `custody recover`. */
export const recoverCommand: Command = {
  name: "recover",
  summary: "finish the creates of an `up` that was interrupted, so that the next `up` succeeds",
  usage: [
    "usage: custody recover [--stack NAME] [--cwd DIR]",
    "",
    "  --stack, -s NAME   the stack (default: the selected stack)",
    "  --cwd, -C DIR      the project directory (default: the current directory)",
    "",
    "Takes over the vaults and addresses the interrupted run was creating that exist as declared, drops the",
    "creates that never arrived, and writes the state back with `pulumi stack import`; then prints what it did",
    "for each. If the import fails (a stack still locked by the dead run: `pulumi cancel --yes` first), it",
    "prints that nothing was changed, and why.",
    "",
    "Exit status: 0 recovered, or nothing to recover; 1 it failed and the stack's state was not changed (the",
    "reason in one line); 2 bad arguments.",
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
    const backendDir = fileBackendDir(options);
    let repaired = 0;
    if (backendDir) {
      for (const file of repairTornMetadata(backendDir)) {
        repaired++;
        io.stdout.write(
          `repaired  ${file}: a metadata file of the state that an interrupted run left half-written ` +
            "(the state file beside it is whole); removed, so that pulumi can read the stack again\n",
        );
      }
    }
    let exported: { deployment: ExportedDeployment };
    try {
      exported = JSON.parse(pulumi(["stack", "export"], options)) as { deployment: ExportedDeployment };
    } catch (err) {
      throw new Error(`${describe(err)}${backendDir ? backupsAdvice(backendDir, options) : ""}`);
    }
    const config = JSON.parse(pulumi(["config", "--json", "--show-secrets"], options)) as Record<
      string,
      { value?: unknown; secret?: boolean }
    >;
    // The stack's secrets, which no message may show.
    const secrets = Object.values(config)
      .filter((entry) => entry.secret === true && typeof entry.value === "string")
      .map((entry) => entry.value as string);
    configure(Object.fromEntries(Object.entries(config).map(([key, entry]) => [key, entry.value])));

    const { deployment, outcomes } = await recoverPendingCreates(exported.deployment);
    if (outcomes.length === 0) {
      io.stdout.write("No pending creates of custody vaults or addresses: nothing to recover.\n");
      return 0;
    }
    const dir = mkdtempSync(join(tmpdir(), "custody-recover-"));
    try {
      const file = join(dir, "deployment.json");
      writeFileSync(file, JSON.stringify({ ...exported, deployment }), { mode: 0o600 });
      try {
        // Named without the file: a temporary one, gone when the message is read.
        pulumi(["stack", "import", "--file", file], options, "stack import");
      } catch (err) {
        // The takeovers were only in the state it could not write: the stack and the API are as they were.
        const why = withoutSecrets(describe(err), io.env, secrets);
        throw new Error(
          `nothing ${repaired > 0 ? "else " : ""}was changed (the stack's state is as it was: nothing taken over, ` +
            `no create dropped): ${why}` +
            (LOCKED.test(why)
              ? ". A run holds the stack's lock. If that run is dead (a killed or cancelled `pulumi up`), " +
                "release it with `pulumi cancel --yes`, then run `custody recover` again; if another run is going " +
                "on, wait for it to end, then run `custody recover` again."
              : ""),
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Only now is it true: the state holds the takeovers.
    // What the state and the service hold (a URN, a vault's name in a reason) is shown by the one rule.
    for (const o of outcomes)
      io.stdout.write(
        `${o.outcome === "adopted" ? "adopted" : "dropped"}  ${escapeControls(o.urn)}: ${shownText(o.reason, REASON_MAX)}\n`,
      );
    const adopted = outcomes.filter((o) => o.outcome === "adopted").length;
    io.stdout.write(
      `Recovered: ${adopted} taken over, ${outcomes.length - adopted} left for \`pulumi up\` to create. Run \`pulumi up\` now.\n`,
    );
    return 0;
  },
};

/** The longest reason of a line of what recover did. */
const REASON_MAX = 500;

/** What the backends say of a stack whose lock a run holds (the file backend; the Pulumi Cloud's 409). */
const LOCKED = /locked|another update is currently in progress|\[409\] Conflict/i;

/**
 * Runs the `pulumi` CLI; its output, or an error whose message is what the CLI said on stderr, naming the
 * command as `shown` (by default its arguments).
 */
function pulumi(
  args: string[],
  options: { cwd: string; stack?: string; env: NodeJS.ProcessEnv },
  shown = args.join(" "),
): string {
  const stackArgs = options.stack ? ["--stack", options.stack] : [];
  try {
    return execFileSync("pulumi", [...args, ...stackArgs, "--non-interactive"], {
      cwd: options.cwd,
      env: options.env,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    // On one line, as every failure of `custody` is reported.
    const said = String((err as { stderr?: unknown }).stderr ?? "")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .join(" ")
      .replace(/^error: /, "");
    throw new Error(`\`pulumi ${shown}\` failed: ${said || describe(err)}`);
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The directory of the stack's backend when it is the file backend (`file://…`); else `undefined`. */
function fileBackendDir(options: { cwd: string; env: NodeJS.ProcessEnv }): string | undefined {
  // The backend the CLI itself resolves (PULUMI_BACKEND_URL, the project's `backend.url`, the login).
  let url: string | undefined;
  try {
    url = /^Backend URL: (\S+)$/m.exec(
      pulumi(["whoami", "--verbose"], { ...options, stack: undefined }),
    )?.[1];
  } catch {
    url = options.env.PULUMI_BACKEND_URL?.trim();
  }
  return url ? backendDirOf(url, options.cwd) : undefined;
}

/** Where the file backend keeps copies of the stack's state, and how to use one. */
function backupsAdvice(backendDir: string, options: { stack?: string }): string {
  const stacksDir = `${backendDir}/.pulumi/stacks`;
  const copies = options.stack
    ? listDirs(stacksDir).flatMap((project) => stateBackups(backendDir, project, options.stack as string))
    : [];
  const where =
    copies.length > 0
      ? `copies of its state, newest first: ${copies.join(", ")}`
      : `copies of each stack's state in ${stacksDir}/<project>/<stack>.json.bak (before its last write) and ` +
        `${backendDir}/.pulumi/backups/<project>/<stack>/ (after each completed update)`;
  return `. The file backend keeps ${where}. Check one, then restore it with \`pulumi stack import --file <copy>\`.`;
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}
