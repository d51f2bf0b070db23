/**
 * `custody drift`, the nightly check: runs `pulumi preview --refresh --json` (as an event stream), tells drift
 * from a failure to check (cli/drift/drift.ts), writes the Markdown and JSON reports, and prints the verdict in
 * one line on standard error. Exit status: 0 no drift, 3 drift, 1 the check could not run (authentication,
 * network, a program error), 2 bad arguments.
 *
 * With `--accept`, drift found is then accepted where it can be (cli/drift/accept/accept.ts): the program and
 * the stack's config are changed to declare what the service has. Exit status: 0 no drift or every drift
 * accepted, 3 drift left to a hand edit (each listed with its file and line), 1 the check or the accept could
 * not run. `--dry-run` writes nothing and prints the diff instead.
 */
import * as path from "node:path";
import { type Command, parseArgs, UsageError } from "../command";
import { checkOutputFile, writeOutputFile } from "../output-file";
import { runPreviewEvents } from "../pulumi-preview";
import { PreviewInputError, parsePreview } from "../review/preview-input";
import { acrossTexts, environmentSecrets, redactorOf, scrubPreview, stackConfigSecrets } from "../secrets";
import { escapeControls, shownText } from "../shown";
import { acceptDrift } from "./accept/accept";
import { liveSecretReader } from "./accept/live";
import { checkSelection, newVaultDeclarations } from "./accept/new-vaults";
import type { AcceptReport } from "./accept/report";
import { type DriftReport, driftReport, failedDriftReport } from "./drift";
import { driftMarkdown } from "./markdown";

/** The flags that only select the vaults of `--accept-new`. */
const SELECTION_ONLY = [
  "name-prefix",
  "name-pattern",
  "type",
  "chain",
  "ignore-split",
  "exclude-stack",
  "include-managed",
];

/** The verdict's lines for an accept: what it changed, and each hand edit with its file and line. */
function acceptVerdict(accept: AcceptReport): string[] {
  if (accept.exitCode === 1) return [`the accept could not run, nothing was written: ${accept.reason ?? ""}`];
  const done = accept.accepted.length + accept.imported.length;
  const files = accept.files.length > 0 ? ` in ${accept.files.join(", ")}` : "";
  const head = accept.dryRun
    ? `dry run: ${done} change(s) would be written${files}`
    : `accepted ${done} change(s)${files}`;
  return [
    `${head}${accept.handEdits.length > 0 ? `; ${accept.handEdits.length} need a hand edit:` : ""}`,
    ...accept.handEdits.map(
      (edit) =>
        `  ${edit.file ? `${edit.file}${edit.line ? `:${edit.line}` : ""}` : "(no declaration found)"}: ${edit.resource}${edit.field ? ` (${edit.field})` : ""}: ${edit.reason}`,
    ),
  ];
}

/** The one-line verdict. */
/** The longest verdict line on standard error. */
const VERDICT_MAX = 2000;

function verdict(report: DriftReport): string {
  switch (report.status) {
    case "clean":
      return `no drift (${report.resourcesChecked} custody resources checked)`;
    case "failed":
      return `the drift check could not run: ${report.reason}`;
    default: {
      const what = report.drifted.map((r) => {
        const fields = r.fields.map((f) => f.field).join(", ");
        return `${r.resource}${fields ? ` (${fields})` : r.note ? ` (${r.operation})` : ""}`;
      });
      return `drift in ${report.drifted.length} custody resource(s): ${what.join("; ")}`;
    }
  }
}

/** `custody drift`. */
export const driftCommand: Command = {
  name: "drift",
  summary:
    "the nightly drift check: refresh-preview, reports, exit 0 (none), 3 (drift) or 1 (could not check)",
  usage: [
    "usage: custody drift [--stack NAME] [--cwd DIR] [--markdown FILE] [--json FILE]",
    "                     [--accept [--dry-run] [--policy-config FILE] [--accept-new [selection]]]",
    "                     [-- PULUMI PREVIEW ARGUMENTS]",
    "",
    "Runs `pulumi preview --refresh --json` and compares every custody resource as the API has it with what the",
    "program declares (its inputs only: outputs that change by themselves are not drift). Arguments after -- go",
    "to `pulumi preview`, e.g. --run-program so that the provider uses today's settings after a token rotation.",
    "",
    "  --stack, -s NAME   the stack (default: the selected stack)",
    "  --cwd, -C DIR      the project directory (default: the current directory)",
    "  --markdown FILE    write the Markdown report to FILE (default: standard output)",
    "  --json FILE        write the JSON report to FILE (its schema: drift/report.schema.json in this package)",
    "  --accept           accept the drift: change the program (a literal, `archived: true`) and the stack's",
    "                     config (`pulumi config set`) to declare what the service has; what cannot be (a",
    "                     computed value) is listed with its file and line",
    "  --dry-run          with --accept: write nothing, print the diff it would write on standard output",
    "  --policy-config F  with --accept: the stack's policy config; the names of the vaults it declares archived",
    "                     (or adopted) are added to the policy pack's allow-lists there, in the same change",
    "  --accept-new       with --accept: also declare the vaults made in the console that no stack manages and",
    "                     the stack's import selection takes, with the code custody import writes; the",
    "                     selection: the project's split group (custody-split.json) or, as for custody import,",
    "                     --name-prefix P, --name-pattern RE, --type T, --chain C (and --exclude-stack NAME,",
    "                     --include-managed, --ignore-split)",
    "",
    "Exit status: 0 no drift; 3 drift; 1 the check could not run (a refused token, an unreachable API, a",
    "program error), with the reason in one line; 2 bad arguments. The reports are written in every case but 2.",
    "With --accept: 0 no drift or every drift accepted; 3 drift left to a hand edit; 1 the check or the accept",
    "could not run (nothing written).",
  ].join("\n"),
  async run(argv, io) {
    const split = argv.indexOf("--");
    const own = split < 0 ? argv : argv.slice(0, split);
    const previewArgs = split < 0 ? [] : argv.slice(split + 1);
    const args = parseArgs(own, {
      flags: {
        stack: "string",
        cwd: "string",
        markdown: "string",
        json: "string",
        accept: "boolean",
        "dry-run": "boolean",
        "accept-new": "boolean",
        "policy-config": "string",
        "name-prefix": "string",
        "name-pattern": "string",
        type: "strings",
        chain: "strings",
        "ignore-split": "boolean",
        "exclude-stack": "strings",
        "include-managed": "boolean",
      },
      aliases: { s: "stack", C: "cwd" },
    });
    if (args.help) {
      io.stdout.write(`${this.usage}\n`);
      return 0;
    }
    const accept = args.flags.accept === true;
    const dryRun = args.flags["dry-run"] === true;
    if (dryRun && !accept)
      throw new UsageError(
        "--dry-run goes with --accept (custody drift --accept --dry-run): the check alone writes nothing",
      );
    const acceptNew = args.flags["accept-new"] === true;
    const policyConfig = args.flags["policy-config"] as string | undefined;
    if (policyConfig !== undefined && !accept)
      throw new UsageError(
        "--policy-config goes with --accept: it is the file the accepted names are added to",
      );
    if (acceptNew && !accept)
      throw new UsageError("--accept-new goes with --accept (custody drift --accept --accept-new …)");
    const selectionFlag = Object.keys(args.flags).find((flag) => SELECTION_ONLY.includes(flag));
    if (selectionFlag && !acceptNew)
      throw new UsageError(`--${selectionFlag} selects the vaults of --accept-new, which it goes with`);
    if (acceptNew) checkSelection(args, path.resolve(io.cwd, (args.flags.cwd as string | undefined) ?? "."));
    const markdownFile = args.flags.markdown as string | undefined;
    const jsonFile = args.flags.json as string | undefined;
    const target = (file: string, what: string, flag: string) => ({
      file: path.resolve(io.cwd, file),
      what,
      flag,
      cwd: io.cwd,
    });
    // Checked before the preview (minutes on a large stack): a report that cannot be written is said now, in
    // one line, and no check runs whose verdict would be lost.
    if (markdownFile) checkOutputFile(target(markdownFile, "the Markdown report", "--markdown"));
    if (jsonFile) checkOutputFile(target(jsonFile, "the JSON report", "--json"));
    const stack = args.flags.stack as string | undefined;
    const cwd = (args.flags.cwd as string | undefined) ?? io.cwd;
    const checkedAt = new Date();
    // Whatever the reports quote may echo a credential: every form of each is scrubbed (cli/secrets.ts).
    const redactor = redactorOf([
      ...environmentSecrets(io.env),
      ...(await stackConfigSecrets({ cwd, stack, env: io.env })),
    ]);
    let report: DriftReport;
    try {
      const run = await runPreviewEvents(["--refresh", ...previewArgs], {
        cwd,
        stack,
        env: io.env,
        stderr: io.stderr,
        redact: (line) => redactor.text(line),
      });
      if (run.events.trim() === "") {
        report = failedDriftReport(
          `\`pulumi preview\` exited ${run.exitCode}${run.lastError ? `: ${run.lastError}` : " without printing events"}`,
          checkedAt,
          stack,
        );
      } else {
        const preview = scrubPreview(parsePreview(run.events), redactor);
        // The CLI's last line, also against the diagnostics: a secret split between them.
        const messages = (preview.diagnostics ?? []).map((d) => d.message);
        const lastError = acrossTexts(redactor, [...messages, run.lastError]).pop();
        report = driftReport({
          preview,
          exitCode: run.exitCode,
          lastError,
          checkedAt,
          runProgram: previewArgs.some((a) => a === "--run-program" || a === "--run-program=true"),
        });
      }
    } catch (err) {
      const reason =
        err instanceof PreviewInputError
          ? `\`pulumi preview --json\` printed something other than engine events: ${err.message}`
          : err instanceof Error
            ? err.message
            : String(err);
      report = failedDriftReport(reason, checkedAt, stack);
    }

    if (accept && (report.status === "drift" || (acceptNew && report.status === "clean"))) {
      const projectDir = path.resolve(io.cwd, cwd);
      try {
        const result = await acceptDrift(report, {
          projectDir,
          stack,
          env: io.env,
          cwd: io.cwd,
          dryRun,
          liveSecret: liveSecretReader({ cwd: projectDir, stack, env: io.env }),
          policyConfig: policyConfig ? path.resolve(io.cwd, policyConfig) : undefined,
          newDeclarations: acceptNew
            ? (project, current) => newVaultDeclarations(args, io, project, current)
            : undefined,
        });
        // A clean stack with no new vault: nothing to accept, and nothing to say.
        if (report.status === "drift" || result.imported.length > 0)
          report.accept = {
            dryRun,
            exitCode: result.exitCode,
            reason: null,
            accepted: result.accepted,
            handEdits: result.handEdits,
            imported: result.imported,
            files: result.files.map((f) => f.shown),
            diff: result.diff,
          };
      } catch (err) {
        if (err instanceof UsageError) throw err;
        const reason = (err instanceof Error ? err.message : String(err)).split("\n")[0] ?? "";
        report.accept = {
          dryRun,
          exitCode: 1,
          reason: escapeControls(reason),
          accepted: [],
          handEdits: [],
          imported: [],
          files: [],
          diff: "",
        };
      }
    }

    // The reports as written, scrubbed once more whole: a secret that only the report's own text joins.
    report = redactor.value(report);
    const markdown = redactor.text(driftMarkdown(report));
    if (markdownFile)
      writeOutputFile(target(markdownFile, "the Markdown report", "--markdown"), markdown, {
        overwrite: true,
      });
    // A dry run prints the diff (for `git apply`), the report going to its file only.
    else if (!dryRun) io.stdout.write(markdown);
    if (dryRun && report.accept) io.stdout.write(report.accept.diff);
    if (jsonFile)
      writeOutputFile(target(jsonFile, "the JSON report", "--json"), `${JSON.stringify(report, null, 2)}\n`, {
        overwrite: true,
      });
    // One line whatever the service or the engine said: escaped and cut by the one rule.
    io.stderr.write(`custody drift: ${shownText(redactor.text(verdict(report)), VERDICT_MAX)}\n`);
    if (report.accept)
      for (const line of acceptVerdict(report.accept))
        io.stderr.write(`custody drift: ${redactor.text(escapeControls(line))}\n`);
    return report.accept?.exitCode ?? report.exitCode;
  },
};
