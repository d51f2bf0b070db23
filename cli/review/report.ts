/**
 * The review report of a custody change: what `pulumi preview --json` plans for vaults and addresses, as
 * Markdown for a pull-request comment. Replacements and archives come first, because they are the changes a
 * reviewer must not miss: the custody API cannot delete a vault, so both archive one, with its address.
 */

import { custodyResourceKind, typeOfUrn } from "pulumi-custody/core";

/** A resource's state in a preview step (the fields the report reads). */
export interface PreviewState {
  /** The resource's URN. */
  urn?: string;
  /** The resource id (the vault or address id), once it exists. */
  id?: string;
  /** The resource type token. */
  type?: string;
  /** The resource's inputs. */
  inputs?: Record<string, unknown>;
  /** The resource's outputs. */
  outputs?: Record<string, unknown>;
}

/** One step of `pulumi preview --json`. */
export interface PreviewStep {
  /** The operation: `create`, `update`, `replace`, `delete`, `same`, … */
  op: string;
  /** The resource's URN. */
  urn: string;
  /** The state before the step. */
  oldState?: PreviewState;
  /** The state after the step. */
  newState?: PreviewState;
  /** Inputs whose change forces the replacement. */
  replaceReasons?: string[];
}

/** A diagnostic of `pulumi preview --json`. */
export interface PreviewDiagnostic {
  /** The message, as the CLI prints it. */
  message: string;
  /** `error`, `warning`, `info`, … */
  severity: string;
  /** The resource it is about, when it is about one. */
  urn?: string;
}

/** A policy violation of `pulumi preview --policy-pack` (from the engine's event stream). */
export interface PolicyViolation {
  /** The policy, e.g. `custody-vault-protected`. */
  policyName: string;
  /** The policy pack, e.g. `pulumi-custody`. */
  policyPackName: string;
  /** The policy pack's version. */
  policyPackVersion: string;
  /** `mandatory` (the change cannot be applied), `advisory`, … */
  enforcementLevel: string;
  /** The policy's message. */
  message: string;
  /** The resource it is about; the stack's URN, or none, for a violation of the whole stack. */
  urn?: string;
}

/** What `pulumi preview --json` prints (the fields the report reads). */
export interface PreviewJson {
  /** The planned steps. */
  steps?: PreviewStep[];
  /** Warnings and errors. */
  diagnostics?: PreviewDiagnostic[];
  /**
   * Policy violations. Only the event stream has them (see `parsePreview`); the digest of
   * `pulumi preview --json` leaves policy events out.
   */
  policyViolations?: PolicyViolation[];
}

/** What a create may do instead of creating: the provider's create restores and adopts. */
const CREATE_NOTE = {
  Vault:
    "If an archived vault of the same name and kind exists, it is restored instead (with `adoptExisting`, an " +
    "active one is adopted).",
  Address: "If the vault already has an address of that name, it is adopted instead.",
} as const;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** `Vault "Treasury"` with its Pulumi resource name, id and address where known. */
function describe(kind: string, step: PreviewStep, state: PreviewState | undefined): string {
  const name = text(state?.inputs?.name) ?? text(state?.outputs?.name) ?? resourceName(step.urn);
  const facts = [`resource \`${resourceName(step.urn)}\``];
  const id = text(step.oldState?.id);
  if (id) facts.push(`id \`${id}\``);
  const address = text(step.oldState?.outputs?.address);
  if (address) facts.push(`address \`${address}\``);
  return `${kind} **${name}** (${facts.join(", ")})`;
}

function kindOf(step: PreviewStep): "Vault" | "Address" | undefined {
  const kind = custodyResourceKind(step.newState?.type ?? step.oldState?.type ?? typeOfUrn(step.urn));
  if (kind === "Vault") return "Vault";
  if (kind === "VaultAddress") return "Address";
  return undefined;
}

/** Changed inputs between the old and new state, as `key: old → new` (the provider's own fields left out). */
function changes(step: PreviewStep, keys?: string[]): string[] {
  const olds = step.oldState?.inputs ?? {};
  const news = step.newState?.inputs ?? {};
  const names = keys ?? [...new Set([...Object.keys(olds), ...Object.keys(news)])];
  return names
    .filter((key) => key !== "__provider" && JSON.stringify(olds[key]) !== JSON.stringify(news[key]))
    .map((key) => `\`${key}\`: ${show(olds[key])} → ${show(news[key])}`);
}

function show(value: unknown): string {
  return value === undefined ? "unset" : `\`${JSON.stringify(value)}\``;
}

/** The first line of each warning that names this vault's id or name. */
function warningsAbout(step: PreviewStep, diagnostics: PreviewDiagnostic[]): string[] {
  const id = text(step.oldState?.id);
  const name = text(step.oldState?.inputs?.name);
  return diagnostics
    .filter((d) => d.severity === "warning")
    .filter(
      (d) =>
        d.urn === step.urn || (id && d.message.includes(id)) || (name && d.message.includes(`"${name}"`)),
    )
    .map((d) => d.message.replace(/^warning: /, "").trim());
}

/** Mandatory violations first: they stop the change. */
const LEVEL_ORDER = ["mandatory", "remediate", "advisory"];

function levelRank(level: string): number {
  const i = LEVEL_ORDER.indexOf(level);
  return i < 0 ? LEVEL_ORDER.length : i;
}

/** `- **mandatory** `policy` (pack@v1), resource `treasury`: message` */
function describeViolation(v: PolicyViolation): string {
  const type = v.urn?.split("::")[2];
  const where = v.urn && type !== "pulumi:pulumi:Stack" ? `resource \`${resourceName(v.urn)}\`` : "the stack";
  const pack = v.policyPackName
    ? ` (${v.policyPackName}${v.policyPackVersion ? `@v${v.policyPackVersion}` : ""})`
    : "";
  const message = v.message.replace(/\s*\n\s*/g, " ");
  return `- **${v.enforcementLevel}** \`${v.policyName}\`${pack}, ${where}: ${message}`;
}

/** The Markdown review of a preview. */
export function reviewReport(preview: PreviewJson): string {
  const steps = (preview.steps ?? []).filter((step) => kindOf(step) !== undefined);
  const diagnostics = preview.diagnostics ?? [];
  const replaced: string[] = [];
  const archived: string[] = [];
  const created: string[] = [];
  const renamed: string[] = [];
  const updated: string[] = [];

  for (const step of steps) {
    const kind = kindOf(step) as "Vault" | "Address";
    if (step.op === "replace" || step.op === "create-replacement" || step.op === "delete-replaced") {
      if (step.op !== "replace") continue;
      const why = changes(step, step.replaceReasons).join(", ");
      const warning = warningsAbout(step, diagnostics)
        .map((w) => `\n  > ${w}`)
        .join("");
      replaced.push(`- ${describe(kind, step, step.oldState)}: ${why || "replaced"}.${warning}`);
    } else if (step.op === "delete") {
      archived.push(
        kind === "Vault"
          ? `- ${describe(kind, step, step.oldState)}: archived, not deleted; it keeps its address and any funds.`
          : `- ${describe(kind, step, step.oldState)}: removed from the stack only; the address still exists and can receive funds.`,
      );
    } else if (step.op === "create") {
      const inputs = step.newState?.inputs ?? {};
      const what =
        kind === "Vault" ? `type \`${String(inputs.type)}\`` : `in vault \`${String(inputs.vaultId)}\``;
      created.push(`- ${describe(kind, step, step.newState)}: ${what}. ${CREATE_NOTE[kind]}`);
    } else if (step.op === "update") {
      const nameChange = changes(step, ["name"]);
      const rest = changes(step).filter((c) => !c.startsWith("`name`"));
      if (nameChange.length > 0) renamed.push(`- ${describe(kind, step, step.oldState)}: ${nameChange[0]}.`);
      if (rest.length > 0) updated.push(`- ${describe(kind, step, step.oldState)}: ${rest.join(", ")}.`);
    }
  }

  const violations = [...(preview.policyViolations ?? [])].sort(
    (a, b) => levelRank(a.enforcementLevel) - levelRank(b.enforcementLevel),
  );
  const mandatory = violations.filter((v) => v.enforcementLevel === "mandatory").length;
  const sections: [string, string[]][] = [
    ["🛑 Policy violations", violations.map(describeViolation)],
    ["⚠️ Replaced: the old vault is archived and a new one, with a new address, is created", replaced],
    ["⚠️ Archived", archived],
    ["Created", created],
    ["Renamed", renamed],
    ["Other updates", updated],
  ];
  const lines = ["## Custody changes", ""];
  const flagged = replaced.length + archived.length;
  lines.push(
    steps.length === 0 || sections.slice(1).every(([, items]) => items.length === 0)
      ? "No vault or address changes."
      : `${flagged} change(s) to review first: ${replaced.length} replaced, ${archived.length} archived.`,
  );
  if (violations.length > 0) {
    lines.push(
      "",
      mandatory > 0
        ? `**${mandatory} mandatory policy violation(s): the change cannot be applied until they are fixed.** ${violations.length - mandatory} other(s).`
        : `${violations.length} advisory policy violation(s); they do not stop the change.`,
    );
  }
  for (const [title, items] of sections) {
    if (items.length === 0) continue;
    lines.push("", `### ${title}`, "", ...items);
  }
  return `${lines.join("\n")}\n`;
}
