#!/usr/bin/env node
/**
 * `custody-review [preview.json]`: reads `pulumi preview --json` (a file, or standard input) and writes the
 * Markdown review of its custody changes to standard output, for a pull-request comment.
 */
import fs from "node:fs";
import { type PreviewJson, reviewReport } from "./report";

const file = process.argv[2] === "-" ? undefined : process.argv[2];
const raw = fs.readFileSync(file ?? 0, "utf8");
let preview: PreviewJson;
try {
  preview = JSON.parse(raw) as PreviewJson;
} catch (err) {
  process.stderr.write(
    `custody-review: ${file ?? "standard input"} is not the JSON of \`pulumi preview --json\`: ${(err as Error).message}\n`,
  );
  process.exit(2);
}
process.stdout.write(reviewReport(preview));
