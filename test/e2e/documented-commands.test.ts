// Every shell command of the shipped docs runs here, as a user runs it: the packages installed from their
// release tarballs (`npm install <package>` maps this repository's packages to them; everything else comes
// from the registry), the Pulumi CLI of scripts/install-pulumi.sh on PATH, HOME a new directory (so that
// `pulumi login --local` and `~/.custody-emulator.json` stay inside it), and the emulator wherever a command
// needs the service. Only loopback addresses are used: a doc's remote base URL is replaced by the emulator's.
//
// BLOCKS has one entry per shell block (its key is `<document>#<n>`, the n-th shell block of the document):
// the substitutions it needs and which of its lines start a long-running process ("in a second terminal").
// SESSIONS run the blocks in order, each session one bash script in one working directory (a fresh copy of the
// example the block belongs to, or a scratch project), with set-up steps between them that say why. A block
// that cannot run says why in NOT_RUN. A doc block without an entry fails the first test; so does a block
// whose executed text differs from the doc's by more than its declared substitutions.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import {
  type BlockRun,
  executedText,
  PRELUDE,
  pointAtTarballs,
  restoredText,
  type ShellBlock,
  shellBlocks,
  writeNpmWrappers,
} from "../support/documented-commands";
import { enginePaths, repoPath } from "../support/pulumi-engine";
import {
  type InstalledProject,
  installedProject,
  type ReleaseArtifacts,
  releaseArtifacts,
  userPath,
  WORKSPACES,
} from "../support/release";

/** The emulator's JSON line gives the token: the doc's placeholders for it. */
const ACCESS_TOKEN: readonly [string, string] = [
  "<accessToken from the emulator's line>",
  '"$EMULATOR_ACCESS_TOKEN"',
];
const ACCESS_TOKEN_SHORT: readonly [string, string] = ["<accessToken>", '"$EMULATOR_ACCESS_TOKEN"'];
/** The port 8787 of the docs: a free one. */
const PORT: readonly [string, string] = ["8787", "$FREE_PORT"];
/**
 * The local backend: `--local` is `file://~`, and the engine takes `~` from the account's passwd entry, not from
 * $HOME; the session's HOME instead, so that no state lands outside it.
 */
const LOGIN: readonly [string, string] = ["pulumi login --local", 'pulumi login "file://$HOME"'];
/** A remote custody service of the docs: the emulator (never a non-loopback address). */
const REMOTE: readonly [string, string] = ["https://api.example-custody.com", "$EMULATOR_BASE_URL"];
/** The emulator started in a second terminal. */
const EMULATOR_LINE = ["npx @pulumi-custody/emulator --port"];

/** How each shell block of the shipped docs runs. */
const BLOCKS: Record<string, BlockRun> = {
  "README.md#1": { substitute: [REMOTE] },
  "README.md#2": {},
  "sdk/README.md#0": {},
  "emulator/README.md#0": { substitute: [PORT], background: ["npx custody-emulator --port"] },
  "emulator/README.md#1": {
    // The default port (8787) is taken by the one above in the user's story; here a free one.
    substitute: [
      [
        "npx custody-emulator --credentials-file",
        "npx custody-emulator --port $FREE_PORT_2 --credentials-file",
      ],
    ],
    background: ["npx custody-emulator --port"],
  },
  "emulator/README.md#2": {
    substitute: [["--state-file state.json", "--port $FREE_PORT_3 --state-file state.json"]],
    background: ["npx custody-emulator --port"],
  },
  "provider/README.md#0": {},
  "policy/README.md#0": {},
  "plugin/README.md#0": {},
  "docs/installation-configuration.md#0": {},
  "docs/installation-configuration.md#1": { substitute: [REMOTE, ACCESS_TOKEN_SHORT] },
  "plugin/README.md#1": { substitute: [["<vault id>", '"$(__vault_id "Treasury ETH")"']] },
  "cli/README.md#0": {},
  "cli/README.md#1": {},
  "cli/README.md#2": {},
  "docs/policy.md#0": {},
  "docs/policy.md#1": {},
  "docs/provider.md#0": {},
  "docs/provider.md#3": {},
  "docs/provider.md#4": {},
  "docs/provider.md#5": {},
  "docs/provider.md#1": {
    substitute: [["https://custody.example.com", "$EMULATOR_BASE_URL"]],
  },
  "cli/README.md#3": {},
  "docs/scaling.md#0": {
    // The stacks a pipeline passes on the command line; the script's own `exit` would end the session's.
    substitute: [
      ['stacks=("$@")', "stacks=(prod)"],
      ['exit "$status"', '(exit "$status")'],
    ],
  },
  "examples/README.md#0": {
    // The state goes to the scratch directory, not into the checkout (a developer's own stack "dev" may be there).
    substitute: [
      PORT,
      ACCESS_TOKEN_SHORT,
      ["file://$PWD/.pulumi-state", "file://$SCRATCH/.pulumi-state"],
      ["mkdir -p .pulumi-state", 'mkdir -p "$SCRATCH/.pulumi-state"'],
    ],
    background: ["npx custody-emulator --port"],
  },
  "examples/adopt-existing/README.md#0": {
    substitute: [PORT, LOGIN, ACCESS_TOKEN_SHORT],
    background: EMULATOR_LINE,
  },
  "examples/gitops/README.md#0": {},
  "examples/gitops/README.md#1": {
    // A bucket of a cloud: a local directory instead; the passphrase the doc leaves to the user.
    substitute: [
      ["s3://my-bucket/custody-state", "file://$SCRATCH/custody-state"],
      ["PULUMI_CONFIG_PASSPHRASE=...", "PULUMI_CONFIG_PASSPHRASE=documented-commands"],
    ],
  },
  "examples/python-quickstart/README.md#0": {
    substitute: [PORT, LOGIN, ACCESS_TOKEN],
    background: EMULATOR_LINE,
  },
  "examples/quickstart/README.md#0": { substitute: [PORT, LOGIN, ACCESS_TOKEN], background: EMULATOR_LINE },
  "examples/quickstart/README.md#1": { substitute: [REMOTE] },
  "examples/treasury-layout/README.md#0": {
    substitute: [PORT, LOGIN, ACCESS_TOKEN_SHORT],
    background: EMULATOR_LINE,
  },
  "examples/treasury-layout/README.md#1": {
    substitute: [PORT, ["<controlToken>", "$EMULATOR_CONTROL_TOKEN"]],
  },
  "examples/yaml-vaults/README.md#0": { substitute: [PORT, LOGIN, ACCESS_TOKEN], background: EMULATOR_LINE },
};

/** Blocks that do not run here, each with the reason in one line. */
const NOT_RUN: Record<string, string> = {
  "README.md#0":
    "`npm run demo` and `npm test` are CI's entry point: .ci/run runs both (asserted below); running them here would run this suite inside itself",
  "docs/provider.md#2":
    "needs an `up` killed while creating vaults: test/e2e/interrupted-up.test.ts makes one and runs `pulumi cancel --yes`, `custody recover` and `pulumi up`",
};

/** A step of a session: a doc block, or a set-up (or check) step of the runner, with why it is there. */
type Step = { doc: string } | { setup: string; why: string };

/** A sequence of blocks run as one script in one working directory. */
interface Session {
  name: string;
  /** The working directory: a copy of an example (its package.json pointed at the tarballs), the checkout, or new. */
  workDir: { example: string } | "checkout" | "scratch";
  /** Whether the plugin archive is put into the working directory (the user downloaded it there). */
  pluginArchive?: boolean;
  steps: Step[];
}

const SESSIONS: Session[] = [
  {
    name: "quickstart, then the README's own project: remote config, installs, policy, review, drift",
    workDir: { example: "quickstart" },
    steps: [
      { doc: "examples/quickstart/README.md#0" },
      {
        setup:
          'test "$(pulumi stack output treasuryVaultId)" = "$(__vault_id "Quickstart Treasury")" && test "$(pulumi stack output treasuryAddress)" = "$(__vault_field "Quickstart Treasury" address)" && pulumi stack output depositAddress | grep -q "^tb1" && __vault_id "Quickstart Bitcoin" >/dev/null && pulumi preview --expect-no-changes --non-interactive >/dev/null',
        why: "up made both vaults and the deposit address, and a second preview has nothing to do",
      },
      {
        setup: 'export ACCESS_TOKEN="$EMULATOR_ACCESS_TOKEN"',
        why: "the doc's $ACCESS_TOKEN: the user's token",
      },
      { doc: "examples/quickstart/README.md#1" },
      { doc: "README.md#1" },
      { doc: "README.md#2" },
      { doc: "sdk/README.md#0" },
      { doc: "provider/README.md#0" },
      { doc: "cli/README.md#0" },
      {
        setup: `mkdir -p policy && echo '{"custody-vault-in-vault-group":"disabled","custody-vault-protected":"disabled","custody-vault-allowed-types":{"allowedTypes":["evm","utxo"]}}' > policy/dev.json`,
        why: "policy/README.md's policy/dev.json: the stack's settings (the quickstart has no groups and no protect)",
      },
      { doc: "policy/README.md#0" },
      {
        setup:
          "pulumi stack rename production && cp policy/dev.json policy/production.json && rm -f review.md",
        why: "docs/policy.md's stack is `production`, with policy/production.json",
      },
      { doc: "docs/policy.md#0" },
      { doc: "docs/policy.md#1" },
      { setup: "grep -q 'no violations' review.md", why: "the review ran the pack" },
      {
        setup: "pulumi stack rename prod && cp policy/production.json policy/prod.json && rm review.md",
        why: "docs/provider.md's GitOps flow names the stack `prod`, with policy/prod.json",
      },
      { doc: "docs/provider.md#3" },
      { setup: "grep -q 'no violations' review.md", why: "the review ran the pack" },
      { doc: "docs/provider.md#4" },
      { setup: `grep -q '"status": *"clean"' drift.json`, why: "no drift" },
      { doc: "docs/provider.md#5" },
      { doc: "cli/README.md#1" },
      {
        setup: `grep -q '"status": *"clean"' drift.json && ! grep -q '"accept"' drift.json && grep -q 'No drift' drift.md`,
        why: "docs/provider.md's and cli/README.md's accept: no drift, so nothing to accept",
      },
      { doc: "docs/scaling.md#0" },
      { setup: "grep -q 'Resources:' up-prod.log", why: "the script applied the stack" },
    ],
  },
  {
    name: "adopt-existing",
    workDir: { example: "adopt-existing" },
    steps: [
      { doc: "examples/adopt-existing/README.md#0" },
      {
        setup: `for name in "Treasury ETH" "Solana Operations" "BTC Cold Storage"; do test "$(__vaults_named "$name")" = 1 && test "$(__vault_field "$name" state)" = active || exit 1; done && test "$(pulumi stack output vaultIds --json | node -p 'const v = JSON.parse(require("fs").readFileSync(0, "utf8")); [v.treasury, v.operations, v.coldStorage].join(" ")')" = "$(__vault_id "Treasury ETH") $(__vault_id "Solana Operations") $(__vault_id "BTC Cold Storage")" && pulumi stack output --json | __outputs_hold 'Object.values(o.acquisitions).join() === "restored,restored,restored"'`,
        why: "the README: the same three seeded vaults came back, active, and no vault was created",
      },
    ],
  },
  {
    name: "treasury-layout",
    workDir: { example: "treasury-layout" },
    steps: [
      { doc: "examples/treasury-layout/README.md#0" },
      {
        setup: `pulumi stack output --json | __outputs_hold 'Object.keys(o.vaultIds).length === 8 && Object.keys(o.addresses).length === 3 && JSON.stringify([...o.awaitingApproval].sort()) === JSON.stringify(["Layout Bitcoin Cold Storage", "Layout Ethereum Market Making", "Layout Ethereum Payroll", "Layout Solana Staking"])' && test "$(__pending_count)" = 4`,
        why: "the README: eight vaults, three addresses, and four vaults await a proposal's approval",
      },
      { doc: "examples/treasury-layout/README.md#1" },
      {
        setup: `pulumi stack output --json | __outputs_hold 'o.awaitingApproval.length === 0' && test "$(__pending_count)" = 0 && pulumi preview --refresh --expect-no-changes --non-interactive >/dev/null`,
        why: "the README: once approved, nothing waits and the stack has converged",
      },
    ],
  },
  {
    name: "yaml-vaults, then custody import into YAML and TypeScript projects",
    workDir: { example: "yaml-vaults" },
    pluginArchive: true,
    steps: [
      { doc: "plugin/README.md#0" },
      { doc: "docs/installation-configuration.md#0" },
      { doc: "examples/yaml-vaults/README.md#0" },
      { setup: 'test "$(pulumi stack output bitcoinState)" = active', why: "up made the vaults" },
      { doc: "docs/installation-configuration.md#1" },
      {
        setup: 'test "$(pulumi config get custody:baseUrl)" = "$EMULATOR_BASE_URL" && pulumi preview',
        why: "the registry docs' configuration is the stack's, and the provider takes it",
      },
      {
        setup:
          '__create_vault "ops-payments" evm && __create_vault "ops-sol" solana && mkdir imports && cd imports && npm init -y >/dev/null && npm install --save-dev @pulumi-custody/cli >/dev/null && mkdir yaml1 && cd yaml1 && printf "name: ops1\\nruntime: yaml\\n" > Pulumi.yaml && pulumi stack init ops1 && pulumi config set custody:baseUrl "$EMULATOR_BASE_URL" && pulumi config set --secret custody:accessToken "$EMULATOR_ACCESS_TOKEN"',
        why: "cli/README.md: vaults named ops-… to import, in the project of a stack configured for the emulator",
      },
      { doc: "cli/README.md#2" },
      { setup: "grep -q ops-payments Main.yaml", why: "the program declares them" },
      {
        setup:
          'cd .. && mkdir yaml2 && cd yaml2 && printf "name: ops2\\nruntime: yaml\\n" > Pulumi.yaml && pulumi stack init ops2 && pulumi config set custody:baseUrl "$EMULATOR_BASE_URL" && pulumi config set --secret custody:accessToken "$EMULATOR_ACCESS_TOKEN" && mkdir policy',
        why: "docs/provider.md: the same, in a stack of its own, which keeps its policy config in policy/",
      },
      { doc: "docs/provider.md#0" },
      {
        setup:
          'cd .. && mkdir ts && cd ts && printf "name: ts\\nruntime: nodejs\\n" > Pulumi.yaml && pulumi stack init ts && pulumi config set custody:baseUrl "$EMULATOR_BASE_URL" && pulumi config set --secret custody:accessToken "$EMULATOR_ACCESS_TOKEN"',
        why: "plugin/README.md's import: a TypeScript project's stack",
      },
      { doc: "plugin/README.md#1" },
      { setup: "grep -q ops-payments index.ts", why: "custody import wrote the program" },
      {
        setup:
          '__create_vault "eu-ledger" evm && __create_vault "us-ledger" evm && cd .. && mkdir split1 && cd split1 && printf "name: split1\\nruntime: yaml\\n" > Pulumi.yaml && pulumi stack init split1 && pulumi config set custody:baseUrl "$EMULATOR_BASE_URL" && pulumi config set --secret custody:accessToken "$EMULATOR_ACCESS_TOKEN"',
        why: "cli/README.md's split: vaults of two regions, from a project of its own",
      },
      { doc: "cli/README.md#3" },
      {
        setup: "test -f groups/eu/custody-import.json && test -f groups/us/Pulumi.yaml",
        why: "one project per group",
      },
      {
        setup:
          'cd .. && mkdir split2 && cd split2 && printf "name: split2\\nruntime: yaml\\n" > Pulumi.yaml && pulumi stack init split2 && pulumi config set custody:baseUrl "$EMULATOR_BASE_URL" && pulumi config set --secret custody:accessToken "$EMULATOR_ACCESS_TOKEN" && export CUSTODY_ACCESS_TOKEN="$EMULATOR_ACCESS_TOKEN"',
        why: "docs/provider.md's split, from a project of its own; its $CUSTODY_ACCESS_TOKEN is the user's token",
      },
      { doc: "docs/provider.md#1" },
      { setup: "grep -q eu-ledger Main.yaml", why: "the eu group's program declares its vault" },
    ],
  },
  {
    name: "python-quickstart",
    workDir: { example: "python-quickstart" },
    pluginArchive: true,
    steps: [
      { doc: "plugin/README.md#0" },
      {
        setup: 'export PIP_FIND_LINKS="$RELEASE_DIR"',
        why: "the README: pip takes pulumi_custody from the release's wheel",
      },
      { doc: "examples/python-quickstart/README.md#0" },
      { setup: 'test -n "$(pulumi stack output treasuryVaultId)"', why: "up made the vault" },
    ],
  },
  {
    name: "gitops",
    workDir: { example: "gitops" },
    steps: [
      { doc: "examples/gitops/README.md#0" },
      { setup: 'mkdir -p "$SCRATCH/custody-state"', why: "the bucket of the backend exists" },
      { doc: "examples/gitops/README.md#1" },
      { setup: "pulumi stack ls | grep production", why: "the stack is there" },
    ],
  },
  {
    name: "the emulator's command line",
    workDir: "scratch",
    steps: [
      {
        setup: "npm init -y >/dev/null && npm install --save-dev @pulumi-custody/emulator >/dev/null",
        why: "emulator/README.md: installed as a dev dependency",
      },
      { doc: "emulator/README.md#0" },
      {
        setup: 'export BASE_URL="$EMULATOR_BASE_URL" CONTROL_TOKEN="$EMULATOR_CONTROL_TOKEN"',
        why: "the rotation's $BASE_URL and $CONTROL_TOKEN: the emulator's JSON line",
      },
      { doc: "emulator/README.md#1" },
      {
        setup:
          'test "$(stat -c %a ~/.custody-emulator.json)" = 600 && grep -q controlToken ~/.custody-emulator.json',
        why: "the credentials file, mode 0600",
      },
      { doc: "emulator/README.md#2" },
      {
        setup:
          'test -n "$NEW_TOKEN" && test -n "$NEW_VIEWER" && curl -sf -H "authorization: Bearer $NEW_TOKEN" "$EMULATOR_BASE_URL/api/v1/vaults" >/dev/null',
        why: "the restarted emulator takes the new token",
      },
    ],
  },
  {
    name: "in the repository (examples/README.md)",
    workDir: "checkout",
    steps: [
      { doc: "examples/README.md#0" },
      {
        setup: 'test -n "$(bash examples/in-repo.sh quickstart stack output treasuryVaultId)"',
        why: "up ran",
      },
    ],
  },
];

/** The variables of `names` that this process has, with their values. */
function passThrough(names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function which(name: string, pathVar: string): string {
  for (const dir of pathVar.split(path.delimiter)) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`${name} is not on PATH`);
}

/** The packages of this repository another one depends on (they are not on the registry), by npm name. */
function ownDependencies(release: ReleaseArtifacts): Record<string, string[]> {
  const deps: Record<string, string[]> = {};
  for (const workspace of WORKSPACES) {
    const manifest = JSON.parse(fs.readFileSync(repoPath(workspace, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    deps[release.names[workspace]] = Object.keys(manifest.dependencies ?? {}).filter((name) =>
      Object.values(release.names).includes(name),
    );
  }
  return deps;
}

describe("every shell command of the shipped docs runs (release tarballs, real engine, emulator)", () => {
  const blocks = shellBlocks();
  let release: ReleaseArtifacts;
  let project: InstalledProject;
  let engineBin: string;
  let root: string;
  let wrappers: string;
  let tarballs: Record<string, string>;
  let owns: Record<string, string[]>;

  before(async function () {
    this.timeout(40 * 60_000);
    engineBin = (await enginePaths()).binDir;
    release = await releaseArtifacts();
    project = await installedProject();
    root = await fs.promises.mkdtemp(path.join(os.tmpdir(), "documented-commands-"));
    tarballs = Object.fromEntries(WORKSPACES.map((w) => [release.names[w], release.npm[w]]));
    owns = ownDependencies(release);
    wrappers = path.join(root, "bin");
    const machine = userPath(engineBin);
    await writeNpmWrappers(
      wrappers,
      tarballs,
      owns,
      project.nodeModules,
      which("npm", machine),
      which("npx", machine),
    );
  });

  after(async () => {
    if (root) await fs.promises.rm(root, { recursive: true, force: true });
  });

  it("every shell block of the shipped docs has an entry: how it runs, or why it does not", () => {
    const known = new Set([...Object.keys(BLOCKS), ...Object.keys(NOT_RUN)]);
    const missing = [...blocks.keys()].filter((key) => !known.has(key));
    assert.deepEqual(missing, [], "shell blocks without an entry in BLOCKS or NOT_RUN");
    const stale = [...known].filter((key) => !blocks.has(key));
    assert.deepEqual(stale, [], "entries for blocks the docs no longer have");
    for (const key of Object.keys(BLOCKS)) assert.ok(!(key in NOT_RUN), `${key} both runs and does not`);
    for (const [key, why] of Object.entries(NOT_RUN))
      assert.match(why, /^[^\n]{20,}$/, `${key}: say why it does not run, in one line`);
    const inSessions = new Set(
      SESSIONS.flatMap((s) => s.steps.flatMap((step) => ("doc" in step ? [step.doc] : []))),
    );
    assert.deepEqual(
      Object.keys(BLOCKS).filter((key) => !inSessions.has(key)),
      [],
      "blocks with an entry that no session runs",
    );
    for (const session of SESSIONS)
      for (const step of session.steps)
        if ("setup" in step) assert.ok(step.why.length > 0, `${session.name}: a set-up step says why`);
  });

  it("the text run is the doc's, changed only by the declared substitutions, and only loopback addresses", () => {
    for (const [key, run] of Object.entries(BLOCKS)) {
      const block = blocks.get(key) as ShellBlock;
      for (const [from] of run.substitute ?? [])
        assert.ok(
          block.code.includes(from),
          `${key}: the substitution of ${JSON.stringify(from)} matches nothing`,
        );
      const executed = executedText(block, run, { next: 0 });
      assert.equal(restoredText(executed, run), block.code, key);
      for (const url of executed.match(/https?:\/\/[^\s"'/]+/g) ?? [])
        assert.match(url, /^https?:\/\/(127\.0\.0\.1|localhost)(:|$)/, `${key} would reach ${url}`);
      if (run.background)
        assert.ok(
          executed.split("\n").some((line) => line.startsWith("__started_in_background")),
          `${key}: a background line matches`,
        );
    }
  });

  it("README.md's `npm run demo` and `npm test` are what CI's .ci/run runs", () => {
    const ci = fs
      .readFileSync(repoPath(".ci", "run"), "utf8")
      .split("\n")
      .map((line) => line.replace(/^exec /, "").trim());
    const readme = (blocks.get("README.md#0") as ShellBlock).code
      .split("\n")
      .map((line) => line.replace(/#.*/, "").trim())
      .filter(Boolean);
    assert.deepEqual(readme, ["npm run demo", "npm test"]);
    assert.deepEqual(
      ci.filter((line) => readme.includes(line)),
      readme,
    );
  });

  for (const session of SESSIONS) {
    it(`runs: ${session.name}`, async function () {
      this.timeout(30 * 60_000);
      const scratch = await fs.promises.mkdtemp(path.join(root, "session-"));
      const home = path.join(scratch, "home");
      const runnerDir = path.join(scratch, "runner");
      await fs.promises.mkdir(home);
      await fs.promises.mkdir(runnerDir);
      let cwd: string;
      const restore: (() => Promise<void>)[] = [];
      if (session.workDir === "checkout") {
        cwd = repoPath();
        // examples/in-repo.sh writes the stack's config next to the compiled example; keep a developer's own.
        const config = repoPath("dist", "examples", "quickstart", "Pulumi.dev.yaml");
        const kept = fs.existsSync(config) ? await fs.promises.readFile(config) : undefined;
        // ... and installs pulumi-custody there on first use; the build's own tests want dist without it.
        const installed = ["node_modules", "packages", "package.json", "package-lock.json", "Pulumi.yaml"]
          .map((name) => repoPath("dist", "examples", "quickstart", name))
          .filter((file) => !fs.existsSync(file));
        restore.push(async () => {
          if (kept) await fs.promises.writeFile(config, kept);
          else await fs.promises.rm(config, { force: true });
          for (const file of installed) await fs.promises.rm(file, { recursive: true, force: true });
        });
      } else if (session.workDir === "scratch") {
        cwd = path.join(scratch, "project");
        await fs.promises.mkdir(cwd);
      } else {
        cwd = path.join(scratch, session.workDir.example);
        await fs.promises.cp(repoPath("examples", session.workDir.example), cwd, { recursive: true });
        if (fs.existsSync(path.join(cwd, "package.json")))
          await pointAtTarballs(path.join(cwd, "package.json"), tarballs, owns);
      }
      if (session.pluginArchive)
        await fs.promises.copyFile(
          release.pluginArchive,
          path.join(cwd, path.basename(release.pluginArchive)),
        );

      const background = { next: 0 };
      const parts = [PRELUDE];
      for (const step of session.steps) {
        if ("doc" in step) {
          const block = blocks.get(step.doc) as ShellBlock;
          parts.push(`echo "(runner) == ${step.doc} (line ${block.line})" #__runner`);
          parts.push(executedText(block, BLOCKS[step.doc] as BlockRun, background));
        } else {
          parts.push(`echo "(runner) -- ${step.why.replace(/["`$\\]/g, "")}"`);
          parts.push(step.setup);
        }
      }
      const script = path.join(runnerDir, "run.sh");
      await fs.promises.writeFile(script, `${parts.join("\n")}\n`);
      const log = path.join(runnerDir, "log");
      const env: Record<string, string> = {
        PATH: [wrappers, userPath(engineBin)].join(path.delimiter),
        HOME: home,
        // The engine's own home (credentials, plugins) goes by the passwd entry too, unless named.
        PULUMI_HOME: path.join(home, ".pulumi"),
        USER: os.userInfo().username,
        LANG: process.env.LANG ?? "C.UTF-8",
        __W: runnerDir,
        SCRATCH: scratch,
        RELEASE_DIR: release.dir,
        FREE_PORT: String(await freePort()),
        FREE_PORT_2: String(await freePort()),
        FREE_PORT_3: String(await freePort()),
        // The user's answers to the CLI's questions: the passphrase of the local backend's secrets, and "yes".
        PULUMI_CONFIG_PASSPHRASE: "documented-commands",
        PULUMI_SKIP_CONFIRMATIONS: "true",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        // npm's cache stays the machine's: the registry's packages are not fetched again.
        npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), ".npm"),
        // The machine's own settings for reaching the registry (its certificate authorities, its npmrc), which a
        // user's shell has too: without them a Node.js not installed by the machine retries every request.
        ...passThrough(["npm_config_globalconfig", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"]),
        ...(process.env.PIP_CACHE_DIR ? { PIP_CACHE_DIR: process.env.PIP_CACHE_DIR } : {}),
        // A maintainer's trace: every command with the time it started, in $CUSTODY_DOC_TRACE/<session>.log.
        ...(process.env.CUSTODY_DOC_TRACE ? { CUSTODY_DOC_TRACE: process.env.CUSTODY_DOC_TRACE } : {}),
      };
      try {
        const code = await new Promise<number | null>((resolve, reject) => {
          const out = fs.openSync(log, "w");
          const child = spawn("bash", [script], { cwd, env, stdio: ["ignore", out, out], detached: true });
          child.on("error", reject);
          child.on("exit", (exitCode) => {
            fs.closeSync(out);
            resolve(exitCode);
          });
        });
        const output = await fs.promises.readFile(log, "utf8");
        if (process.env.CUSTODY_DOC_TRACE) {
          await fs.promises.mkdir(process.env.CUSTODY_DOC_TRACE, { recursive: true });
          await fs.promises.writeFile(
            path.join(process.env.CUSTODY_DOC_TRACE, `${session.name.replace(/[^\w]+/g, "-")}.log`),
            output,
          );
        }
        assert.equal(
          code,
          0,
          `${session.name}: the script exited ${code}; its output ends:\n${output.slice(-6000)}`,
        );
      } finally {
        for (const undo of restore) await undo();
      }
    });
  }
});
