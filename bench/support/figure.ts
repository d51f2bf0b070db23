/** What every module under `bench/figures/` exports. */
import type { FigureMerger, FigureResult } from "./results";

/** Settings shared by all figures of a run. */
export interface FigureContext {
  /** `--quick`: smaller N and fewer samples, for a fast smoke run. Numbers are indicative only. */
  quick: boolean;
  /** Progress line on stderr, prefixed with the figure id. */
  log: (message: string) => void;
  /** `--sizes`: the N a figure that takes them measures (figure 7); `undefined`: its default. */
  sizes?: number[];
  /** `--address-sizes`: figure 7's N with an address per vault; `undefined`: its default. */
  addressSizes?: number[];
  /** `--stacks`: figure 9's cases, K stacks × n vaults each; `undefined`: its default. */
  stackCases?: Array<{ stacks: number; perStack: number }>;
}

/** The result a figure returns; the runner adds the id, number, title and duration. */
export type FigureOutcome = Omit<
  FigureResult,
  "id" | "number" | "title" | "method" | "analysis" | "durationS" | "loadAverage"
>;

/** One benchmark figure. */
export interface Figure {
  /** Stable id for `--only`, e.g. `engine`. */
  id: string;
  /** Figure number as in the issue. */
  number: number;
  /** Heading. */
  title: string;
  /** How ours and the floors are measured, in Markdown paragraphs (rendered above the numbers). */
  method: string[];
  /**
   * Causes and fixes found by profiling when a target is missed, in Markdown paragraphs (rendered below this
   * run's own findings). Written by hand from measurements; the figure's notes carry this run's numbers.
   */
  analysis?: string[];
  /** Runs the figure; throws if it cannot (the runner records the error and goes on). */
  run: (context: FigureContext) => Promise<FigureOutcome>;
  /**
   * For a figure whose run may measure part of its set: how a partial run (`--only`) combines with the figure's
   * previous result. Without it the new result replaces the previous one.
   */
  mergePrevious?: FigureMerger;
}
