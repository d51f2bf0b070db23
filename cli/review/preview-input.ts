/**
 * What `custody review` and `custody drift` read: either form of `pulumi preview --json`.
 *
 * - The event stream (`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi preview --json`, one engine event per
 *   line; what `custody review -- <args>` and `custody drift` ask for). It carries the policy results: each
 *   violation (`policyEvent`), what each pack judged (`policyAnalyzeSummaryEvent`,
 *   `policyAnalyzeStackSummaryEvent`), that a pack was loaded (`policyLoadEvent`) and which packs ran
 *   (`summaryEvent.PolicyPacks`); and the preview's outcome (`summaryEvent.result`). Its steps and diagnostics
 *   are read into the digest's shape.
 * - The digest (one JSON object with `steps` and `diagnostics`), the default of `pulumi preview --json`. The
 *   CLI leaves every policy event out of it, so it cannot tell whether a policy pack ran or what it found.
 *
 * Both CLI versions the project tests (3.248.0 and 3.274.1) print the same shapes.
 */
import {
  type PolicyViolation,
  type PreviewDiagnostic,
  type PreviewJson,
  type PreviewPolicy,
  type PreviewState,
  type PreviewStep,
  policyPackLabel,
} from "./preview";

/** A step's state in an engine event (`StepEventStateMetadata`). */
interface EventState {
  urn?: string;
  id?: string;
  type?: string;
  protect?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** A step in an engine event (`StepEventMetadata`). */
interface EventStep {
  op?: string;
  urn?: string;
  old?: EventState | null;
  new?: EventState | null;
  keys?: string[];
}

/** The engine events the reports read (`EngineEvent`, one per line of the stream). */
interface EngineEvent {
  resourcePreEvent?: { metadata?: EventStep };
  resOutputsEvent?: { metadata?: EventStep };
  diagnosticEvent?: {
    urn?: string;
    prefix?: string;
    message?: string;
    severity?: string;
    ephemeral?: boolean;
  };
  policyEvent?: {
    resourceUrn?: string;
    message?: string;
    policyName?: string;
    policyPackName?: string;
    policyPackVersion?: string;
    enforcementLevel?: string;
  };
  policyLoadEvent?: object;
  policyAnalyzeSummaryEvent?: { policyPackName?: string; policyPackVersion?: string };
  policyAnalyzeStackSummaryEvent?: { policyPackName?: string; policyPackVersion?: string };
  summaryEvent?: { result?: string; PolicyPacks?: Record<string, string> };
}

/** Why the text is not `pulumi preview --json` output. */
export class PreviewInputError extends Error {}

/** The engine's colour directives (`<{%reset%}>`, `<{%fg 1%}>`), left in the raw messages of events. */
const COLOR_DIRECTIVE = /<\{%[^%]*%\}>/g;

function plain(text: string | undefined): string {
  return (text ?? "").replace(COLOR_DIRECTIVE, "").trim();
}

function state(s: EventState | null | undefined): PreviewState | undefined {
  if (!s) return undefined;
  return {
    urn: s.urn,
    id: s.id || undefined,
    type: s.type,
    ...(s.protect ? { protect: true } : {}),
    inputs: s.inputs,
    outputs: s.outputs,
  };
}

function toStep(meta: EventStep): PreviewStep {
  return {
    op: meta.op as string,
    urn: meta.urn as string,
    oldState: state(meta.old),
    newState: state(meta.new),
    ...(meta.keys ? { replaceReasons: meta.keys } : {}),
  };
}

/** Reads the engine event stream into the digest's shape, with the policy results and the outcome. */
function fromEvents(events: EngineEvent[]): PreviewJson {
  const steps: PreviewStep[] = [];
  const diagnostics: PreviewDiagnostic[] = [];
  const policyViolations: PolicyViolation[] = [];
  const policy: PreviewPolicy = { loaded: false, analyzed: false, packs: [] };
  const addPack = (label: string | undefined) => {
    if (label && !policy.packs.includes(label)) policy.packs.push(label);
  };
  let result: string | undefined;
  for (const event of events) {
    const pre = event.resourcePreEvent?.metadata;
    // A refresh's pre-event shows the state before the read; its outputs event holds what was read.
    if (pre?.op && pre.urn && pre.op !== "refresh") steps.push(toStep(pre));
    const outputs = event.resOutputsEvent?.metadata;
    if (outputs?.op === "refresh" && outputs.urn) steps.push(toStep(outputs));
    const diag = event.diagnosticEvent;
    if (diag && !diag.ephemeral && diag.severity !== "debug") {
      diagnostics.push({
        message: plain(`${diag.prefix ?? ""}${diag.message ?? ""}`),
        severity: diag.severity ?? "info",
        ...(diag.urn ? { urn: diag.urn } : {}),
      });
    }
    const violation = event.policyEvent;
    if (violation) {
      policy.analyzed = true;
      addPack(policyPackLabel(violation.policyPackName, violation.policyPackVersion));
      policyViolations.push({
        policyName: violation.policyName ?? "",
        policyPackName: violation.policyPackName ?? "",
        policyPackVersion: violation.policyPackVersion ?? "",
        enforcementLevel: violation.enforcementLevel ?? "",
        message: plain(violation.message),
        ...(violation.resourceUrn ? { urn: violation.resourceUrn } : {}),
      });
    }
    if (event.policyLoadEvent) policy.loaded = true;
    const judged = event.policyAnalyzeSummaryEvent ?? event.policyAnalyzeStackSummaryEvent;
    if (judged) {
      policy.analyzed = true;
      addPack(policyPackLabel(judged.policyPackName, judged.policyPackVersion));
    }
    if (event.summaryEvent) {
      result = event.summaryEvent.result;
      // Keys are `<name>|<kind>|<location>`, values the version.
      for (const [key, version] of Object.entries(event.summaryEvent.PolicyPacks ?? {})) {
        policy.loaded = true;
        addPack(policyPackLabel(key.split("|")[0], version));
      }
    }
  }
  return {
    steps,
    diagnostics,
    policyViolations,
    form: "events",
    policy,
    ...(result ? { result } : {}),
  };
}

/**
 * Parses `pulumi preview --json` output, digest or event stream.
 * @throws PreviewInputError naming what is wrong (and the line, for a stream).
 */
export function parsePreview(text: string): PreviewJson {
  const trimmed = text.trim();
  let whole: unknown;
  try {
    whole = JSON.parse(trimmed);
  } catch (err) {
    // Not one JSON document: an event stream, one JSON object per line, or not JSON at all.
    const lines = trimmed.split("\n");
    if (lines.length < 2) throw new PreviewInputError((err as Error).message);
    const events: EngineEvent[] = [];
    lines.forEach((line, i) => {
      if (line.trim() === "") return;
      let event: unknown;
      try {
        event = JSON.parse(line);
      } catch (lineErr) {
        throw new PreviewInputError(`line ${i + 1}: ${(lineErr as Error).message}`);
      }
      if (event === null || typeof event !== "object" || Array.isArray(event)) {
        throw new PreviewInputError(`line ${i + 1}: an engine event is a JSON object`);
      }
      events.push(event as EngineEvent);
    });
    return fromEvents(events);
  }
  if (whole === null || typeof whole !== "object" || Array.isArray(whole)) {
    throw new PreviewInputError("the preview is a JSON object with `steps` and `diagnostics`");
  }
  // A stream of a single event is one JSON object too.
  if ("sequence" in whole) return fromEvents([whole as EngineEvent]);
  return { ...(whole as PreviewJson), form: "digest" };
}
