/**
 * The review as Markdown, for a pull-request comment, from what ./classify.ts found: what stops the change
 * first, then what a reviewer must not miss (replacements and archives: the custody API cannot delete a vault,
 * so both archive one, with its address; changes to protection and adoption), then the rest. Every vault line
 * names its type, chain and network; values the engine masks (secrets) or does not know yet are named as such,
 * never printed as the engine's placeholders. Every text the report did not write itself (a name, an id, a
 * value, a message) is shown by the one rule and cut, and makes no markup (./markdown-text.ts).
 */
import type { CustodyResourceKind } from "pulumi-custody/core";
import type {
  ArchiveEntry,
  Classified,
  CreatedEntry,
  DeletedEntry,
  FieldChange,
  PlannedChanges,
  PreviewError,
  PreviewStop,
  Subject,
} from "./classify";
import { oneLine, resourceName, text } from "./classify";
import { CODE_MAX, codeSpan, codeText, MESSAGE_MAX, NAME_MAX, proseLine, proseText } from "./markdown-text";
import { type PolicyViolation, policyPackLabel } from "./preview";
import { containsUnknown, isMasked, KNOWN_AFTER_APPLY, showValue } from "./values";

/** How each kind of custody resource reads in the report. */
interface KindText {
  /** `Vault`, `Address`. */
  label: string;
  /** What the resource is on (a vault's type, chain and network), before the resource facts. */
  what(inputs: Record<string, unknown>): string | undefined;
  /** What a create may do instead of creating (the provider's create restores and adopts). */
  createNote(inputs: Record<string, unknown>): string;
  /** What a create that adopts does (./classify.ts says which creates adopt). */
  adoptNote: string;
  /** What removing it from the program does. */
  deleteNote: string;
}

/** One entry per kind of custody resource, so that a new kind does not compile until the report reads it. */
const KINDS: Record<CustodyResourceKind, KindText> = {
  Vault: {
    label: "Vault",
    what: vaultNetwork,
    createNote: (inputs) =>
      containsUnknown(inputs.adoptExisting)
        ? "created; if an archived vault of the same name and kind exists, it is restored instead, and should " +
          "`adoptExisting` be `true` once known, an active vault of the same name is taken over instead."
        : "created; if an archived vault of the same name and kind exists, it is restored instead.",
    adoptNote:
      "adopted: this `up` takes over the active vault of this name, without creating one; only if no active " +
      "vault has the name is an archived one of the same name and kind restored, or else a new one created.",
    deleteNote: "archived, not deleted; it keeps its address and any funds.",
  },
  VaultAddress: {
    label: "Address",
    what: () => undefined,
    createNote: () => "created; if the vault already has an address of that name, it is adopted instead.",
    adoptNote: "adopted: this `up` takes over the vault's address of this name, without creating one.",
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
    return `\`utxo\` on ${codeText(chain, CODE_MAX)}, ${flag}`;
  }
  if (type === "black_box") {
    return `\`black_box\`, key type ${typeof keyType === "string" ? codeText(keyType, CODE_MAX) : showValue(keyType)}, no chain`;
  }
  const shownType = codeText(type, CODE_MAX);
  return `${shownType} on every ${shownType} chain, mainnets included`;
}

/** `Vault **Treasury** (`evm` on …; resource `treasury`, id …, address …)`. */
function describe({ step, state }: Subject): string {
  const kind = KINDS[step.kind];
  const name = state?.inputs?.name ?? state?.outputs?.name;
  const named = isMasked(name)
    ? `${kind.label} with a secret name`
    : `${kind.label} **${proseText(text(name) ?? resourceName(step.urn), NAME_MAX)}**`;
  const facts = [`resource ${codeText(resourceName(step.urn), CODE_MAX)}`];
  const id = text(step.oldState?.id);
  if (id) facts.push(`id ${codeText(id, CODE_MAX)}`);
  const address = text(step.oldState?.outputs?.address);
  if (address) facts.push(`address ${codeText(address, CODE_MAX)}`);
  const what = kind.what(step.newState?.inputs ?? step.oldState?.inputs ?? {});
  return `${named} (${what ? `${what}; ` : ""}${facts.join(", ")})`;
}

/**
 * `key: old → new`. Two masked values cannot be compared: the change is stated as certain only when the plan
 * proves it (see ./classify.ts).
 */
function showChange(change: FieldChange): string {
  const key = codeText(change.label, CODE_MAX);
  switch (change.comparison) {
    case "secret":
      return change.certain ? `${key}: changed (secret value)` : `${key}: secret value, may have changed`;
    case "unknown":
      return `${key}: ${showValue(change.old)} → ${KNOWN_AFTER_APPLY}`;
    default:
      return `${key}: ${showValue(change.old)} → ${showValue(change.now)}`;
  }
}

/** A change of a protection or adoption input, with what a change to `true` means. */
function showSafetyChange(change: FieldChange): string {
  return change.now === true && change.whenTrue !== undefined
    ? `${showChange(change)}: ${change.whenTrue}`
    : showChange(change);
}

/** `vault **Cold** (`79538d77-…`)`, the vault an address is in, named when the preview shows it. */
function vaultOf(vault: NonNullable<CreatedEntry["vault"]>): string {
  if (containsUnknown(vault.id)) return `vault (${KNOWN_AFTER_APPLY})`;
  if (typeof vault.id !== "string") return `vault ${showValue(vault.id)}`;
  const id = codeText(vault.id, CODE_MAX);
  return vault.name ? `vault **${proseText(vault.name, NAME_MAX)}** (${id})` : `vault ${id}`;
}

function changesLine(subject: Subject, changes: FieldChange[]): string {
  return `- ${describe(subject)}: ${changes.map(showChange).join(", ")}.`;
}

function archivedLine(entry: DeletedEntry | ArchiveEntry): string {
  if (entry.kind === "deleted")
    return `- ${describe(entry.subject)}: ${KINDS[entry.subject.step.kind].deleteNote}`;
  const verb = entry.archives ? "Archive" : "Restore";
  const note = entry.archives
    ? "the vault is archived with its address and any funds; setting it back restores it."
    : "the archived vault is restored, with its address.";
  return `- **${verb}**: ${describe(entry.subject)}: ${showChange(entry.change)}; ${note}`;
}

/** A create's line: what it makes, restores, adopts or imports, and for an address, in which vault. */
function createdLine({ subject, op, vault }: CreatedEntry): string {
  const where = vault ? `in ${vaultOf(vault)}, ` : "";
  const kind = KINDS[subject.step.kind];
  const what =
    op === "import"
      ? "imported (adopted as it is)."
      : op === "adopt"
        ? kind.adoptNote
        : kind.createNote(subject.state?.inputs ?? {});
  return `- ${describe(subject)}: ${where}${what}`;
}

/** Each section's lines. */
function sectionLines(changes: PlannedChanges): Record<keyof PlannedChanges, string[]> {
  return {
    replaced: changes.replaced.map(({ subject, changes: why, warnings }) => {
      const warning = warnings.map((w) => `\n  > ${proseLine(w, MESSAGE_MAX)}`).join("");
      return `- ${describe(subject)}: ${why.map(showChange).join(", ") || "replaced"}.${warning}`;
    }),
    archived: changes.archived.map(archivedLine),
    safety: changes.safety.map(({ subject, protect, changes: safety }) => {
      const items = safety.map(showSafetyChange);
      if (protect)
        items.unshift(
          protect.to
            ? "`protect`: `false` → `true`: protected from now on"
            : "`protect`: `true` → `false`: no longer protected; removing it from the program, a destroy or a replacement archives it",
        );
      return `- ${describe(subject)}: ${items.join("; ")}.`;
    }),
    adopted: changes.adopted.map(createdLine),
    created: changes.created.map(createdLine),
    restored: changes.restored.map(archivedLine),
    renamed: changes.renamed.map(({ subject, changes: list }) => changesLine(subject, list)),
    groups: changes.groups.map(({ subject, changes: list }) => changesLine(subject, list)),
    updated: changes.updated.map(({ subject, changes: list }) => changesLine(subject, list)),
  };
}

/** The sections of planned changes, in order. */
function changeSections(changes: PlannedChanges): [string, string[]][] {
  const lines = sectionLines(changes);
  return [
    ["⚠️ Replaced: the old vault is archived and a new one, with a new address, is created", lines.replaced],
    ["⚠️ Archived", lines.archived],
    ["⚠️ Protection and adoption", lines.safety],
    ["⚠️ Adopted (`adoptExisting: true`): taken over, not created", lines.adopted],
    ["Created", lines.created],
    ["Restored", lines.restored],
    ["Renamed", lines.renamed],
    ["Vault groups (a change goes through a proposal that an approver must accept)", lines.groups],
    ["Other updates", lines.updated],
  ];
}

const LEVEL_HEADING: Record<string, string> = {
  mandatory: "🛑 Mandatory policy violations",
  advisory: "⚠️ Advisory policy violations",
};

/** `- `policy` (pack@1.0.0), resource `treasury`: message` */
function describeViolation(v: PolicyViolation): string {
  const type = v.urn?.split("::")[2];
  const where =
    v.urn && type !== "pulumi:pulumi:Stack"
      ? `resource ${codeText(resourceName(v.urn), CODE_MAX)}`
      : "the stack";
  const label = policyPackLabel(v.policyPackName, v.policyPackVersion);
  const pack = label ? ` (${proseText(label, CODE_MAX)})` : "";
  const level = proseText(v.enforcementLevel, CODE_MAX);
  return `- **${level}** ${codeText(v.policyName, CODE_MAX)}${pack}, ${where}: ${proseText(oneLine(v.message), MESSAGE_MAX)}`;
}

/** `- resource `treasury`: message`, an error of the preview. */
function describeError(error: PreviewError): string {
  const message = proseText(error.message, MESSAGE_MAX);
  return error.resource === undefined
    ? `- ${message}`
    : `- resource ${codeText(error.resource, CODE_MAX)}: ${message}`;
}

/** The violations by level, in the order they come (mandatory first). */
function violationsByLevel(violations: readonly PolicyViolation[]): Map<string, string[]> {
  const byLevel = new Map<string, string[]>();
  for (const v of violations) {
    const list = byLevel.get(v.enforcementLevel) ?? [];
    list.push(describeViolation(v));
    byLevel.set(v.enforcementLevel, list);
  }
  return byLevel;
}

/** The sections of policy violations, one per level, mandatory first. */
function violationSections(violations: readonly PolicyViolation[]): [string, string[]][] {
  return [...violationsByLevel(violations).entries()].map(([level, items]) => [
    LEVEL_HEADING[level] ?? `Policy violations (${proseText(level, CODE_MAX)})`,
    items,
  ]);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Appends the sections that have items, each under its heading. */
function pushSections(lines: string[], sections: [string, string[]][]): void {
  for (const [title, items] of sections) {
    if (items.length === 0) continue;
    lines.push("", `### ${title}`, "", ...items);
  }
}

/** The first lines of the report of a preview that did not run to its end: what happened, why, what it means. */
export function stopLines(stop: PreviewStop): string[] {
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
 * The report of a preview that stopped before its end: the stop and its reason first; then, for one that
 * stopped part way, what arrived before it stopped (violations, planned changes), marked as incomplete.
 */
export function renderStopped(stop: PreviewStop, found?: Pick<Classified, "changes" | "violations">): string {
  const lines = ["## Custody changes", "", ...stopLines(stop)];
  // Only a preview known to have stopped part way has a plan to show; a stream cut short proves nothing.
  if (stop.kind === "not-finished" && found)
    pushSections(lines, [...violationSections(found.violations), ...changeSections(found.changes)]);
  return `${lines.join("\n")}\n`;
}

/** The Markdown review of a preview that ran to its end. */
export function renderReview(found: Classified): string {
  const { errors, failed, mandatory, digest, policyMissing, policy } = found;
  const cannotApply = errors.map(describeError);
  if (mandatory > 0) cannotApply.push(`- ${plural(mandatory, "mandatory policy violation")} (below).`);
  if (failed && cannotApply.length === 0)
    cannotApply.push("- The preview failed; the output of `pulumi preview` says why.");

  // Policy results: present, missing, or impossible to tell from this input.
  const packs = policy?.packs.length ? policy.packs.map((p) => codeText(p, CODE_MAX)).join(", ") : undefined;
  const missing: string[] = [];
  const notInInput: string[] = [];
  if (policyMissing) {
    missing.push(
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
    notInInput.push(
      "This input is the digest of `pulumi preview --json`, which leaves policy results out: if the preview ran a " +
        "policy pack, its violations are not listed here. Run `custody review -- <pulumi preview arguments>`, or " +
        "save the event stream (`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi preview --json`).",
    );
  }

  const changes = changeSections(found.changes);
  const allSections: [string, string[]][] = [
    ["🛑 This change cannot be applied", cannotApply],
    ["🛑 Policy results missing", missing],
    ["⚠️ Policy results not in this input", notInInput],
    ...violationSections(found.violations),
    ...changes,
  ];

  const lines = ["## Custody changes", ""];
  const anyChange = changes.some(([, items]) => items.length > 0);
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
    const { replaced, archived, safety, adopted } = found.changes;
    const flagged = replaced.length + archived.length + safety.length + adopted.length;
    const safetyCount = safety.length > 0 ? `, ${safety.length} to protection or adoption` : "";
    const adoptedCount = adopted.length > 0 ? `, ${adopted.length} adopted` : "";
    lines.push(
      `${flagged} change(s) to review first: ${replaced.length} replaced, ${archived.length} archived${safetyCount}${adoptedCount}.`,
    );
  }
  if (policy?.analyzed) {
    const counts = [...violationsByLevel(found.violations).entries()].map(
      ([level, items]) => `${items.length} ${proseText(level, CODE_MAX)}`,
    );
    lines.push(
      "",
      `Policy ${policy.packs.length > 1 ? "packs" : "pack"} ${packs ?? "(unnamed)"} ran: ${counts.length > 0 ? `${counts.join(", ")} violation(s)` : "no violations"}.`,
    );
  } else if (!digest && !policyMissing) {
    lines.push("", "No policy pack ran with this preview.");
  }
  pushSections(lines, allSections);
  return `${lines.join("\n")}\n`;
}
