/**
 * `custody review`: the Markdown review of a preview's custody changes, for a pull-request comment.
 *
 * - `custody review [options] -- <pulumi preview arguments>` runs the preview itself, as an event stream, so
 *   that the policy results arrive (cli/pulumi-preview.ts).
 * - `custody review [options] [FILE]` reads a saved `pulumi preview --json`, either form, from FILE or
 *   standard input.
 *
 * Exit status: 0 the change can be applied; 3 it cannot (the preview failed, or a mandatory violation); 1 no
 * policy results arrived although a pack was given, or the preview did not run; 2 bad arguments or input.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type Command, parseArgs, readAll, UsageError } from "../command";
import { writeOutputFile } from "../output-file";
import { previewDidNotRun, runPreviewEvents } from "../pulumi-preview";
import { escapeControls, shownPath } from "../shown";
import { PreviewInputError, parsePreview } from "./preview-input";
import { type PreviewJson, reviewPreview } from "./report";

/** Exit status of a review whose change cannot be applied. */
export const EXIT_CANNOT_APPLY = 3;

/** Whether preview arguments give a policy pack (`--policy-pack DIR`, `--policy-pack=DIR`). */
function givesPolicyPack(args: readonly string[]): boolean {
  return args.some((arg) => arg === "--policy-pack" || arg.startsWith("--policy-pack="));
}

/** `custody review`. */
export const reviewCommand: Command = {
  name: "review",
  summary: "the Markdown review of a preview's custody changes, for a pull-request comment",
  usage: [
    "usage: custody review [options] -- [PULUMI PREVIEW ARGUMENTS]",
    "       custody review [options] [FILE]",
    "",
    "With --, runs `pulumi preview --json` as an event stream (PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true, the",
    "form that carries policy results), passing it the arguments after --, e.g. --policy-pack DIR. Otherwise",
    "reads a saved `pulumi preview --json`, either form, from FILE, or from standard input when FILE is - or",
    "absent. Writes the Markdown review to standard output.",
    "",
    "  --stack, -s NAME   the stack (default: the selected stack); runs the preview",
    "  --cwd, -C DIR      the project directory (default: the current directory); runs the preview",
    "  --out, -o FILE     write the report to FILE instead of standard output",
    "  --expect-policy    exit 1 unless policy results arrived (implied by --policy-pack after --)",
    "",
    "Exit status: 0 the change can be applied; 3 it cannot (the preview failed, or a mandatory policy",
    "violation); 1 no policy results arrived although a policy pack was given, or the preview did not run;",
    "2 bad arguments or input. The report is written in every case but 2.",
  ].join("\n"),
  async run(argv, io) {
    const split = argv.indexOf("--");
    const own = split < 0 ? argv : argv.slice(0, split);
    const previewArgs = split < 0 ? undefined : argv.slice(split + 1);
    const args = parseArgs(own, {
      flags: { stack: "string", cwd: "string", out: "string", "expect-policy": "boolean" },
      aliases: { s: "stack", C: "cwd", o: "out" },
      maxPositionals: 1,
    });
    if (args.help) {
      io.stdout.write(`${this.usage}\n`);
      return 0;
    }
    const stack = args.flags.stack as string | undefined;
    const cwd = args.flags.cwd as string | undefined;
    const runs = previewArgs !== undefined || stack !== undefined || cwd !== undefined;
    const file = args.positionals[0];
    if (runs && file !== undefined) {
      throw new UsageError(
        "custody review either reads FILE or runs the preview (with --, --stack or --cwd), not both",
      );
    }

    let preview: PreviewJson;
    if (runs) {
      const run = await runPreviewEvents(previewArgs ?? [], {
        cwd: cwd ?? io.cwd,
        stack,
        env: io.env,
        stderr: io.stderr,
      });
      if (run.events.trim() === "") throw previewDidNotRun(run);
      try {
        preview = parsePreview(run.events);
      } catch (err) {
        if (!(err instanceof PreviewInputError)) throw err;
        throw new Error(
          `\`pulumi preview --json\` printed something other than engine events: ${err.message}`,
        );
      }
    } else {
      const source = file === "-" ? undefined : file;
      let raw: string;
      if (source === undefined) raw = await readAll(io.stdin);
      else {
        try {
          raw = fs.readFileSync(path.resolve(io.cwd, source), "utf8");
        } catch (err) {
          const code = (err as { code?: string }).code;
          // FILE is not shown when it does not exist: it may be a value given without its flag. One that
          // exists is a path, and named.
          throw new UsageError(
            code === "ENOENT" || code === "ENOTDIR"
              ? "FILE does not exist (not shown, as it may be a secret given without its flag): give the path " +
                  "of a saved `pulumi preview --json`, or - for standard input"
              : `${shownPath(path.resolve(io.cwd, source), io.cwd)}: cannot be read (${code ?? String(err)})`,
          );
        }
      }
      try {
        preview = parsePreview(raw);
      } catch (err) {
        if (!(err instanceof PreviewInputError)) throw err;
        io.stderr.write(
          `custody review: ${source === undefined ? "standard input" : shownPath(path.resolve(io.cwd, source), io.cwd)} is not the JSON of \`pulumi preview --json\`: ${escapeControls(err.message)}\n`,
        );
        return 2;
      }
    }

    const expectPolicy = args.flags["expect-policy"] === true || givesPolicyPack(previewArgs ?? []);
    const review = reviewPreview(preview, { expectPolicy });
    const out = args.flags.out as string | undefined;
    if (out) {
      const target = { file: path.resolve(io.cwd, out), what: "the report", flag: "--out", cwd: io.cwd };
      writeOutputFile(target, review.markdown, { overwrite: true });
    } else io.stdout.write(review.markdown);

    if (review.cannotApply) {
      io.stderr.write("custody review: this change cannot be applied; the report says why.\n");
      return EXIT_CANNOT_APPLY;
    }
    if (review.policyMissing) {
      io.stderr.write(
        "custody review: no policy results arrived although a policy pack was given; the report says so.\n",
      );
      return 1;
    }
    return 0;
  },
};
