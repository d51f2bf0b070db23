/**
 * The accept's section of the Markdown drift report (and of a pull request's body): the verdict, each hand
 * edit with its `file:line`, each accepted input, and the diff. Every value and every line of the diff is shown
 * by the project's one escaping rule (`shownValue`, `escapeControls` of `pulumi-custody/core`): a vault name
 * typed in the console cannot forge a line, hide what it is or close the code block.
 */
import { escapeControls, shownValue } from "pulumi-custody/core";
import type { AcceptedChange, AcceptReport, HandEdit } from "./report";

/** How many characters of a value the report shows. */
const SHOWN_MAX = 120;

/** A value as the report shows it: a secret never, text escaped and quoted, anything else as its JSON. */
function valueText(value: unknown, secret: boolean): string {
  if (secret) return "a secret value (not shown)";
  if (typeof value === "string") return shownValue(value, SHOWN_MAX);
  const json = JSON.stringify(value) ?? String(value);
  return code(json.length > SHOWN_MAX ? `${json.slice(0, SHOWN_MAX - 1)}…` : json);
}

/** Inline code of `text` that no backtick in it can close. */
function code(text: string): string {
  const escaped = escapeControls(text);
  const longest = Math.max(0, ...(escaped.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return longest > 0 ? `${fence} ${escaped} ${fence}` : `${fence}${escaped}${fence}`;
}

function where(file: string | null, line: number | null): string {
  return file ? code(line ? `${file}:${line}` : file) : "(no declaration found)";
}

function handEditLine(edit: HandEdit): string {
  const what = edit.field ? `${code(edit.resource)}, ${code(edit.field)}` : code(edit.resource);
  const value =
    edit.field && (edit.value !== null || edit.secret)
      ? ` The service has ${valueText(edit.value, edit.secret)}.`
      : "";
  return `- ${where(edit.file, edit.line)}: ${what}: ${escapeControls(edit.reason)}.${value}`;
}

function acceptedLine(change: AcceptedChange): string {
  const what = `${code(change.resource)}, ${code(change.field)}`;
  switch (change.how) {
    case "config":
      return `- ${where(change.file, null)}: ${what}: config ${code(change.configKey ?? "")} set to ${valueText(change.value, change.secret)} (read at ${where(change.declaredIn, change.line)})`;
    case "removed":
      return `- ${where(change.file, change.line)}: ${what}: removed`;
    case "added":
      return `- ${where(change.file, change.line)}: ${what}: added, ${valueText(change.value, change.secret)}`;
    default:
      return `- ${where(change.file, change.line)}: ${what}: set to ${valueText(change.value, change.secret)}`;
  }
}

/** A fenced block of `text` that no line of it can close. */
function fenced(language: string, text: string): string[] {
  const lines = text
    .replace(/\n$/, "")
    .split("\n")
    .map((line) => escapeControls(line, "\t"));
  const longest = Math.max(2, ...lines.map((line) => /^\s*(`+)/.exec(line)?.[1]?.length ?? 0));
  const fence = "`".repeat(longest + 1);
  return [`${fence}${language}`, ...lines, fence];
}

/** The lines of the accept's section of the Markdown report. */
export function acceptMarkdown(accept: AcceptReport): string[] {
  const lines = ["### Accepting the console's state", ""];
  if (accept.dryRun)
    lines.push("A dry run (`--dry-run`): nothing was written; the diff is what the accept would write.", "");
  if (accept.exitCode === 1) {
    lines.push(
      `🛑 **The accept could not run**: ${escapeControls(accept.reason ?? "unknown reason")}. Nothing was written.`,
      "",
      "To repair instead, run the deploy (`pulumi up --refresh`): it puts every resource back as declared.",
    );
    return lines;
  }
  const changes = accept.accepted.length + accept.imported.length;
  if (accept.exitCode === 0 && accept.accepted.length === 0 && accept.imported.length > 0)
    lines.push(
      `✅ **${accept.imported.length} vault(s) made in the console now declared**, as \`custody import\` writes them. ` +
        "Once this change is merged, `pulumi up` takes them over and changes nothing on the service. To leave them out, do not merge it.",
    );
  else if (accept.exitCode === 0)
    lines.push(
      `✅ **Every drift accepted** (${changes} change(s) in ${accept.files.length} file(s)): the program now declares what the service has. ` +
        "Once this change is merged, `pulumi up` changes nothing and every vault keeps its id. To revert the console's change instead, do not merge it: run the deploy (`pulumi up --refresh`).",
    );
  else
    lines.push(
      `⚠️ **${accept.handEdits.length} difference(s) need a hand edit**${changes > 0 ? `; ${changes} other change(s) are accepted below` : ""}. ` +
        "Edit each as said, or revert the console's change with the deploy (`pulumi up --refresh`).",
      "",
      ...accept.handEdits.map(handEditLine),
    );
  if (accept.accepted.length > 0) lines.push("", "Accepted:", "", ...accept.accepted.map(acceptedLine));
  if (accept.imported.length > 0)
    lines.push(
      "",
      "Vaults made in the console, now declared (the next `pulumi up` takes them over without changing them):",
      "",
      ...accept.imported.map(
        (v) =>
          `- ${code(v.file)}: ${code(v.resource)}: vault ${shownValue(v.vaultName, SHOWN_MAX)} (${code(v.vaultId)})`,
      ),
    );
  if (accept.diff !== "") lines.push("", ...fenced("diff", accept.diff));
  return lines;
}
