/**
 * The drift check's verdict on a refresh-preview (`pulumi preview --refresh --json`, read as an event stream
 * by cli/review/preview-input.ts): the refresh reads every custody resource from the API, and the preview
 * then compares what it read with what the program declares. The provider's `read` returns the live vault as
 * inputs too (pulumi-custody/core, `liveInputs`), so each planned step's old inputs are the live values and its
 * new inputs the declared ones.
 *
 * What counts is the resources' inputs (`CUSTODY_RESOURCES[].inputNames`), nothing else: outputs that change
 * by themselves (`details.modifiedAt`, `details.nextAddressName` after an address is created, …) never make
 * drift, and a resource the preview leaves alone (`same`) has none.
 *
 * - `failed` (exit 1): the check could not run: an error diagnostic (a refused token, an unreachable API, a
 *   program error), or a CLI that exited non-zero with no custody change planned.
 * - `drift` (exit 3): a custody resource differs from its declaration.
 * - `clean` (exit 0).
 */
import {
  type CustodyResourceKind,
  resourceOfType,
  SEE_ANOTHER_RESOURCE,
  typeOfUrn,
} from "pulumi-custody/core";
import type { PreviewDiagnostic, PreviewJson, PreviewStep } from "../review/preview";
import { compareField, isMasked, plainValue } from "../review/values";
import type { AcceptReport } from "./accept/report";

/** The version of the report's shape (drift/report.schema.json). */
export const DRIFT_REPORT_VERSION = 1;

/** Exit status of each verdict. */
export const DRIFT_EXIT_CODES = { clean: 0, failed: 1, drift: 3 } as const;

/** The verdict of a drift check. */
export type DriftStatus = keyof typeof DRIFT_EXIT_CODES;

/** One input whose live value differs from the declared one. */
export interface DriftedField {
  /** The input, as the program spells it (`name`, `vaultGroupIds`, …); `state` for a vault archived out of band. */
  field: string;
  /** The declared value; `null` when it is a secret. */
  declared: unknown;
  /** The live value; `null` when it is a secret. */
  live: unknown;
  /** Whether the values are secrets (masked by the engine, so not shown). */
  secret: boolean;
  /**
   * Whether the field certainly differs. A secret's values cannot be compared: when several secrets could
   * explain the planned change, each is listed as one that may differ.
   */
  certain: boolean;
}

/** A custody resource that differs from its declaration. */
export interface DriftedResource {
  /** The resource's URN. */
  urn: string;
  /** Its Pulumi resource name. */
  resource: string;
  /** Its kind (`Vault`, `VaultAddress`). */
  kind: CustodyResourceKind;
  /** What the next `up` would do: `update`, `replace`, `create` (gone, or never created), `delete` (no longer declared). */
  operation: string;
  /** The vault's id (an address's: the id of its vault). */
  vaultId: string | null;
  /** The vault's live name; `null` when it is a secret or unknown. */
  vaultName: string | null;
  /** An address's id (`null` for a vault). */
  addressId: string | null;
  /** The API's `modified_at` of the vault (or address), as read by the refresh; `null` when gone. */
  modifiedAt: string | null;
  /** The inputs that differ, each once. */
  fields: DriftedField[];
  /** What the difference is, when it is not a field (a vault gone, a resource no longer declared). */
  note: string | null;
}

/** The report of a drift check: what `custody drift --json` writes (its schema: drift/report.schema.json). */
export interface DriftReport {
  /** The version of this shape. */
  schemaVersion: typeof DRIFT_REPORT_VERSION;
  /** The verdict. */
  status: DriftStatus;
  /** The command's exit status for it. */
  exitCode: (typeof DRIFT_EXIT_CODES)[DriftStatus];
  /** The stack, as its URNs name it; `null` when the check stopped before naming it. */
  stack: string | null;
  /** When the check ran (ISO 8601). */
  checkedAt: string;
  /** Why the check failed, in one line; `null` unless `failed`. */
  reason: string | null;
  /** How many custody resources the refresh read. */
  resourcesChecked: number;
  /** The resources that differ from their declaration (empty unless `drift`). */
  drifted: DriftedResource[];
  /**
   * With `--accept` (and drift found): what the accept changed, or would change with `--dry-run`, and what it
   * left to a hand edit. Its `exitCode` is then the command's.
   */
  accept?: AcceptReport;
}

/** What the check knows besides the events. */
export interface DriftInput {
  /** The refresh-preview, read from its event stream. */
  preview: PreviewJson;
  /** The CLI's exit code. */
  exitCode: number;
  /** The CLI's last line on standard error (its reason when it printed no error diagnostic). */
  lastError?: string;
  /** When the check ran. */
  checkedAt: Date;
  /**
   * Whether the preview ran with `--run-program`, so that the refresh too configured the provider from the stack
   * config rather than from the state: what a refused token's reason says depends on it.
   */
  runProgram?: boolean;
}

/** Steps that plan nothing for a resource. */
const NO_CHANGE = new Set(["same", "read", "refresh", "discard", "remove-pending-replace"]);

function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A message in one line, without a stack trace. */
function oneLine(message: string): string {
  const lines: string[] = [];
  for (const line of message.split("\n")) {
    if (/^\s*at /.test(line)) break;
    if (line.trim()) lines.push(line.trim());
  }
  return lines.join(" ");
}

/** A reason is cut to this many characters: it is one line of a report and of a CI log. */
export const REASON_MAX = 400;

/** `text` cut to {@link REASON_MAX} characters (an ellipsis marks the cut). */
function bounded(text: string): string {
  return text.length <= REASON_MAX ? text : `${text.slice(0, REASON_MAX - 1)}…`;
}

/**
 * The reason of a refused token (401), short and true of this run; `undefined` when `message` is not one. The
 * provider's own message cannot know which command configured it (a refresh without `--run-program` takes the
 * token the last `up` recorded, everything else the stack config), so it describes every case; the check knows
 * whether it ran with `--run-program`, and says only what applies.
 */
function refusedTokenReason(message: string, runProgram: boolean): string | undefined {
  if (!/refused the access token/.test(message) || !/\(401 Unauthorized\)/.test(message)) return undefined;
  const api = /^The custody API at (\S+)/.exec(message)?.[1];
  const head = `authentication refused by the custody API${api ? ` at ${api}` : ""} (401)`;
  if (/from the CUSTODY_ACCESS_TOKEN environment variable/.test(message))
    return `${head} for the token in CUSTODY_ACCESS_TOKEN: it is wrong, expired or revoked; set a valid one and run the check again`;
  const set = "set a valid one with `pulumi config set --secret custody:accessToken <token>`";
  return runProgram
    ? `${head} for custody:accessToken of the stack config (the check runs with --run-program): it is wrong, expired or revoked; ${set}`
    : `${head} for custody:accessToken (the stack config's, or in the refresh the one the last \`pulumi up\` recorded): ${set}; after a rotation, also pass \`-- --run-program\``;
}

/**
 * The reason of a failed check: the first error that says why. The CLI's closing "preview failed" says
 * nothing, and the provider refers the other resources to its one full message (`SEE_ANOTHER_RESOURCE`), so
 * both come last.
 */
function failureReason(diagnostics: PreviewDiagnostic[], runProgram: boolean): string | undefined {
  const errors = diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => oneLine(d.message.replace(/^error: /, "").replace(/^Preview failed: /, "")))
    .filter((m) => m !== "" && m !== "preview failed");
  const reason = errors.find((m) => !m.includes(SEE_ANOTHER_RESOURCE)) ?? errors[0];
  return reason === undefined ? undefined : (refusedTokenReason(reason, runProgram) ?? reason);
}

/** The stack a URN names (`urn:pulumi:<stack>::…`). */
function stackOfUrn(urn: string): string | undefined {
  return /^urn:pulumi:([^:]+)::/.exec(urn)?.[1];
}

/** A list of ids, lower case. */
function ids(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string")
    ? value.map((v: string) => v.toLowerCase())
    : undefined;
}

/**
 * A vault's live membership, as the provider's `diff` compares it: the read's `vaultGroupIds` input, else (a
 * vault whose state declares no membership yet, as one `pulumi import` took in) the outputs' groups, plus those
 * pending, minus those pending removal.
 */
function liveVaultGroups(inputs: Record<string, unknown>, outputs: Record<string, unknown>): unknown {
  if (inputs.vaultGroupIds !== undefined) return inputs.vaultGroupIds;
  const current = ids(outputs.vaultGroupIds);
  if (!current) return undefined;
  const removing = new Set(ids(outputs.pendingRemovalVaultGroupIds) ?? []);
  const adding = (ids(outputs.pendingVaultGroupIds) ?? []).filter((id) => !current.includes(id));
  return [...current, ...adding].filter((id) => !removing.has(id));
}

/** Whether two lists hold the same ids, in any order and case (the provider's rule for vault groups). */
function sameIdSet(a: unknown, b: unknown): boolean {
  const left = ids(a);
  const right = ids(b);
  if (!left || !right) return false;
  const l = new Set(left);
  const r = new Set(right);
  return l.size === r.size && [...l].every((id) => r.has(id));
}

/** The differing inputs of a planned step: live (old) against declared (new). */
function driftedFields(step: PreviewStep, inputNames: readonly string[]): DriftedField[] {
  const inputs = step.oldState?.inputs ?? {};
  const live: Record<string, unknown> = {
    ...inputs,
    vaultGroupIds: liveVaultGroups(inputs, step.oldState?.outputs ?? {}),
  };
  const declared = step.newState?.inputs ?? {};
  const visible: DriftedField[] = [];
  const masked: string[] = [];
  for (const field of inputNames) {
    // An input the program leaves unset is the service's to choose: never drift.
    if (declared[field] === undefined) continue;
    if (field === "vaultGroupIds" && sameIdSet(live[field], declared[field])) continue;
    const comparison = compareField(live[field], declared[field]);
    if (comparison === "changed")
      visible.push({
        field,
        declared: plainValue(declared[field]),
        live: plainValue(live[field]),
        secret: isMasked(declared[field]) || isMasked(live[field]),
        certain: true,
      });
    else if (comparison === "secret") masked.push(field);
  }
  // Masks cannot be compared: they count only when nothing visible explains the planned change, and a lone
  // one then certainly differs.
  const outputs = step.oldState?.outputs ?? {};
  const archived = outputs.state === "archived" && declared.archived !== true;
  const fields: DriftedField[] =
    visible.length > 0 || archived
      ? visible
      : masked.map((field) => ({
          field,
          declared: null,
          live: null,
          secret: true,
          certain: masked.length === 1,
        }));
  // A vault archived out of band: its inputs may all match; its state does not. Once `archived` is an input
  // that differs, it says so itself.
  if (archived && !fields.some((f) => f.field === "archived")) {
    fields.push({ field: "state", declared: "active", live: "archived", secret: false, certain: true });
  }
  return fields;
}

/** Reads the refresh-preview into the drift report. */
export function driftReport(input: DriftInput): DriftReport {
  const { preview } = input;
  const steps = preview.steps ?? [];
  const diagnostics = preview.diagnostics ?? [];
  const custody = (step: PreviewStep) =>
    resourceOfType(step.newState?.type ?? step.oldState?.type ?? typeOfUrn(step.urn));

  // What the refresh read, by URN: its step's old state is the state before, its new state the live one
  // (absent when the resource is gone).
  const refreshes = new Map<string, PreviewStep>();
  for (const step of steps) if (step.op === "refresh" && custody(step)) refreshes.set(step.urn, step);
  const vaultNames = new Map<string, string>();
  for (const refresh of refreshes.values()) {
    const live = refresh.newState;
    const name = text(live?.outputs?.name);
    if (custody(refresh)?.kind === "Vault" && live?.id && name) vaultNames.set(live.id, name);
  }

  const drifted = new Map<string, DriftedResource>();
  for (const step of steps) {
    const descriptor = custody(step);
    if (!descriptor || NO_CHANGE.has(step.op)) continue;
    // A replacement's steps (replace, create-replacement, delete-replaced) are one drifted resource.
    const existing = drifted.get(step.urn);
    const refresh = refreshes.get(step.urn);
    // A resource gone from the API has no live state: its ids come from the state before the refresh.
    const gone = refresh !== undefined && !refresh.newState;
    const live = step.oldState ?? refresh?.newState ?? refresh?.oldState;
    const outputs = live?.outputs ?? {};
    const isVault = descriptor.kind === "Vault";
    const vaultId = isVault
      ? (text(live?.id) ?? null)
      : (text(live?.inputs?.vaultId) ?? text(outputs.vaultId) ?? null);
    const modified = gone
      ? undefined
      : isVault
        ? (outputs.details as Record<string, unknown> | undefined)?.modifiedAt
        : outputs.modifiedAt;
    const fields = step.oldState && step.newState ? driftedFields(step, descriptor.inputNames) : [];
    let note: string | null = null;
    if (step.op === "create" || step.op === "create-replacement") {
      if (!step.oldState)
        note = refresh
          ? `the ${isVault ? "vault" : "address"} no longer exists in the API; the next \`pulumi up\` creates it again`
          : "declared but not in the stack: the last `pulumi up` did not create it";
    } else if (step.op === "delete" || step.op === "delete-replaced") {
      if (!step.newState && step.op === "delete")
        note = "in the stack but no longer declared: the next `pulumi up` removes it";
    }
    const resource: DriftedResource = existing ?? {
      urn: step.urn,
      resource: resourceName(step.urn),
      kind: descriptor.kind,
      operation: step.op,
      vaultId,
      vaultName:
        (isVault ? text(outputs.name) : undefined) ?? (vaultId ? vaultNames.get(vaultId) : undefined) ?? null,
      addressId: isVault ? null : (text(live?.id) ?? null),
      modifiedAt: text(modified) ?? null,
      fields: [],
      note,
    };
    if (step.op === "replace") resource.operation = "replace";
    if (!resource.note && note) resource.note = note;
    for (const field of fields)
      if (!resource.fields.some((f) => f.field === field.field)) resource.fields.push(field);
    drifted.set(step.urn, resource);
  }

  const stack = steps.map((s) => stackOfUrn(s.urn)).find((s) => s !== undefined) ?? null;
  // An event stream that ends before the engine's summary is a preview that did not finish (killed, or cut
  // off): it read only part of the stack, so neither "no drift" nor a list of drift would be true.
  const unfinished = preview.form === "events" && preview.result === undefined;
  const reason =
    failureReason(diagnostics, input.runProgram === true) ??
    (unfinished
      ? "the preview's event stream ended before its summary: the preview did not finish, so not every resource was compared"
      : undefined);
  const changes = [...drifted.values()];
  const failed =
    reason !== undefined || preview.result === "failed" || (input.exitCode !== 0 && changes.length === 0);
  const status: DriftStatus = failed ? "failed" : changes.length > 0 ? "drift" : "clean";
  return {
    schemaVersion: DRIFT_REPORT_VERSION,
    status,
    exitCode: DRIFT_EXIT_CODES[status],
    stack,
    checkedAt: input.checkedAt.toISOString(),
    reason: failed
      ? bounded(
          reason ??
            (input.lastError
              ? oneLine(input.lastError.replace(/^error: /, ""))
              : `\`pulumi preview\` exited ${input.exitCode}`),
        )
      : null,
    resourcesChecked: refreshes.size,
    drifted: failed ? [] : changes,
  };
}

/** The report of a check that could not run at all (the CLI printed no events, or could not be started). */
export function failedDriftReport(reason: string, checkedAt: Date, stack?: string): DriftReport {
  return {
    schemaVersion: DRIFT_REPORT_VERSION,
    status: "failed",
    exitCode: DRIFT_EXIT_CODES.failed,
    stack: stack ?? null,
    checkedAt: checkedAt.toISOString(),
    reason: bounded(oneLine(reason)),
    resourcesChecked: 0,
    drifted: [],
  };
}
