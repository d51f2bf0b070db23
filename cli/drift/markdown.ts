/**
 * The drift report as Markdown, for a pipeline to post (an issue, a job summary): the verdict first, then one
 * table row per drifted field with its declared and live values, the vault's id and name, and the API's
 * `modified_at`, then what to do about it.
 */
import { showValue } from "../review/values";
import { shownText } from "../shown";
import { acceptMarkdown } from "./accept/markdown";
import type { DriftedField, DriftedResource, DriftReport } from "./drift";

/** The longest table cell, and the longest line of prose that quotes the service or the engine. */
const CELL_MAX = 300;
const PROSE_MAX = 2000;

/**
 * A table cell: line breaks flattened, pipes escaped, and what the service or the program holds (a vault's
 * name, a value) shown by the one rule: control, C1, bidi and zero-width characters escaped, cut.
 */
function cell(text: string): string {
  return shownText(text.replace(/\s*\n\s*/g, " "), CELL_MAX).replace(/\|/g, "\\|");
}

/** Prose that quotes the service or the engine (a reason, a note), shown by the one rule. */
function prose(text: string): string {
  return shownText(text, PROSE_MAX);
}

function shown(field: DriftedField, side: "declared" | "live"): string {
  if (field.secret) return "secret";
  return showValue(field[side]);
}

function vaultCell(resource: DriftedResource): string {
  if (resource.vaultName) return `**${resource.vaultName}**`;
  return resource.vaultId ? "(name not shown)" : "—";
}

function resourceCell(resource: DriftedResource): string {
  const label = resource.kind === "Vault" ? "vault" : "address";
  return `\`${resource.resource}\` (${label}${resource.addressId ? ` \`${resource.addressId}\`` : ""})`;
}

/** The Markdown of a drift report. */
export function driftMarkdown(report: DriftReport): string {
  const stack = report.stack ? ` \`${shownText(report.stack)}\`` : "";
  const lines = [`## Custody drift check${stack}`, ""];
  if (report.status === "failed") {
    lines.push(
      `🛑 **The drift check could not run**: ${prose(report.reason ?? "unknown reason")}`,
      "",
      "This is not drift: nothing was compared. Fix the cause (a token, the API's address, the program) and run the check again.",
    );
  } else if (report.status === "clean") {
    lines.push(
      `✅ **No drift**: every custody resource is as the program declares it (${report.resourcesChecked} checked).`,
    );
    if (report.accept) lines.push("", ...acceptMarkdown(report.accept));
  } else {
    const fields = report.drifted.reduce((n, r) => n + Math.max(r.fields.length, 1), 0);
    lines.push(
      `⚠️ **Drift**: ${report.drifted.length} custody resource(s) differ from what the program declares ` +
        `(${fields} difference(s), ${report.resourcesChecked} resources checked).`,
      "",
      "| vault | vault id | resource | field | declared | live | modified at (API) |",
      "|---|---|---|---|---|---|---|",
    );
    for (const resource of report.drifted) {
      const common = [
        vaultCell(resource),
        resource.vaultId ? `\`${resource.vaultId}\`` : "—",
        resourceCell(resource),
      ];
      const modified = resource.modifiedAt ?? "—";
      if (resource.fields.length === 0) {
        lines.push(`| ${[...common, "—", "—", "—", modified].map(cell).join(" | ")} |`);
        continue;
      }
      for (const field of resource.fields) {
        const name = field.certain ? `\`${field.field}\`` : `\`${field.field}\` (secret; may differ)`;
        lines.push(
          `| ${[...common, name, shown(field, "declared"), shown(field, "live"), modified].map(cell).join(" | ")} |`,
        );
      }
    }
    const notes = report.drifted.filter((r) => r.note);
    if (notes.length > 0) {
      lines.push("", ...notes.map((r) => `- ${prose(`${resourceCell(r)}: ${r.note}`)}.`));
    }
    if (report.accept) lines.push("", ...acceptMarkdown(report.accept));
    else
      lines.push(
        "",
        "To repair, run the deploy (`pulumi up --refresh`): it puts every resource back as declared (an archived " +
          "vault is restored). To keep a change made outside of Pulumi, change the program to match it instead " +
          "(`custody drift --accept` does it where it can).",
      );
  }
  lines.push("", `Checked at ${report.checkedAt}.`);
  return `${lines.join("\n")}\n`;
}
