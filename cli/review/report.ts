/**
 * The review report of a custody change: what `pulumi preview --json` plans for the custody resources, as
 * Markdown for a pull-request comment. A preview that did not run to its end (an unknown stack, a policy pack
 * that failed to load) is said first, with its reason, and the report then claims nothing it does not know: no
 * "no changes", nothing about policy results. Otherwise what stops the change comes first (preview errors,
 * mandatory policy violations, policy results that never arrived), then what a reviewer must not miss:
 * replacements and archives (the custody API cannot delete a vault, so both archive one, with its address),
 * and changes to `protect` and `adoptExisting`. Every vault line names its type, chain and network; values the
 * engine masks (secrets) or does not know yet are named as such, never printed as the engine's placeholders.
 */

import { type CustodyResourceKind, resourceOfType, typeOfUrn } from "pulumi-custody/core";
import { shownText } from "../shown";
import {
  compareField,
  containsUnknown,
  type FieldComparison,
  isMasked,
  KNOWN_AFTER_APPLY,
  showValue,
} from "./values";

/** A resource's state in a preview step (the fields the report reads). */
export interface PreviewState {
  /** The resource's URN. */
  urn?: string;
  /** The resource id (the vault or address id), once it exists. */
  id?: string;
  /** The resource type token. */
  type?: string;
  /** The `protect` resource option (absent when false). */
  protect?: boolean;
  /** The resource's inputs. */
  inputs?: Record<string, unknown>;
  /** The resource's outputs. */
  outputs?: Record<string, unknown>;
}

/** One step of `pulumi preview --json`. */
export interface PreviewStep {
  /** The operation: `create`, `update`, `replace`, `delete`, `same`, `refresh`, … */
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

/** What the event stream says about policy packs (the digest says nothing). */
export interface PreviewPolicy {
  /** Whether a policy pack was loaded for the preview. */
  loaded: boolean;
  /** Whether a pack judged anything (a summary of what passed and failed, or a violation). */
  analyzed: boolean;
  /** The packs that ran, as `name@version`. */
  packs: string[];
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
  /** Which form it was read from: the event stream, or the digest (the default; it cannot hold policy results). */
  form?: "events" | "digest";
  /** The policy packs of the preview (event stream only). */
  policy?: PreviewPolicy;
  /** The preview's outcome (`succeeded`, `failed`; event stream only: the digest has its errors instead). */
  result?: string;
}

/** Options of {@link reviewPreview}. */
export interface ReviewOptions {
  /**
   * Whether the preview ran with a policy pack (`--policy-pack`), so that results must be there. The event
   * stream says so by itself when a pack was loaded; the digest never does.
   */
  expectPolicy?: boolean;
  /**
   * How the `pulumi preview` that `custody review` ran itself ended (absent for a saved preview): its exit code
   * and its last line on standard error, the reason of a preview that stopped before its summary.
   */
  run?: {
    /** The CLI's exit code. */
    exitCode: number;
    /** The CLI's last line on standard error. */
    lastError: string;
  };
}

/** The review of a preview: its Markdown and what the command's exit code depends on. */
export interface Review {
  /** The Markdown report. */
  markdown: string;
  /** The preview failed or has mandatory violations: the change cannot be applied as it is. */
  cannotApply: boolean;
  /** A policy pack was given or loaded, but no policy results arrived. */
  policyMissing: boolean;
  /**
   * Set when the preview did not run to its end, and why: the report then says so first and claims no change
   * and no policy result. `policy-pack`: a policy pack failed to load, so nothing was planned; `not-run`: the
   * CLI or the engine stopped before planning (an unknown stack); `not-finished`: it stopped part way (what it
   * had planned is listed, as incomplete); `unreadable`: what `pulumi preview --json` printed could not be read.
   */
  stopped?: {
    /** What happened. */
    kind: "policy-pack" | "not-run" | "not-finished" | "unreadable";
    /** The reason, in one line, control characters escaped. */
    reason: string;
  };
}

/** Why the preview did not run to its end; `quoted` when the reason is what the CLI or the engine said. */
type PreviewStop = NonNullable<Review["stopped"]> & { quoted: boolean };

/** How each kind of custody resource reads in the report. */
interface KindText {
  /** `Vault`, `Address`. */
  label: string;
  /** What the resource is on (a vault's type, chain and network), before the resource facts. */
  what(inputs: Record<string, unknown>): string | undefined;
  /** What a create may do instead of creating (the provider's create restores and adopts). */
  createNote(inputs: Record<string, unknown>): string;
  /** What removing it from the program does. */
  deleteNote: string;
}

/** One entry per kind of custody resource, so that a new kind does not compile until the report reads it. */
const KINDS: Record<CustodyResourceKind, KindText> = {
  Vault: {
    label: "Vault",
    what: vaultNetwork,
    createNote: (inputs) =>
      inputs.adoptExisting === true
        ? "created; with `adoptExisting: true`, an active vault of the same name is adopted (taken over) if one " +
          "exists, and an archived one of the same name and kind is restored."
        : "created; if an archived vault of the same name and kind exists, it is restored instead.",
    deleteNote: "archived, not deleted; it keeps its address and any funds.",
  },
  VaultAddress: {
    label: "Address",
    what: () => undefined,
    createNote: () => "created; if the vault already has an address of that name, it is adopted instead.",
    deleteNote: "removed from the stack only; the address still exists and can receive funds.",
  },
};

/** The network of a UTXO chain id (`bitcoin_mainnet`, `bitcoin_testnet_v4`, …), from its name. */
function networkOfChain(chain: string): "mainnet" | "testnet" | undefined {
  if (/_mainnet(_|$)/.test(chain)) return "mainnet";
  if (/_testnet(_|$)/.test(chain)) return "testnet";
  return undefined;
}

/**
 * A vault's type, chain and network: a UTXO vault is on one chain (a mainnet flagged); a black_box vault signs
 * with a key of its key type and has no chain; any other vault has an address on every chain of its type,
 * mainnets included.
 */
function vaultNetwork(inputs: Record<string, unknown>): string {
  const { type, chain, keyType } = inputs;
  if (type === undefined) return "type unset";
  if (typeof type !== "string") return `type ${showValue(type)}`;
  if (type === "utxo") {
    if (typeof chain !== "string")
      return `\`utxo\` on chain ${chain === undefined ? "unset" : showValue(chain)}`;
    const network = networkOfChain(chain);
    const flag = network === "mainnet" ? "⚠️ **mainnet**" : (network ?? "network unknown");
    return `\`utxo\` on \`${chain}\`, ${flag}`;
  }
  if (type === "black_box") {
    return `\`black_box\`, key type ${typeof keyType === "string" ? `\`${keyType}\`` : showValue(keyType)}, no chain`;
  }
  return `\`${type}\` on every \`${type}\` chain, mainnets included`;
}

/** The operations the report reads. */
const PLANNED_OPS = new Set(["create", "import", "update", "replace", "delete", "same"]);

/** A custody step with its kind. */
interface CustodyStep extends PreviewStep {
  kind: CustodyResourceKind;
}

function custodyStep(step: PreviewStep): CustodyStep | undefined {
  const descriptor = resourceOfType(step.newState?.type ?? step.oldState?.type ?? typeOfUrn(step.urn));
  return descriptor ? { ...step, kind: descriptor.kind } : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** `Vault **Treasury** (`evm` on …; resource `treasury`, id …, address …)`. */
function describe(step: CustodyStep, state: PreviewState | undefined): string {
  const kind = KINDS[step.kind];
  const name = state?.inputs?.name ?? state?.outputs?.name;
  const named = isMasked(name)
    ? `${kind.label} with a secret name`
    : `${kind.label} **${text(name) ?? resourceName(step.urn)}**`;
  const facts = [`resource \`${resourceName(step.urn)}\``];
  const id = text(step.oldState?.id);
  if (id) facts.push(`id \`${id}\``);
  const address = text(step.oldState?.outputs?.address);
  if (address) facts.push(`address \`${address}\``);
  const what = kind.what(step.newState?.inputs ?? step.oldState?.inputs ?? {});
  return `${named} (${what ? `${what}; ` : ""}${facts.join(", ")})`;
}

/** One input's change in a step. */
interface FieldChange {
  field: string;
  comparison: Exclude<FieldComparison, "same">;
  old: unknown;
  now: unknown;
}

/**
 * The inputs a step changes: the descriptor's inputs first, then any other (the provider's own left out). After
 * a refresh (`--refresh`), the old inputs are the live ones (the provider's `read`), and an input the program
 * leaves unset is the service's choice, not a change.
 */
function fieldChanges(step: CustodyStep, refreshed: boolean): FieldChange[] {
  const olds = step.oldState?.inputs ?? {};
  const news = step.newState?.inputs ?? {};
  const declared =
    resourceOfType(step.newState?.type ?? step.oldState?.type ?? typeOfUrn(step.urn))?.inputNames ?? [];
  // `__`-prefixed inputs are the provider's own (`__provider`, a secret name's `__nameIsSecret`): the engine
  // does not display them either.
  const names = [...new Set([...declared, ...Object.keys(olds), ...Object.keys(news)])].filter(
    (name) => !name.startsWith("__"),
  );
  const changes: FieldChange[] = [];
  for (const field of names) {
    if (refreshed && news[field] === undefined) continue;
    const comparison = compareField(olds[field], news[field]);
    if (comparison !== "same") changes.push({ field, comparison, old: olds[field], now: news[field] });
  }
  return changes;
}

/**
 * `key: old → new`. Two masked values cannot be compared: the change is stated as certain only when the
 * engine plans an update and nothing else visible explains it (`certainSecret`).
 */
function showChange(change: FieldChange, certainSecret: boolean): string {
  const key = `\`${change.field}\``;
  switch (change.comparison) {
    case "secret":
      return certainSecret ? `${key}: changed (secret value)` : `${key}: secret value, may have changed`;
    case "unknown":
      return `${key}: ${showValue(change.old)} → ${KNOWN_AFTER_APPLY}`;
    default:
      return `${key}: ${showValue(change.old)} → ${showValue(change.now)}`;
  }
}

/** The first line of each warning that names this resource, its id or its name. */
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

/** One line of a message that may span several. */
function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, " ").trim();
}

/** The errors that stop the preview, without the CLI's generic last line. */
function previewErrors(diagnostics: PreviewDiagnostic[]): string[] {
  const lines = diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => {
      const message = oneLine(d.message.replace(/^error: /, "").replace(/^Preview failed: /, ""));
      if (message === "preview failed") return undefined;
      const type = d.urn?.split("::")[2];
      return d.urn && type !== "pulumi:pulumi:Stack"
        ? `resource \`${resourceName(d.urn)}\`: ${message}`
        : message;
    })
    .filter((line): line is string => line !== undefined);
  return [...new Set(lines)];
}

/** The engine's terminal colours (`\x1b[31m`), which the CLI adds to its messages on a terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is matched.
const ANSI_SGR = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

/** A reason as the report shows it: one line, colours removed, control characters escaped, bounded. */
function shownReason(reason: string): string {
  return shownText(oneLine(reason.replace(ANSI_SGR, "")), 600);
}

/** What failed when the engine stopped: a policy pack's loading (the message names it). */
const POLICY_PACK_FAILURE =
  /failed to load Pulumi policy project|PulumiPolicy\.yaml|policy analyzer could not be loaded|policy pack|validating policy config|reconciling policy config/i;

/**
 * Why the preview did not run to its end, or `undefined` when it did. Only the event stream can tell: the
 * engine ends every preview it ran, failed or not, with a summary event, so a stream without one stopped
 * before its end (the CLI printed no events at all for an unknown stack).
 */
function previewStop(preview: PreviewJson, options: ReviewOptions): PreviewStop | undefined {
  if (preview.form !== "events" || preview.result !== undefined) return undefined;
  const run = options.run;
  const steps = preview.steps ?? [];
  const errors = previewErrors(preview.diagnostics ?? []);
  const lastError = run?.lastError.replace(/^error: /, "").trim();
  const said = errors.length > 0 ? errors.join("; ") : lastError !== "preview failed" ? lastError : undefined;
  // A saved stream that ends early with no error in it may just be cut short: it says nothing of the preview.
  if (!said && !run)
    return {
      kind: "unreadable",
      reason:
        "the event stream ends before the preview's summary (the preview stopped early, or the stream was cut short)",
      quoted: false,
    };
  const reason =
    said ||
    `\`pulumi preview\` exited ${run?.exitCode} ${steps.length === 0 && preview.policy?.loaded !== true ? "without printing events" : "before the end of the preview"}`;
  // The engine announces each pack (policyLoadEvent) as it loads them, before it plans: stopping after the
  // announcement and before any step is stopping on a pack, and so is a reason that names one.
  const onPack = steps.length === 0 && (preview.policy?.loaded === true || POLICY_PACK_FAILURE.test(reason));
  const kind = onPack ? "policy-pack" : steps.length === 0 ? "not-run" : "not-finished";
  return { kind, reason: shownReason(reason), quoted: Boolean(said) };
}

/** `text` as a Markdown code span, whatever backticks it holds. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = longest > 0 || text.startsWith(" ") || text.endsWith(" ") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** The first lines of the report of a preview that did not run to its end: what happened, why, what it means. */
function stopLines(stop: PreviewStop): string[] {
  const what: Record<PreviewStop["kind"], [string, string]> = {
    "policy-pack": [
      "The policy pack failed to load",
      "The preview stopped before it planned anything, so this report cannot say what the change would do to " +
        "vaults or addresses, nor whether it follows the team's rules. Fix the cause, then run the review again.",
    ],
    "not-run": [
      "The preview did not run",
      "It planned nothing, so this report cannot say what the change would do to vaults or addresses, nor " +
        "whether it follows the team's rules. Fix the cause, then run the review again.",
    ],
    "not-finished": [
      "The preview stopped before it finished",
      "What it planned before it stopped is below, and it may be incomplete, as may any policy violation " +
        "listed. Fix the cause, then run the review again.",
    ],
    unreadable: [
      "The output of `pulumi preview --json` could not be read",
      "This report cannot say what the change would do to vaults or addresses, nor whether it follows the " +
        "team's rules. Fix the cause, then run the review again.",
    ],
  };
  const [headline, meaning] = what[stop.kind];
  return [`🛑 ${headline}: ${stop.quoted ? codeSpan(stop.reason) : stop.reason}.`, "", meaning];
}

/**
 * The review of a preview that could not be read or run at all (`custody review` could not start the CLI, or
 * could not read what it printed): the reason first, and no claim about changes or policy results.
 */
export function stoppedReview(kind: "not-run" | "unreadable", reason: string): Review {
  const stopped = { kind, reason: shownReason(reason) };
  const lines = ["## Custody changes", "", ...stopLines({ ...stopped, quoted: true })];
  return { markdown: `${lines.join("\n")}\n`, cannotApply: false, policyMissing: false, stopped };
}

/** Mandatory violations first: they stop the change. */
const LEVEL_ORDER = ["mandatory", "advisory", "remediate"];

const LEVEL_HEADING: Record<string, string> = {
  mandatory: "🛑 Mandatory policy violations",
  advisory: "⚠️ Advisory policy violations",
};

function levelRank(level: string): number {
  const i = LEVEL_ORDER.indexOf(level);
  return i < 0 ? LEVEL_ORDER.length : i;
}

/** `- `policy` (pack@v1), resource `treasury`: message` */
function describeViolation(v: PolicyViolation): string {
  const type = v.urn?.split("::")[2];
  const where = v.urn && type !== "pulumi:pulumi:Stack" ? `resource \`${resourceName(v.urn)}\`` : "the stack";
  const pack = v.policyPackName
    ? ` (${v.policyPackName}${v.policyPackVersion ? `@v${v.policyPackVersion}` : ""})`
    : "";
  return `- **${v.enforcementLevel}** \`${v.policyName}\`${pack}, ${where}: ${oneLine(v.message)}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** The report's sections, in order; empty ones are left out. */
interface Sections {
  cannotApply: string[];
  policyMissing: string[];
  policyNotInInput: string[];
  violations: Map<string, string[]>;
  replaced: string[];
  archived: string[];
  safety: string[];
  created: string[];
  restored: string[];
  renamed: string[];
  groups: string[];
  updated: string[];
}

/** `vault **Cold** (`79538d77-…`)`, the vault an address is in, named when the preview shows it. */
function vaultOf(vaultId: unknown, vaultNames: ReadonlyMap<string, string>): string {
  if (containsUnknown(vaultId)) return `vault (${KNOWN_AFTER_APPLY})`;
  if (typeof vaultId !== "string") return `vault ${showValue(vaultId)}`;
  const name = vaultNames.get(vaultId);
  return name ? `vault **${name}** (\`${vaultId}\`)` : `vault \`${vaultId}\``;
}

/** Sorts one step's changes into the sections. */
function sortStep(
  step: CustodyStep,
  context: { diagnostics: PreviewDiagnostic[]; vaultNames: ReadonlyMap<string, string>; refreshed: boolean },
  into: Sections,
): void {
  const kind = KINDS[step.kind];
  const changes = fieldChanges(step, context.refreshed);
  const visible = changes.filter((c) => c.comparison !== "secret");
  const secrets = changes.filter((c) => c.comparison === "secret");
  const restoring = step.oldState?.outputs?.state === "archived";
  // Masks cannot be compared: the planned update proves a change only when one masked input is all it can be.
  const certainSecret = step.op === "update" && visible.length === 0 && secrets.length === 1 && !restoring;
  const line = (state: PreviewState | undefined, list: FieldChange[]) =>
    `- ${describe(step, state)}: ${list.map((c) => showChange(c, certainSecret)).join(", ")}.`;

  const oldProtect = step.oldState?.protect === true;
  const newProtect = step.newState?.protect === true;
  const safety = changes.filter((c) => c.field === "adoptExisting");
  const safetyText = safety.map((c) =>
    c.now === true
      ? `${showChange(c, certainSecret)}: changes nothing now; should this vault ever be created again (a replacement), an active vault of the same name is taken over instead of failing`
      : showChange(c, certainSecret),
  );
  if (step.op !== "create" && step.oldState && step.newState && oldProtect !== newProtect) {
    safetyText.unshift(
      newProtect
        ? "`protect`: `false` → `true`: protected from now on"
        : "`protect`: `true` → `false`: no longer protected; removing it from the program, a destroy or a replacement archives it",
    );
  }
  if (safetyText.length > 0)
    into.safety.push(`- ${describe(step, step.oldState)}: ${safetyText.join("; ")}.`);
  // A `same` step plans nothing: what the provider ignores (above) is all it can show.
  if (step.op === "same") return;

  switch (step.op) {
    case "replace": {
      const reasons = step.replaceReasons?.length
        ? changes.filter((c) => step.replaceReasons?.includes(c.field))
        : changes.filter((c) => c.field !== "adoptExisting");
      // A replacement's reasons name the inputs that force it: a masked one among them surely changed.
      const why = reasons
        .map((c) => showChange(c, step.replaceReasons?.includes(c.field) === true))
        .join(", ");
      const warning = warningsAbout(step, context.diagnostics)
        .map((w) => `\n  > ${w}`)
        .join("");
      into.replaced.push(`- ${describe(step, step.oldState)}: ${why || "replaced"}.${warning}`);
      return;
    }
    case "delete":
      into.archived.push(`- ${describe(step, step.oldState)}: ${kind.deleteNote}`);
      return;
    case "create":
    case "import": {
      const inputs = step.newState?.inputs ?? {};
      const where = step.kind === "VaultAddress" ? `in ${vaultOf(inputs.vaultId, context.vaultNames)}, ` : "";
      const what = step.op === "import" ? "imported (adopted as it is)." : kind.createNote(inputs);
      into.created.push(`- ${describe(step, step.newState)}: ${where}${what}`);
      return;
    }
    case "update": {
      const considered = changes.filter((c) => c.field !== "adoptExisting");
      const archive = considered.find((c) => c.field === "archived" && c.comparison === "changed");
      if (archive) {
        const target = archive.now === true ? into.archived : into.restored;
        const verb = archive.now === true ? "Archive" : "Restore";
        const note =
          archive.now === true
            ? "the vault is archived with its address and any funds; setting it back restores it."
            : "the archived vault is restored, with its address.";
        target.push(
          `- **${verb}**: ${describe(step, step.oldState)}: ${showChange(archive, certainSecret)}; ${note}`,
        );
      }
      const names = considered.filter((c) => c.field === "name");
      const groups = considered.filter((c) => c.field === "vaultGroupIds");
      const others = considered.filter((c) => !["name", "vaultGroupIds", "archived"].includes(c.field));
      if (names.length > 0) into.renamed.push(line(step.oldState, names));
      if (groups.length > 0) into.groups.push(line(step.oldState, groups));
      if (others.length > 0) into.updated.push(line(step.oldState, others));
      return;
    }
    default:
      return;
  }
}

/** The review of a preview: the Markdown and what it found. */
export function reviewPreview(preview: PreviewJson, options: ReviewOptions = {}): Review {
  const diagnostics = preview.diagnostics ?? [];
  const steps = (preview.steps ?? [])
    .map(custodyStep)
    .filter((step): step is CustodyStep => step !== undefined)
    // The steps of the plan; a replacement shows once, as its replace step (not create-replacement and
    // delete-replaced), and a refresh (`--refresh`) only reads.
    .filter((step) => PLANNED_OPS.has(step.op));
  const reasonsOf = new Map<string, string[]>();
  for (const step of preview.steps ?? [])
    if (step.op === "create-replacement" && step.replaceReasons) reasonsOf.set(step.urn, step.replaceReasons);

  const sections: Sections = {
    cannotApply: [],
    policyMissing: [],
    policyNotInInput: [],
    violations: new Map(),
    replaced: [],
    archived: [],
    safety: [],
    created: [],
    restored: [],
    renamed: [],
    groups: [],
    updated: [],
  };
  // Vault names by id, to name the vault of an address.
  const vaultNames = new Map<string, string>();
  for (const step of steps) {
    const name = text(step.oldState?.outputs?.name) ?? text(step.oldState?.inputs?.name);
    if (step.kind === "Vault" && step.oldState?.id && name) vaultNames.set(step.oldState.id, name);
  }
  // After a refresh, a step's old inputs are the live ones.
  const refreshed = new Set(
    (preview.steps ?? []).filter((step) => step.op === "refresh").map((step) => step.urn),
  );
  for (const step of steps) {
    const replaceReasons = step.replaceReasons ?? reasonsOf.get(step.urn);
    sortStep(
      { ...step, ...(replaceReasons ? { replaceReasons } : {}) },
      { diagnostics, vaultNames, refreshed: refreshed.has(step.urn) },
      sections,
    );
  }

  const violations = [...(preview.policyViolations ?? [])].sort(
    (a, b) => levelRank(a.enforcementLevel) - levelRank(b.enforcementLevel),
  );
  for (const v of violations) {
    const list = sections.violations.get(v.enforcementLevel) ?? [];
    list.push(describeViolation(v));
    sections.violations.set(v.enforcementLevel, list);
  }
  const mandatory = violations.filter((v) => v.enforcementLevel === "mandatory").length;

  // A preview that did not run to its end: its reason replaces the verdict, and nothing is claimed about
  // changes it never planned or policy results that never came.
  const stop = previewStop(preview, options);
  if (stop) return stoppedPreviewReview(stop, sections, mandatory);

  // What stops the change: the preview's errors, and mandatory violations.
  const errors = previewErrors(diagnostics);
  const failed =
    preview.result === "failed" || diagnostics.some((d) => d.severity === "error") || mandatory > 0;
  sections.cannotApply.push(...errors.map((e) => `- ${e}`));
  if (mandatory > 0)
    sections.cannotApply.push(`- ${plural(mandatory, "mandatory policy violation")} (below).`);
  if (failed && sections.cannotApply.length === 0)
    sections.cannotApply.push("- The preview failed; the output of `pulumi preview` says why.");

  // Policy results: present, missing, or impossible to tell from this input.
  const policy = preview.policy;
  // Without the stream's events, the input is the digest (what `JSON.parse` of `pulumi preview --json` gives).
  const digest = preview.form !== "events";
  const packs = policy?.packs.length ? policy.packs.map((p) => `\`${p}\``).join(", ") : undefined;
  const policyMissing = digest
    ? options.expectPolicy === true
    : (options.expectPolicy === true || policy?.loaded === true) && policy?.analyzed !== true;
  if (policyMissing) {
    sections.policyMissing.push(
      digest
        ? "A policy pack was expected, but this input is the digest of `pulumi preview --json`, which never carries policy results. " +
            "Run `custody review -- <pulumi preview arguments>`, or save the event stream " +
            "(`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi preview --json`)."
        : `No policy results arrived although a policy pack was ${policy?.loaded ? `loaded (${packs ?? "unnamed"})` : "given"}: ` +
            "nothing here says whether this change follows the team's rules. " +
            (failed
              ? "The preview failed before the pack judged any resource."
              : "Check that the pack runs."),
    );
  } else if (digest) {
    sections.policyNotInInput.push(
      "This input is the digest of `pulumi preview --json`, which leaves policy results out: if the preview ran a " +
        "policy pack, its violations are not listed here. Run `custody review -- <pulumi preview arguments>`, or " +
        "save the event stream (`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi preview --json`).",
    );
  }

  const changeSections = changeSectionsOf(sections);
  const violationSections = violationSectionsOf(sections);
  const allSections: [string, string[]][] = [
    ["🛑 This change cannot be applied", sections.cannotApply],
    ["🛑 Policy results missing", sections.policyMissing],
    ["⚠️ Policy results not in this input", sections.policyNotInInput],
    ...violationSections,
    ...changeSections,
  ];

  const lines = ["## Custody changes", ""];
  const anyChange = changeSections.some(([, items]) => items.length > 0);
  if (failed) {
    const causes = [errors.length > 0 ? plural(errors.length, "error") : undefined];
    if (mandatory > 0) causes.push(plural(mandatory, "mandatory policy violation"));
    const cause = causes.filter(Boolean).join(" and ") || "the preview failed";
    lines.push(
      `This change cannot be applied: ${cause}. Nothing below happens until it is fixed; ` +
        (anyChange
          ? "the rest is what the change would do."
          : "the preview planned no vault or address change."),
    );
  } else if (!anyChange) {
    lines.push("No vault or address changes.");
  } else {
    const flagged = sections.replaced.length + sections.archived.length + sections.safety.length;
    const safety = sections.safety.length > 0 ? `, ${sections.safety.length} to protection or adoption` : "";
    lines.push(
      `${flagged} change(s) to review first: ${sections.replaced.length} replaced, ${sections.archived.length} archived${safety}.`,
    );
  }
  if (policy?.analyzed) {
    const counts = [...sections.violations.entries()].map(([level, items]) => `${items.length} ${level}`);
    lines.push(
      "",
      `Policy ${policy.packs.length > 1 ? "packs" : "pack"} ${packs ?? "(unnamed)"} ran: ${counts.length > 0 ? `${counts.join(", ")} violation(s)` : "no violations"}.`,
    );
  } else if (!digest && !policyMissing) {
    lines.push("", "No policy pack ran with this preview.");
  }
  pushSections(lines, allSections);
  return { markdown: `${lines.join("\n")}\n`, cannotApply: failed, policyMissing };
}

/** The sections of planned changes, in order. */
function changeSectionsOf(sections: Sections): [string, string[]][] {
  return [
    [
      "⚠️ Replaced: the old vault is archived and a new one, with a new address, is created",
      sections.replaced,
    ],
    ["⚠️ Archived", sections.archived],
    ["⚠️ Protection and adoption", sections.safety],
    ["Created", sections.created],
    ["Restored", sections.restored],
    ["Renamed", sections.renamed],
    ["Vault groups (a change goes through a proposal that an approver must accept)", sections.groups],
    ["Other updates", sections.updated],
  ];
}

/** The sections of policy violations, one per level, mandatory first. */
function violationSectionsOf(sections: Sections): [string, string[]][] {
  return [...sections.violations.entries()].map(([level, items]) => [
    LEVEL_HEADING[level] ?? `Policy violations (${level})`,
    items,
  ]);
}

/** Appends the sections that have items, each under its heading. */
function pushSections(lines: string[], sections: [string, string[]][]): void {
  for (const [title, items] of sections) {
    if (items.length === 0) continue;
    lines.push("", `### ${title}`, "", ...items);
  }
}

/**
 * The review of a preview that stopped before its end: the stop and its reason first; then, for one that
 * stopped part way, what arrived before it stopped (violations, planned changes), marked as incomplete.
 */
function stoppedPreviewReview(stop: PreviewStop, sections: Sections, mandatory: number): Review {
  const lines = ["## Custody changes", "", ...stopLines(stop)];
  // Only a preview known to have stopped part way has a plan to show; a stream cut short proves nothing.
  if (stop.kind === "not-finished")
    pushSections(lines, [...violationSectionsOf(sections), ...changeSectionsOf(sections)]);
  const { quoted: _quoted, ...stopped } = stop;
  // A mandatory violation that arrived still stops the change.
  const cannotApply = stop.kind === "not-finished" && mandatory > 0;
  return { markdown: `${lines.join("\n")}\n`, cannotApply, policyMissing: false, stopped };
}

/** The Markdown review of a preview's custody changes (see {@link reviewPreview} for what it found). */
export function reviewReport(preview: PreviewJson, options: ReviewOptions = {}): string {
  return reviewPreview(preview, options).markdown;
}
