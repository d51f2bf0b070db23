/**
 * `custody drift`, the nightly check: runs `pulumi preview --refresh --json` (as an event stream), tells drift
 * from a failure to check (cli/drift/drift.ts), writes the Markdown and JSON reports, and prints the verdict in
 * one line on standard error. Exit status: 0 no drift, 3 drift, 1 the check could not run (authentication,
 * network, a program error), 2 bad arguments.
 */
import * as path from "node:path";
import { type Command, parseArgs } from "../command";
import { checkOutputFile, writeOutputFile } from "../output-file";
import { runPreviewEvents } from "../pulumi-preview";
import { PreviewInputError, parsePreview } from "../review/preview-input";
import { acrossTexts, environmentSecrets, redactorOf, scrubPreview, stackConfigSecrets } from "../secrets";
import { shownText } from "../shown";
import { type DriftReport, driftReport, failedDriftReport } from "./drift";
import { driftMarkdown } from "./markdown";

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
    "usage: custody drift [--stack NAME] [--cwd DIR] [--markdown FILE] [--json FILE] [-- PULUMI PREVIEW ARGUMENTS]",
    "",
    "Runs `pulumi preview --refresh --json` and compares every custody resource as the API has it with what the",
    "program declares (its inputs only: outputs that change by themselves are not drift). Arguments after -- go",
    "to `pulumi preview`, e.g. --run-program so that the provider uses today's settings after a token rotation.",
    "",
    "  --stack, -s NAME   the stack (default: the selected stack)",
    "  --cwd, -C DIR      the project directory (default: the current directory)",
    "  --markdown FILE    write the Markdown report to FILE (default: standard output)",
    "  --json FILE        write the JSON report to FILE (its schema: drift/report.schema.json in this package)",
    "",
    "Exit status: 0 no drift; 3 drift; 1 the check could not run (a refused token, an unreachable API, a",
    "program error), with the reason in one line; 2 bad arguments. The reports are written in every case but 2.",
  ].join("\n"),
  async run(argv, io) {
    const split = argv.indexOf("--");
    const own = split < 0 ? argv : argv.slice(0, split);
    const previewArgs = split < 0 ? [] : argv.slice(split + 1);
    const args = parseArgs(own, {
      flags: { stack: "string", cwd: "string", markdown: "string", json: "string" },
      aliases: { s: "stack", C: "cwd" },
    });
    if (args.help) {
      io.stdout.write(`${this.usage}\n`);
      return 0;
    }
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

    // The reports as written, scrubbed once more whole: a secret that only the report's own text joins.
    report = redactor.value(report);
    const markdown = redactor.text(driftMarkdown(report));
    if (markdownFile)
      writeOutputFile(target(markdownFile, "the Markdown report", "--markdown"), markdown, {
        overwrite: true,
      });
    else io.stdout.write(markdown);
    if (jsonFile)
      writeOutputFile(target(jsonFile, "the JSON report", "--json"), `${JSON.stringify(report, null, 2)}\n`, {
        overwrite: true,
      });
    // One line whatever the service or the engine said: escaped and cut by the one rule.
    io.stderr.write(`custody drift: ${shownText(redactor.text(verdict(report)), VERDICT_MAX)}\n`);
    return report.exitCode;
  },
};
