#!/usr/bin/env node
/**
 * `custody-review [preview.json]`: reads `pulumi preview --json` (a file, or standard input), either the digest
 * or the event stream (`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true`, which also carries policy violations), and
 * writes the Markdown review of its custody changes to standard output, for a pull-request comment.
 */
import fs from "node:fs";
import { PreviewInputError, parsePreview } from "./preview-input";
import { type PreviewJson, reviewReport } from "./report";

const file = process.argv[2] === "-" ? undefined : process.argv[2];
const raw = fs.readFileSync(file ?? 0, "utf8");
let preview: PreviewJson;
try {
  preview = parsePreview(raw);
} catch (err) {
  if (!(err instanceof PreviewInputError)) throw err;
  process.stderr.write(
    `custody-review: ${file ?? "standard input"} is not the JSON of \`pulumi preview --json\`: ${err.message}\n`,
  );
  process.exit(2);
}
process.stdout.write(reviewReport(preview));
