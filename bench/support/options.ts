/** Command-line options of `bench/run.ts`. */

/** Parsed options. */
export interface BenchOptions {
  /** Figure ids or numbers to run; empty means all. */
  only: string[];
  /** Smaller N and fewer samples. */
  quick: boolean;
  /** Re-render `BENCHMARKS.md` from `bench/results/latest.json` without measuring. */
  renderOnly: boolean;
  /**
   * Whether to render `BENCHMARKS.md`. Defaults to full runs only (all figures, not quick), so that a smoke
   * run never replaces the committed numbers.
   */
  markdown: boolean;
}

/** The help text, printed with `--help` and after a bad option. */
export const USAGE = `usage: node dist/bench/run.js [--only <figure>[,<figure>...]] [--quick] [--markdown | --no-markdown] [--render]
  --only      run only these figures (id or number; repeatable or comma-separated)
  --quick     smaller N and fewer samples, for a fast smoke run
  --markdown  render BENCHMARKS.md even for a partial or quick run (default: only for a full run); with --only,
              the figures that did not run keep their previous results (bench/results/latest.json)
  --render    re-render BENCHMARKS.md from bench/results/latest.json (with the figures' current prose), measure nothing`;

/** Parses `argv` (without node and the script); throws with the usage on anything unknown. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  const only: string[] = [];
  let quick = false;
  let renderOnly = false;
  let markdown: boolean | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--quick") quick = true;
    else if (arg === "--render") renderOnly = true;
    else if (arg === "--markdown") markdown = true;
    else if (arg === "--no-markdown") markdown = false;
    else if (arg === "--only" || arg.startsWith("--only=")) {
      const value = arg === "--only" ? argv[++i] : arg.slice("--only=".length);
      if (!value) throw new Error(`--only needs a figure id or number\n${USAGE}`);
      only.push(...value.split(",").filter((v) => v.length > 0));
    } else if (arg === "--help" || arg === "-h") throw new Error(USAGE);
    else throw new Error(`unknown option ${JSON.stringify(arg)}\n${USAGE}`);
  }
  return { only, quick, renderOnly, markdown: markdown ?? (only.length === 0 && !quick) };
}
