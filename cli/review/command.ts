/**
 * `custody review`: the Markdown review of a preview's custody changes, for a pull-request comment.
 *
 * - `custody review [options] -- <pulumi preview arguments>` runs the preview itself, as an event stream, so
 *   that the policy results arrive (cli/pulumi-preview.ts).
 * - `custody review [options] [FILE]` reads a saved `pulumi preview --json`, either form, from FILE or
 *   standard input.
 *
 * Exit status: 0 the change can be applied; 3 it cannot (the preview failed, or a mandatory violation); 1 the
 * preview did not run to its end (an unknown stack, a policy pack that failed to load), or no policy results
 * arrived although a pack was given; 2 bad arguments or input. The report is written in every case but 2: a
 * pipeline that posts it always has something true to post.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { SecretRedactor } from "@pulumi-custody/sdk";
import { type Command, parseArgs, readAll, UsageError } from "../command";
import { writeOutputFile } from "../output-file";
import { type PreviewRun, runPreviewEvents } from "../pulumi-preview";
import { environmentSecrets, redactorOf, scrubPreview, stackConfigSecrets } from "../secrets";
import { escapeControls, shownPath } from "../shown";
import { PreviewInputError, parsePreview } from "./preview-input";
import { type PreviewJson, type Review, reviewPreview, stoppedReview } from "./report";

/** Exit status of a review whose change cannot be applied. */
export const EXIT_CANNOT_APPLY = 3;

/** Whether preview arguments give a policy pack (`--policy-pack DIR`, `--policy-pack=DIR`). */
function givesPolicyPack(args: readonly string[]): boolean {
  return args.some((arg) => arg === "--policy-pack" || arg.startsWith("--policy-pack="));
}

/** What the stderr line says of a preview that did not run to its end. */
const STOPPED: Record<NonNullable<Review["stopped"]>["kind"], string> = {
  "policy-pack": "the policy pack failed to load",
  "not-run": "the preview did not run",
  "not-finished": "the preview stopped before it finished",
  unreadable: "the output of `pulumi preview --json` could not be read",
};

/**
 * Runs the preview and reviews it. Whatever happens to the preview is the review's to say (its reason first),
 * so that `--out` gets a report in every case but a usage error.
 */
async function reviewRun(
  previewArgs: readonly string[],
  options: {
    cwd: string;
    stack?: string;
    env: NodeJS.ProcessEnv;
    stderr: NodeJS.WritableStream;
    redactor: SecretRedactor;
  },
  expectPolicy: boolean,
): Promise<Review> {
  const { redactor } = options;
  let run: PreviewRun;
  try {
    run = await runPreviewEvents(previewArgs, { ...options, redact: (line) => redactor.text(line) });
  } catch (err) {
    return stoppedReview("not-run", err instanceof Error ? err.message : String(err));
  }
  let preview: PreviewJson;
  // No events: the CLI stopped before the engine ran (an unknown stack); the report reads that from `run`.
  if (run.events.trim() === "") preview = { form: "events", steps: [], diagnostics: [] };
  else {
    try {
      preview = scrubPreview(parsePreview(run.events), redactor);
    } catch (err) {
      if (!(err instanceof PreviewInputError)) throw err;
      return stoppedReview("unreadable", err.message);
    }
  }
  return reviewPreview(preview, {
    expectPolicy,
    run: { exitCode: run.exitCode, lastError: run.lastError },
  });
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
    "violation); 1 the preview did not run to its end (e.g. an unknown stack, or a policy pack that failed to",
    "load: the report says so first, with the reason, and claims no change), or no policy results arrived",
    "although a policy pack was given; 2 bad arguments or input. The report is written in every case but 2.",
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

    const expectPolicy = args.flags["expect-policy"] === true || givesPolicyPack(previewArgs ?? []);
    // What the CLI, the engine and the service said reaches a pull-request comment: never any form of a
    // secret of the environment or, when the preview runs on a stack, of its config (cli/secrets.ts).
    const redactor = redactorOf([
      ...environmentSecrets(io.env),
      ...(runs ? await stackConfigSecrets({ cwd: cwd ?? io.cwd, stack, env: io.env }) : []),
    ]);
    let review: Review;
    if (runs) {
      review = await reviewRun(
        previewArgs ?? [],
        { cwd: cwd ?? io.cwd, stack, env: io.env, stderr: io.stderr, redactor },
        expectPolicy,
      );
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
      let preview: PreviewJson;
      try {
        preview = parsePreview(raw);
      } catch (err) {
        if (!(err instanceof PreviewInputError)) throw err;
        io.stderr.write(
          `custody review: ${source === undefined ? "standard input" : shownPath(path.resolve(io.cwd, source), io.cwd)} is not the JSON of \`pulumi preview --json\`: ${escapeControls(err.message)}\n`,
        );
        return 2;
      }
      review = reviewPreview(scrubPreview(preview, redactor), { expectPolicy });
    }

    const markdown = redactor.text(review.markdown);
    const out = args.flags.out as string | undefined;
    if (out) {
      const target = { file: path.resolve(io.cwd, out), what: "the report", flag: "--out", cwd: io.cwd };
      writeOutputFile(target, markdown, { overwrite: true });
    } else io.stdout.write(markdown);

    if (review.stopped) {
      io.stderr.write(
        redactor.text(
          `custody review: ${STOPPED[review.stopped.kind]}: ${review.stopped.reason}; the report says so.\n`,
        ),
      );
      return 1;
    }
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
