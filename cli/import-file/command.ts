/**
 * `custody import-file [filters] [--with-addresses] [--stack NAME] [--out FILE]`: the `pulumi import --file`
 * file alone, of the vaults `custody import` would take (the same filters, the same names, and what a stack
 * manages left out), for pipelines that generate the code themselves. The report and the vaults left out
 * with their reasons go to stderr when the file goes to stdout. Settings come from the stack's config, else
 * CUSTODY_BASE_URL and CUSTODY_ACCESS_TOKEN (the token is never read from the command line, where other users
 * of the machine could see it).
 */
import * as path from "node:path";
import { type Command, parseArgs } from "../command";
import { FILTER_FLAGS, FILTER_USAGE } from "../import/filter";
import { planImport, projectDirOf, STACK_FLAGS, STACK_USAGE, selectionReport } from "../import/plan";
import { checkOutputFile, type OutputFile, writeOutputFile } from "../output-file";
import { importFileOf } from "./import-file";

/** `custody import-file`. */
export const importFileCommand: Command = {
  name: "import-file",
  summary: "the `pulumi import --file` file alone, of the vaults `custody import` would take",
  usage: [
    "usage: custody import-file [filters] [--with-addresses] [--stack NAME] [--out FILE]",
    "",
    "  --out FILE            write the file there, replacing it if it exists (default: standard output); its",
    "                        directory must exist",
    ...FILTER_USAGE,
    ...STACK_USAGE,
    "",
    "Settings: the stack's config (custody:baseUrl, custody:accessToken), else CUSTODY_BASE_URL and",
    "CUSTODY_ACCESS_TOKEN. `custody import` writes this file and the program generated from it.",
  ].join("\n"),
  async run(argv, io) {
    const args = parseArgs(argv, {
      flags: { out: "string", ...FILTER_FLAGS, ...STACK_FLAGS },
      aliases: { s: "stack", C: "cwd" },
    });
    if (args.help) {
      io.stdout.write(`${this.usage}\n`);
      return 0;
    }
    const outFlag = args.flags.out as string | undefined;
    const out: OutputFile | undefined = outFlag
      ? { file: path.resolve(io.cwd, outFlag), what: "the import file", flag: "--out", cwd: io.cwd }
      : undefined;
    // Before the API is read: a directory that does not exist is said now, not after minutes of reading.
    projectDirOf(args, io);
    if (out) checkOutputFile(out);
    const plan = await planImport(args, io, "import-file");
    const text = `${JSON.stringify(importFileOf(plan.selection), null, 2)}\n`;
    if (out === undefined) {
      io.stderr.write(selectionReport(plan));
      io.stdout.write(text);
    } else {
      writeOutputFile(out, text, { overwrite: true });
      io.stdout.write(selectionReport(plan));
    }
    return 0;
  },
};
