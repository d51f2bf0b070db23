/**
 * The review report of a custody change: what `pulumi preview --json` plans for the custody resources, as
 * Markdown for a pull-request comment. Three layers, each its own module: the engine's output read into a
 * preview (./preview-input.ts, into the model of ./preview.ts), what it plans sorted for a reviewer
 * (./classify.ts), and the Markdown (./render.ts). A preview that did not run to its end (an unknown stack, a
 * policy pack that failed to load) is said first, with its reason, and the report then claims nothing it does
 * not know: no "no changes", nothing about policy results.
 */
import { classifyPreview, type ReviewOptions, shownReason } from "./classify";
import type { PreviewJson } from "./preview";
import { renderReview, renderStopped } from "./render";

export type { ReviewOptions } from "./classify";
export type {
  PolicyViolation,
  PreviewDiagnostic,
  PreviewJson,
  PreviewPolicy,
  PreviewState,
  PreviewStep,
} from "./preview";

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

/** The review of a preview: the Markdown and what it found. */
export function reviewPreview(preview: PreviewJson, options: ReviewOptions = {}): Review {
  const found = classifyPreview(preview, options);
  // A preview that did not run to its end: its reason replaces the verdict, and nothing is claimed about
  // changes it never planned or policy results that never came.
  if (found.stop) {
    const { quoted: _quoted, ...stopped } = found.stop;
    return {
      markdown: renderStopped(found.stop, found),
      // A mandatory violation that arrived still stops the change.
      cannotApply: found.stop.kind === "not-finished" && found.mandatory > 0,
      policyMissing: false,
      stopped,
    };
  }
  return { markdown: renderReview(found), cannotApply: found.failed, policyMissing: found.policyMissing };
}

/**
 * The review of a preview that could not be read or run at all (`custody review` could not start the CLI, or
 * could not read what it printed): the reason first, and no claim about changes or policy results.
 */
export function stoppedReview(kind: "not-run" | "unreadable", reason: string): Review {
  const stopped = { kind, reason: shownReason(reason) };
  return {
    markdown: renderStopped({ ...stopped, quoted: true }),
    cannotApply: false,
    policyMissing: false,
    stopped,
  };
}

/** The Markdown review of a preview's custody changes (see {@link reviewPreview} for what it found). */
export function reviewReport(preview: PreviewJson, options: ReviewOptions = {}): string {
  return reviewPreview(preview, options).markdown;
}
