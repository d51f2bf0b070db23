/**
 * `custody review [preview.json]`: reads `pulumi preview --json` (a file, or standard input), either the digest
 * or the event stream (`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true`, which also carries policy violations), and
 * writes the Markdown review of its custody changes to standard output, for a pull-request comment.
 */
import * as fs from "node:fs";
import { type Command, parseArgs, readAll, UsageError } from "../command";
import { PreviewInputError, parsePreview } from "./preview-input";
import { reviewReport } from "./report";

/** `custody review`. */
export const reviewCommand: Command = {
  name: "review",
  summary: "Markdown review of `pulumi preview --json` for a pull-request comment",
  usage: [
    "usage: custody review [FILE]",
    "",
    "Reads the JSON of `pulumi preview --json` from FILE, or from standard input when FILE is - or absent,",
    "and writes the Markdown review of its custody changes to standard output.",
  ].join("\n"),
  async run(argv, io) {
    const args = parseArgs(argv, { flags: {}, maxPositionals: 1 });
    if (args.help) {
      io.stdout.write(`${this.usage}\n`);
      return 0;
    }
    const file = args.positionals[0] === "-" ? undefined : args.positionals[0];
    let raw: string;
    if (file === undefined) raw = await readAll(io.stdin);
    else {
      try {
        raw = fs.readFileSync(file, "utf8");
      } catch (err) {
        const code = (err as { code?: string }).code;
        throw new UsageError(
          code === "ENOENT" ? `${file}: no such file` : `${file}: cannot be read (${code ?? String(err)})`,
        );
      }
    }
    try {
      io.stdout.write(reviewReport(parsePreview(raw)));
      return 0;
    } catch (err) {
      if (!(err instanceof PreviewInputError)) throw err;
      io.stderr.write(
        `custody review: ${file ?? "standard input"} is not the JSON of \`pulumi preview --json\`: ${err.message}\n`,
      );
      return 2;
    }
  },
};
