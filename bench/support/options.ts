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
  /** `--sizes`: the N of figure 7's vault-only runs; `undefined` leaves the figure's default. */
  sizes?: number[];
  /** `--address-sizes`: the N of figure 7's runs with an address per vault; `undefined`: the default. */
  addressSizes?: number[];
}

/** The help text, printed with `--help` and after a bad option. */
export const USAGE = `usage: node dist/bench/run.js [--only <figure>[,<figure>...]] [--quick] [--markdown | --no-markdown] [--render]
                         [--sizes <n>[,<n>...]] [--address-sizes <n>[,<n>...]]
  --only      run only these figures (id or number; repeatable or comma-separated)
  --quick     smaller N and fewer samples, for a fast smoke run
  --sizes     figure 7 (rate-limit): the N of its vault-only runs (default 100,1000; the full set is
              100,1000,5000, several hours under the rate limit)
  --address-sizes
              figure 7: the N of its runs with an address per vault (default 100; the full set is 100,1000)
  --markdown  render BENCHMARKS.md even for a partial or quick run (default: only for a full run); with --only,
              the figures that did not run keep their previous results (bench/results/latest.json)
  --render    re-render BENCHMARKS.md from bench/results/latest.json (with the figures' current prose), measure nothing`;

/** Parses `argv` (without node and the script); throws with the usage on anything unknown. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  const only: string[] = [];
  let quick = false;
  let renderOnly = false;
  let markdown: boolean | undefined;
  let sizes: number[] | undefined;
  let addressSizes: number[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--sizes" || arg === "--address-sizes") {
      const list = sizeList(arg, argv[++i]);
      if (arg === "--sizes") sizes = list;
      else addressSizes = list;
    } else if (arg === "--quick") quick = true;
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
  return {
    only,
    quick,
    renderOnly,
    markdown: markdown ?? (only.length === 0 && !quick),
    ...(sizes ? { sizes } : {}),
    ...(addressSizes ? { addressSizes } : {}),
  };
}

/** `100,1000`: positive integers, comma-separated. */
function sizeList(option: string, value: string | undefined): number[] {
  const list = (value ?? "").split(",").filter((v) => v.length > 0);
  if (list.length === 0 || !list.every((v) => /^[1-9]\d*$/.test(v))) {
    throw new Error(
      `${option} needs positive integers separated by commas, got ${JSON.stringify(value)}\n${USAGE}`,
    );
  }
  return list.map(Number);
}
