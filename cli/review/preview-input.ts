/**
 * What `custody review` reads: either form of `pulumi preview --json`.
 *
 * - The digest (one JSON object with `steps` and `diagnostics`), the default. The CLI leaves policy events out
 *   of it, so it never shows a policy violation (docs/policy.md, "The review report").
 * - The event stream (`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi preview --json`, one engine event per
 *   line), which carries the policy violations too. Its steps and diagnostics are read into the digest's shape.
 */
import type { PolicyViolation, PreviewDiagnostic, PreviewJson, PreviewState, PreviewStep } from "./report";

/** A step's state in an engine event (`StepEventStateMetadata`). */
interface EventState {
  urn?: string;
  id?: string;
  type?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The engine events the report reads (`EngineEvent`, one per line of the stream). */
interface EngineEvent {
  resourcePreEvent?: {
    metadata?: {
      op?: string;
      urn?: string;
      old?: EventState | null;
      new?: EventState | null;
      keys?: string[];
    };
  };
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
  return { urn: s.urn, id: s.id || undefined, type: s.type, inputs: s.inputs, outputs: s.outputs };
}

/** Reads the engine event stream into the digest's shape, with the policy violations. */
function fromEvents(events: EngineEvent[]): PreviewJson {
  const steps: PreviewStep[] = [];
  const diagnostics: PreviewDiagnostic[] = [];
  const policyViolations: PolicyViolation[] = [];
  for (const event of events) {
    const meta = event.resourcePreEvent?.metadata;
    if (meta?.op && meta.urn) {
      steps.push({
        op: meta.op,
        urn: meta.urn,
        oldState: state(meta.old),
        newState: state(meta.new),
        ...(meta.keys ? { replaceReasons: meta.keys } : {}),
      });
    }
    const diag = event.diagnosticEvent;
    if (diag && !diag.ephemeral && diag.severity !== "debug") {
      diagnostics.push({
        message: plain(`${diag.prefix ?? ""}${diag.message ?? ""}`),
        severity: diag.severity ?? "info",
        ...(diag.urn ? { urn: diag.urn } : {}),
      });
    }
    const policy = event.policyEvent;
    if (policy) {
      policyViolations.push({
        policyName: policy.policyName ?? "",
        policyPackName: policy.policyPackName ?? "",
        policyPackVersion: policy.policyPackVersion ?? "",
        enforcementLevel: policy.enforcementLevel ?? "",
        message: plain(policy.message),
        ...(policy.resourceUrn ? { urn: policy.resourceUrn } : {}),
      });
    }
  }
  return { steps, diagnostics, policyViolations };
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
  return whole as PreviewJson;
}
