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
  /** `--stacks`: figure 9's cases, K stacks × n vaults each (`4x60`); `undefined` leaves its default. */
  stackCases?: Array<{ stacks: number; perStack: number }>;
}

/** The help text, printed with `--help` and after a bad option. */
export const USAGE = `usage: node dist/bench/run.js [--only <figure>[,<figure>...]] [--quick] [--markdown | --no-markdown] [--render]
                         [--sizes <n>[,<n>...]] [--address-sizes <n>[,<n>...]] [--stacks <k>x<n>[,...]]
  --only      run only these figures (id or number; repeatable or comma-separated)
  --quick     smaller N and fewer samples, for a fast smoke run
  --sizes     figure 7 (rate-limit): the N of its vault-only runs (default 100,1000; the full set is
              100,1000,5000, several hours under the rate limit)
  --address-sizes
              figure 7: the N of its runs with an address per vault (default 100; the full set is 100,1000)
  --stacks    figure 9 (scale-out): its cases, K stacks of n vaults each run at once (default 1x240,4x60,8x30;
              the full set is 1x1000,2x500,4x250,8x125,1x5000,5x1000, hours under the rate limit)
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
  let stackCases: Array<{ stacks: number; perStack: number }> | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--sizes" || arg === "--address-sizes") {
      const list = sizeList(arg, argv[++i]);
      if (arg === "--sizes") sizes = list;
      else addressSizes = list;
    } else if (arg === "--stacks") stackCases = caseList(argv[++i]);
    else if (arg === "--quick") quick = true;
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
    ...(stackCases ? { stackCases } : {}),
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

/** `4x60,8x30`: K stacks × n vaults, both positive integers, comma-separated. */
function caseList(value: string | undefined): Array<{ stacks: number; perStack: number }> {
  const list = (value ?? "").split(",").filter((v) => v.length > 0);
  if (list.length === 0 || !list.every((v) => /^[1-9]\d*x[1-9]\d*$/.test(v))) {
    throw new Error(
      `--stacks needs cases <stacks>x<vaults per stack> separated by commas, e.g. 4x60,8x30, got ${JSON.stringify(value)}\n${USAGE}`,
    );
  }
  return list.map((v) => {
    const [stacks, perStack] = v.split("x").map(Number);
    return { stacks: stacks!, perStack: perStack! };
  });
}
