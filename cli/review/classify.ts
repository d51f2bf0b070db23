/**
 * What a preview plans for the custody resources, sorted for a reviewer: which steps replace, archive, create,
 * restore, rename, regroup or otherwise update a vault or an address; which inputs each changes; what stops
 * the change (the preview's errors, mandatory policy violations, policy results that never arrived); and
 * whether the preview ran to its end at all. Each input's place in the report (its section, its label, what a
 * change to `true` means) comes from its resource's declaration (`review` of each input in pulumi-custody/core),
 * never from a list of names here. No Markdown: ./render.ts writes it.
 */
import { type CustodyResourceKind, inputOf, resourceOfType, typeOfUrn } from "pulumi-custody/core";
import { shownText } from "../shown";
import type { PolicyViolation, PreviewDiagnostic, PreviewJson, PreviewState, PreviewStep } from "./preview";
import { compareField, type FieldComparison } from "./values";

/** Options of the review. */
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

/** Why a preview did not run to its end. */
export interface PreviewStop {
  /**
   * `policy-pack`: a policy pack failed to load, so nothing was planned; `not-run`: the CLI or the engine
   * stopped before planning (an unknown stack); `not-finished`: it stopped part way (what it had planned is
   * listed, as incomplete); `unreadable`: what `pulumi preview --json` printed could not be read.
   */
  kind: "policy-pack" | "not-run" | "not-finished" | "unreadable";
  /** The reason, in one line, control characters escaped. */
  reason: string;
  /** Whether the reason is what the CLI or the engine said (shown quoted). */
  quoted: boolean;
}

/** A custody step with its kind. */
export interface CustodyStep extends PreviewStep {
  /** `Vault` or `VaultAddress`. */
  kind: CustodyResourceKind;
}

/** One input's change in a step. */
export interface FieldChange {
  /** The input, as the program spells it. */
  field: string;
  /** How the report names it (its declaration's label). */
  label: string;
  /** How the two values compare. */
  comparison: Exclude<FieldComparison, "same">;
  /** Two masked values: whether the change is certain (the plan proves it) or only possible. */
  certain: boolean;
  /** The value before. */
  old: unknown;
  /** The value planned. */
  now: unknown;
  /** What a change to `true` means, after the change (from the declaration). */
  whenTrue?: string;
}

/** A resource a line of the report is about: the step, and the state it is described by. */
export interface Subject {
  /** The step. */
  step: CustodyStep;
  /** The state that names it (the old one, or for a create the new one). */
  state: PreviewState | undefined;
}

/** An error of the preview: its message on one line, and the resource it is about, if it is about one. */
export interface PreviewError {
  /** The resource's name (the last part of its URN). */
  resource?: string;
  /** The message, on one line, without the CLI's `error: ` prefix. */
  message: string;
}

/** A step that replaces its resource: what forces it, and the warnings about it. */
export interface ReplacedEntry {
  /** The resource. */
  subject: Subject;
  /** The inputs that force the replacement. */
  changes: FieldChange[];
  /** Each warning about it, on one line. */
  warnings: string[];
}

/** A step that removes its resource from the program (a vault is archived, an address forgotten). */
export interface DeletedEntry {
  /** What it is. */
  kind: "deleted";
  /** The resource. */
  subject: Subject;
}

/** An update that archives a vault, or restores one. */
export interface ArchiveEntry {
  /** What it is. */
  kind: "archive";
  /** `true` archives; `false` restores. */
  archives: boolean;
  /** The resource. */
  subject: Subject;
  /** The change of the input that does it. */
  change: FieldChange;
}

/** A change to protection (`protect`) or adoption (an input in the `safety` section). */
export interface SafetyEntry {
  /** The resource. */
  subject: Subject;
  /** `protect` from the old value to the new one, when it changes. */
  protect?: { from: boolean; to: boolean };
  /** The inputs of the section that change. */
  changes: FieldChange[];
}

/** A step that creates (or imports) its resource. */
export interface CreatedEntry {
  /** The resource. */
  subject: Subject;
  /**
   * `import`: adopted as it is; `adopt`: a create that takes over the active resource of its name (a vault
   * declared `adoptExisting: true`, as `custody import --provider dynamic` declares every one); `create`:
   * created, or restored or adopted by the provider.
   */
  op: "create" | "adopt" | "import";
  /** For an address, the vault it is in: its id (or unknown value) and its name when the preview shows it. */
  vault?: { id: unknown; name?: string };
}

/** An update of some inputs, in one section. */
export interface UpdatedEntry {
  /** The resource. */
  subject: Subject;
  /** The inputs that change. */
  changes: FieldChange[];
}

/** The planned changes, by section, each in the preview's order. */
export interface PlannedChanges {
  /** Replacements (a vault's: archived, and a new one created). */
  replaced: ReplacedEntry[];
  /** Resources removed from the program, and vaults archived by an update. */
  archived: (DeletedEntry | ArchiveEntry)[];
  /** Changes to protection and adoption. */
  safety: SafetyEntry[];
  /** Creates that adopt the resource of their name (`adoptExisting: true`). */
  adopted: CreatedEntry[];
  /** Creates and imports. */
  created: CreatedEntry[];
  /** Vaults restored by an update. */
  restored: ArchiveEntry[];
  /** Renames. */
  renamed: UpdatedEntry[];
  /** Changes of vault groups (through a proposal). */
  groups: UpdatedEntry[];
  /** Every other update. */
  updated: UpdatedEntry[];
}

/** What the review found in a preview. */
export interface Classified {
  /** The planned changes. */
  changes: PlannedChanges;
  /** Policy violations, mandatory first. */
  violations: PolicyViolation[];
  /** How many are mandatory. */
  mandatory: number;
  /** The preview's errors, each once. */
  errors: PreviewError[];
  /** The preview failed or has mandatory violations: the change cannot be applied as it is. */
  failed: boolean;
  /** The input is the digest of `pulumi preview --json` (no policy results in it). */
  digest: boolean;
  /** A policy pack was given or loaded, but no policy results arrived. */
  policyMissing: boolean;
  /** The policy packs of the preview. */
  policy: PreviewJson["policy"];
  /** Set when the preview did not run to its end. */
  stop?: PreviewStop;
}

/** The operations the report reads. */
const PLANNED_OPS = new Set(["create", "import", "update", "replace", "delete", "same"]);

/**
 * Whether a create takes over the active resource of its name rather than making one, by kind (a new kind does
 * not compile until it says): a vault declared `adoptExisting: true` (provider/core/vault/acquire.ts). An address
 * is adopted by its name in its vault whenever one holds it, which a create's line says.
 */
const ADOPTS_ON_CREATE: Record<CustodyResourceKind, (inputs: Record<string, unknown>) => boolean> = {
  Vault: (inputs) => inputs.adoptExisting === true,
  VaultAddress: () => false,
};

function custodyStep(step: PreviewStep): CustodyStep | undefined {
  const descriptor = resourceOfType(step.newState?.type ?? step.oldState?.type ?? typeOfUrn(step.urn));
  return descriptor ? { ...step, kind: descriptor.kind } : undefined;
}

/** A string, when the value is a non-empty one. */
export function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The resource name of a URN (its last part). */
export function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** One line of a message that may span several. */
export function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, " ").trim();
}

/** The declared review of an input of a step's resource (its section, label and note). */
function reviewOf(step: CustodyStep, field: string) {
  const descriptor = resourceOfType(step.newState?.type ?? step.oldState?.type ?? typeOfUrn(step.urn));
  const review = descriptor ? inputOf(descriptor.fields, field)?.review : undefined;
  return { label: review?.label ?? field, section: review?.section ?? "updated", whenTrue: review?.whenTrue };
}

/**
 * The inputs a step changes: the declared inputs first, then any other (the provider's own left out). After a
 * refresh (`--refresh`), the old inputs are the live ones (the provider's `read`), and an input the program
 * leaves unset is the service's choice, not a change.
 */
function fieldChanges(step: CustodyStep, refreshed: boolean): (FieldChange & { section: string })[] {
  const olds = step.oldState?.inputs ?? {};
  const news = step.newState?.inputs ?? {};
  const declared =
    resourceOfType(step.newState?.type ?? step.oldState?.type ?? typeOfUrn(step.urn))?.inputNames ?? [];
  // `__`-prefixed inputs are the provider's own (`__provider`, a secret name's `__nameIsSecret`): the engine
  // does not display them either.
  const names = [...new Set([...declared, ...Object.keys(olds), ...Object.keys(news)])].filter(
    (name) => !name.startsWith("__"),
  );
  const changes: (FieldChange & { section: string })[] = [];
  for (const field of names) {
    if (refreshed && news[field] === undefined) continue;
    const comparison = compareField(olds[field], news[field]);
    if (comparison === "same") continue;
    const { label, section, whenTrue } = reviewOf(step, field);
    changes.push({
      field,
      label,
      section,
      comparison,
      certain: false,
      old: olds[field],
      now: news[field],
      ...(whenTrue !== undefined ? { whenTrue } : {}),
    });
  }
  return changes;
}

/** Each warning that names this resource, its id or its name, on one line. */
function warningsAbout(step: PreviewStep, diagnostics: PreviewDiagnostic[]): string[] {
  const id = text(step.oldState?.id);
  const name = text(step.oldState?.inputs?.name);
  return diagnostics
    .filter((d) => d.severity === "warning")
    .filter(
      (d) =>
        d.urn === step.urn || (id && d.message.includes(id)) || (name && d.message.includes(`"${name}"`)),
    )
    .map((d) => oneLine(d.message.replace(/^warning: /, "")));
}

/** The errors that stop the preview, each once, without the CLI's generic last line. */
export function previewErrors(diagnostics: PreviewDiagnostic[]): PreviewError[] {
  const errors = new Map<string, PreviewError>();
  for (const d of diagnostics) {
    if (d.severity !== "error") continue;
    const message = oneLine(d.message.replace(/^error: /, "").replace(/^Preview failed: /, ""));
    if (message === "preview failed") continue;
    const type = d.urn?.split("::")[2];
    const resource = d.urn && type !== "pulumi:pulumi:Stack" ? resourceName(d.urn) : undefined;
    const error = resource === undefined ? { message } : { resource, message };
    errors.set(errorLine(error), error);
  }
  return [...errors.values()];
}

/** An error as one line of text: `resource treasury: message`. */
function errorLine(error: PreviewError): string {
  return error.resource === undefined ? error.message : `resource \`${error.resource}\`: ${error.message}`;
}

/** The engine's terminal colours (`\x1b[31m`), which the CLI adds to its messages on a terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is matched.
const ANSI_SGR = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

/** A reason as the report shows it: one line, colours removed, control characters escaped, bounded. */
export function shownReason(reason: string): string {
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
  const said =
    errors.length > 0
      ? errors.map(errorLine).join("; ")
      : lastError !== "preview failed"
        ? lastError
        : undefined;
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

/** Mandatory violations first: they stop the change. */
const LEVEL_ORDER = ["mandatory", "advisory", "remediate"];

function levelRank(level: string): number {
  const i = LEVEL_ORDER.indexOf(level);
  return i < 0 ? LEVEL_ORDER.length : i;
}

/** Sorts one step's changes into the sections. */
function sortStep(
  step: CustodyStep,
  context: { diagnostics: PreviewDiagnostic[]; vaultNames: ReadonlyMap<string, string>; refreshed: boolean },
  into: PlannedChanges,
): void {
  const changes = fieldChanges(step, context.refreshed);
  const visible = changes.filter((c) => c.comparison !== "secret");
  const secrets = changes.filter((c) => c.comparison === "secret");
  const restoring = step.oldState?.outputs?.state === "archived";
  // Masks cannot be compared: the planned update proves a change only when one masked input is all it can be.
  const certainSecret = step.op === "update" && visible.length === 0 && secrets.length === 1 && !restoring;
  for (const change of changes) change.certain = certainSecret;
  const before: Subject = { step, state: step.oldState };

  const oldProtect = step.oldState?.protect === true;
  const newProtect = step.newState?.protect === true;
  // A create or an import has nothing before it: every input it declares is new, and its own line says what
  // they make it do (an adoption among them), so none is listed again as a change to protection or adoption.
  const creates = step.op === "create" || step.op === "import";
  const safety = creates ? [] : changes.filter((c) => c.section === "safety");
  const protectChanges = !creates && step.oldState && step.newState && oldProtect !== newProtect;
  if (safety.length > 0 || protectChanges)
    into.safety.push({
      subject: before,
      ...(protectChanges ? { protect: { from: oldProtect, to: newProtect } } : {}),
      changes: safety,
    });
  // A `same` step plans nothing: what the provider ignores (above) is all it can show.
  if (step.op === "same") return;

  switch (step.op) {
    case "replace": {
      const reasons = step.replaceReasons?.length
        ? changes.filter((c) => step.replaceReasons?.includes(c.field))
        : changes.filter((c) => c.section !== "safety");
      // A replacement's reasons name the inputs that force it: a masked one among them surely changed.
      const why = reasons.map((c) => ({ ...c, certain: step.replaceReasons?.includes(c.field) === true }));
      into.replaced.push({
        subject: before,
        changes: why,
        warnings: warningsAbout(step, context.diagnostics),
      });
      return;
    }
    case "delete":
      into.archived.push({ kind: "deleted", subject: before });
      return;
    case "create":
    case "import": {
      const inputs = step.newState?.inputs ?? {};
      const vaultId = inputs.vaultId;
      const vault =
        step.kind === "VaultAddress"
          ? {
              id: vaultId,
              ...(typeof vaultId === "string" && context.vaultNames.has(vaultId)
                ? { name: context.vaultNames.get(vaultId) }
                : {}),
            }
          : undefined;
      const adopts = step.op === "create" && ADOPTS_ON_CREATE[step.kind](inputs);
      (adopts ? into.adopted : into.created).push({
        subject: { step, state: step.newState },
        op: adopts ? "adopt" : step.op,
        ...(vault ? { vault } : {}),
      });
      return;
    }
    case "update": {
      const considered = changes.filter((c) => c.section !== "safety");
      const archive = considered.find((c) => c.section === "archive" && c.comparison === "changed");
      if (archive) {
        const entry = {
          kind: "archive" as const,
          archives: archive.now === true,
          subject: before,
          change: archive,
        };
        (archive.now === true ? into.archived : into.restored).push(entry);
      }
      const bySection = (section: string) => considered.filter((c) => c.section === section);
      const others = considered.filter((c) => !["renamed", "groups", "archive"].includes(c.section));
      if (bySection("renamed").length > 0)
        into.renamed.push({ subject: before, changes: bySection("renamed") });
      if (bySection("groups").length > 0) into.groups.push({ subject: before, changes: bySection("groups") });
      if (others.length > 0) into.updated.push({ subject: before, changes: others });
      return;
    }
    default:
      return;
  }
}

/** Sorts what a preview plans and says for a reviewer. */
export function classifyPreview(preview: PreviewJson, options: ReviewOptions = {}): Classified {
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

  const changes: PlannedChanges = {
    replaced: [],
    archived: [],
    safety: [],
    adopted: [],
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
      changes,
    );
  }

  const violations = [...(preview.policyViolations ?? [])].sort(
    (a, b) => levelRank(a.enforcementLevel) - levelRank(b.enforcementLevel),
  );
  const mandatory = violations.filter((v) => v.enforcementLevel === "mandatory").length;
  const errors = previewErrors(diagnostics);
  const failed =
    preview.result === "failed" || diagnostics.some((d) => d.severity === "error") || mandatory > 0;
  // Without the stream's events, the input is the digest (what `JSON.parse` of `pulumi preview --json` gives).
  const digest = preview.form !== "events";
  const policy = preview.policy;
  const policyMissing = digest
    ? options.expectPolicy === true
    : (options.expectPolicy === true || policy?.loaded === true) && policy?.analyzed !== true;
  const stop = previewStop(preview, options);
  return {
    changes,
    violations,
    mandatory,
    errors,
    failed,
    digest,
    policyMissing,
    policy,
    ...(stop ? { stop } : {}),
  };
}
