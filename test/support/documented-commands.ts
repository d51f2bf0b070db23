/**
 * The shell commands of the shipped docs, run as a user runs them (test/e2e/documented-commands.test.ts): each
 * shell block of a README or of docs/*.md becomes part of a bash script whose text is the block's, changed only
 * by declared substitutions (a placeholder such as `<accessToken>`, the port 8787, a remote base URL) and by
 * lines that start a long-running process in the background ("in a second terminal").
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { codeBlocksOf } from "./doc-blocks";
import { repoPath } from "./pulumi-engine";
import { WORKSPACES } from "./release";

/** The languages of a fence that make a block shell commands. */
export const SHELL_LANGUAGES = ["sh", "bash", "shell", "console"];

/** One shell block of a document. */
export interface ShellBlock {
  /** `<document>#<n>`: the n-th shell block (from 0) of the document. */
  key: string;
  /** The document, relative to the repository. */
  document: string;
  /** The line of its opening fence (from 1). */
  line: number;
  /** Its text. */
  code: string;
}

/** The shipped docs: README.md, each package's README, docs/*.md, examples/README.md and each example's. */
export function shippedDocuments(): string[] {
  const examples = fs
    .readdirSync(repoPath("examples"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(repoPath("examples", entry.name, "README.md")))
    .map((entry) => `examples/${entry.name}/README.md`)
    .sort();
  const docs = fs
    .readdirSync(repoPath("docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return [
    "README.md",
    ...WORKSPACES.map((workspace) => `${workspace}/README.md`),
    ...docs,
    "examples/README.md",
    ...examples,
  ];
}

/** Every shell block of the shipped docs, by key. */
export function shellBlocks(): Map<string, ShellBlock> {
  const blocks = new Map<string, ShellBlock>();
  for (const document of shippedDocuments()) {
    const shell = codeBlocksOf(document).filter((block) => SHELL_LANGUAGES.includes(block.language));
    shell.forEach((block, n) => {
      const key = `${document}#${n}`;
      blocks.set(key, { key, document, line: block.line, code: block.code });
    });
  }
  return blocks;
}

/** How one block runs: what it substitutes and which of its lines run in the background. */
export interface BlockRun {
  /** Doc text → executed text, each replaced everywhere in the block; each must occur in the block. */
  substitute?: readonly (readonly [from: string, to: string])[];
  /**
   * Lines (their beginning, after substitution) that start a long-running process, "in a second terminal":
   * they run in the background, and the script waits for the first line of their output (the emulator's JSON
   * line, whose `baseUrl`, `accessToken` and `controlToken` it exports as `EMULATOR_BASE_URL`,
   * `EMULATOR_ACCESS_TOKEN`, `EMULATOR_CONTROL_TOKEN`).
   */
  background?: readonly string[];
}

/** The marker that ends every line the runner adds around a block's lines. */
const RUNNER = "#__runner";

/** The text the runner executes for `block`: its own, with the declared substitutions and background lines. */
export function executedText(block: ShellBlock, run: BlockRun, backgroundIndex: { next: number }): string {
  let code = block.code;
  for (const [from, to] of run.substitute ?? []) code = code.split(from).join(to);
  const out: string[] = [];
  for (const line of code.replace(/\n$/, "").split("\n")) {
    if ((run.background ?? []).some((start) => line.trimStart().startsWith(start))) {
      const n = backgroundIndex.next++;
      out.push(`{ ${RUNNER}`);
      out.push(line);
      out.push(`wait ${RUNNER}`);
      out.push(`} >"$__W/bg-${n}.out" 2>"$__W/bg-${n}.err" & ${RUNNER}`);
      out.push(`__started_in_background ${n} $! ${RUNNER}`);
    } else out.push(line);
  }
  return `${out.join("\n")}\n`;
}

/** The doc's text back from {@link executedText}: without the runner's lines, the substitutions undone. */
export function restoredText(executed: string, run: BlockRun): string {
  let code = executed
    .split("\n")
    .filter((line) => !line.endsWith(RUNNER))
    .join("\n");
  for (const [from, to] of [...(run.substitute ?? [])].reverse()) code = code.split(to).join(from);
  return code;
}

/**
 * The functions every script starts with: `__started_in_background <n> <pid>` waits for the first line of a
 * background process and exports the emulator's fields from it; on exit every background process is stopped.
 */
export const PRELUDE = `set -eo pipefail
set -m
__bg_pids=()
__stop_background() { for p in "\${__bg_pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap __stop_background EXIT
__started_in_background() {
  local n="$1" pid="$2" i
  __bg_pids+=("$pid")
  for i in $(seq 1 600); do
    if [ -s "$__W/bg-$n.out" ] && grep -q '}' "$__W/bg-$n.out"; then break; fi
    if ! kill -0 "$pid" 2>/dev/null; then echo "background process $n exited:" >&2; cat "$__W/bg-$n.err" >&2; return 1; fi
    sleep 0.2
  done
  eval "$(node -e '
    const line = require("fs").readFileSync(process.argv[1], "utf8").split("\\n")[0];
    const info = JSON.parse(line);
    const q = (v) => "\\x27" + String(v).replace(/\\x27/g, "\\x27\\\\\\x27\\x27") + "\\x27";
    for (const [k, name] of [["baseUrl", "BASE_URL"], ["accessToken", "ACCESS_TOKEN"], ["controlToken", "CONTROL_TOKEN"], ["viewerAccessToken", "VIEWER_TOKEN"]])
      if (info[k] !== undefined) console.log("export EMULATOR_" + name + "=" + q(info[k]));
  ' "$__W/bg-$n.out")"
  echo "(runner) background process $n started\${EMULATOR_BASE_URL:+, the emulator at $EMULATOR_BASE_URL}"
}
# The control API's answer to GET path, as JSON, on the running emulator.
__control() { curl -sf -H "x-emulator-control-token: $EMULATOR_CONTROL_TOKEN" "$EMULATOR_BASE_URL/__emulator$1"; }
# The id of the emulator's vault named $1.
__vault_id() { __control /state/vaults | NAME="$1" node -e 'const b = JSON.parse(require("fs").readFileSync(0, "utf8")); const v = b.items.find((x) => x.name === process.env.NAME); if (!v) process.exit(1); process.stdout.write(v.id)'; }
# The field $2 of the emulator's vault named $1, as the API answers it (e.g. address, state).
__vault_field() { curl -sf -H "authorization: Bearer $EMULATOR_ACCESS_TOKEN" "$EMULATOR_BASE_URL/api/v1/vaults/$(__vault_id "$1")" | FIELD="$2" node -e 'const v = JSON.parse(require("fs").readFileSync(0, "utf8")); process.stdout.write(String(v[process.env.FIELD]))'; }
# How many of the emulator's vaults are named $1, in every state.
__vaults_named() { __control /state/vaults | NAME="$1" node -e 'const b = JSON.parse(require("fs").readFileSync(0, "utf8")); process.stdout.write(String(b.items.filter((x) => x.name === process.env.NAME).length))'; }
# How many change proposals are pending.
__pending_count() { __control "/proposals?state=pending" | node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(0, "utf8")).proposals.length))'; }
# Checks the stack's outputs (JSON on stdin) with the JavaScript expression $1 of \`o\`; prints them when it fails.
__outputs_hold() { EXPR="$1" node -e 'const o = JSON.parse(require("fs").readFileSync(0, "utf8")); if (!eval(process.env.EXPR)) { console.error("outputs do not hold " + process.env.EXPR + ": " + JSON.stringify(o)); process.exit(1); }'; }
# Creates a vault through the API: $1 name, $2 type.
__create_vault() { curl -sf -X POST -H "authorization: Bearer $EMULATOR_ACCESS_TOKEN" -H 'content-type: application/json' -d "{\\"name\\":\\"$1\\",\\"type\\":\\"$2\\"}" "$EMULATOR_BASE_URL/api/v1/vaults" >/dev/null; }
`;

/**
 * `npm` and `npx` for the doc commands, in `binDir`: `npm install` of one of this repository's packages takes
 * its release tarball (and those of its own packages it depends on, which are not on the registry); `npx` of
 * `@pulumi-custody/emulator` or `@pulumi-custody/cli` runs its bin in `nodeModules` (an installed project's), and never downloads a
 * package it does not find installed. Everything else goes to the real npm.
 */
export async function writeNpmWrappers(
  binDir: string,
  tarballs: Record<string, string>,
  ownDependencies: Record<string, string[]>,
  nodeModules: string,
  realNpm: string,
  realNpx: string,
): Promise<void> {
  await fs.promises.mkdir(binDir, { recursive: true });
  const cases = Object.entries(tarballs)
    .map(
      ([name, file]) =>
        `    ${JSON.stringify(name)}) args+=(${JSON.stringify(file)}${(ownDependencies[name] ?? [])
          .map((dep) => ` ${JSON.stringify(tarballs[dep])}`)
          .join("")}); ours=1 ;;`,
    )
    .join("\n");
  await fs.promises.writeFile(
    path.join(binDir, "npm"),
    `#!/usr/bin/env bash
# npm for the documented commands: this repository's packages come from their release tarballs.
if [ "$1" = install ] || [ "$1" = i ]; then
  args=(); ours=0
  for a in "$@"; do
    case "$a" in
${cases}
    *) args+=("$a") ;;
    esac
  done
  exec ${JSON.stringify(realNpm)} "\${args[@]}" --no-audit --no-fund --prefer-offline
fi
exec ${JSON.stringify(realNpm)} "$@"
`,
    { mode: 0o755 },
  );
  await fs.promises.writeFile(
    path.join(binDir, "npx"),
    `#!/usr/bin/env bash
# npx for the documented commands: this repository's packages from the release install; no downloads.
case "$1" in
  @pulumi-custody/emulator) shift; exec ${JSON.stringify(path.join(nodeModules, ".bin", "custody-emulator"))} "$@" ;;
  @pulumi-custody/cli) shift; exec ${JSON.stringify(path.join(nodeModules, ".bin", "custody"))} "$@" ;;
esac
npm_config_yes=false exec ${JSON.stringify(realNpx)} "$@"
`,
    { mode: 0o755 },
  );
}

/**
 * Rewrites the dependencies of `packageJson` on this repository's packages to their release tarballs (they are
 * not on the registry), adding the tarballs of those they depend on; returns the names it rewrote.
 */
export async function pointAtTarballs(
  packageJson: string,
  tarballs: Record<string, string>,
  ownDependencies: Record<string, string[]>,
): Promise<string[]> {
  const manifest = JSON.parse(await fs.promises.readFile(packageJson, "utf8")) as Record<
    string,
    Record<string, string> | undefined
  >;
  const rewritten: string[] = [];
  for (const field of ["dependencies", "devDependencies"]) {
    const deps = manifest[field];
    if (!deps) continue;
    for (const name of Object.keys(deps)) {
      const file = tarballs[name];
      if (!file) continue;
      deps[name] = `file:${file}`;
      rewritten.push(name);
      for (const dep of ownDependencies[name] ?? []) {
        const all = { ...manifest.dependencies, ...manifest.devDependencies };
        if (!all[dep]) deps[dep] = `file:${tarballs[dep]}`;
      }
    }
  }
  await fs.promises.writeFile(packageJson, `${JSON.stringify(manifest, null, 2)}\n`);
  return rewritten;
}
