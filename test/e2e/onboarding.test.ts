// Onboarding an existing organization, as a user does it with the delivered product (the release files,
// installed outside the repository; test/support/release.ts): `custody import` reads the organization and
// writes the import file and the program, `pulumi import --file` takes the vaults into the stack, and the
// program, unchanged, has no diff. The organization has a vault of every type, every UTXO chain and every
// black-box key type, addresses, names that are hard to turn into code, archived vaults, a vault whose name no
// program may declare, vaults outside the filter, and vaults another stack manages.
//
// - TypeScript (the generated npm SDK, compiled by `tsc` under `strict`), Python (the wheel, in a virtualenv)
//   and YAML (the upstream YAML host), each into a stack of its own: the same filter, the same vaults.
// - The current stack's vaults are left out the next time; a narrower filter takes only what it names.
// - The dynamic provider: the program adopts every vault, its first `up` sends no write to the service.
// - Each route ends with `custody review` and the policy pack, under the team's policy config (UTXO vaults on
//   testnets only) to which the import added the names it adopts: the only violations are the organization's
//   own (its mainnet UTXO vaults), none caused by the import (vault groups undeclared, its own adoptions). A
//   vault in two groups (one by an approved proposal) with a third proposed declares the two.
// - 1,000 vaults on an emulator with its default settings, in YAML: a clean preview, with the time it took.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import type { Vault } from "@pulumi-custody/sdk";
import { BlackBoxKeyType, UTXO_CHAIN_IDS, VAULT_TYPES } from "@pulumi-custody/sdk/schema";
import {
  apiAddresses,
  configureForEmulator,
  pulumiCli,
  startTestEmulator,
  stateResources,
  type TestEmulator,
} from "../support/e2e-custody";
import { GO_PROGRAM_ENV, goModWithSdk, goSdkFromRelease } from "../support/go-program";
import { createLocalStack, disposeLocalStack, enginePaths } from "../support/pulumi-engine";
import {
  type InstalledProject,
  installedProject,
  installPluginFromArchive,
  userPath,
  virtualenvWithWheel,
} from "../support/release";

const execFileAsync = promisify(execFile);

const VAULT = "custody:index:Vault";
const ADDRESS = "custody:index:VaultAddress";
const DYNAMIC_VAULT = "pulumi-nodejs:dynamic/custody:Vault";
const DYNAMIC_ADDRESS = "pulumi-nodejs:dynamic/custody:VaultAddress";

/** The filter every language's import uses: everything but the vaults named `skip …`. */
const FILTER = ["--name-pattern", "^(?!skip )", "--with-addresses"];

/** The team's rule in the policy config every route is reviewed under: UTXO vaults on testnets only. */
const TESTNETS = UTXO_CHAIN_IDS.filter((chain) => !chain.endsWith("_mainnet"));

/** A `custody import-file` file. */
interface ImportFile {
  resources: { type: string; name: string; id: string }[];
}

describe("onboarding an existing organization: custody import, pulumi import --file, no diff (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let project: InstalledProject;
  let engineBin: string;
  let tempRoot: string;
  /** The backend every stack of this suite shares, so that one can name another (`--exclude-stack`). */
  let backendDir: string;
  let otherStack: Stack;
  /** The fully qualified name of the other stack. */
  let otherRef: string;
  /** Vaults the filter takes (active, not `skip …`, not the other stack's, declarable), by id. */
  const expected = new Map<string, Vault>();
  /** Their addresses, as import ids `<vault id>/<address id>`. */
  const expectedAddresses = new Set<string>();
  const made = new Map<string, Vault>();
  const stacks: Stack[] = [];
  /** The approved vault groups of the vault `onb grouped` (a third one is only proposed). */
  let groupedIn: string[];

  /** A stack of the project in `dir` on the shared backend, with the plugin installed, configured for the emulator. */
  async function newStack(dir: string, name: string): Promise<Stack> {
    const stack = await createLocalStack({
      projectDir: dir,
      stackName: name,
      envVars: { PATH: userPath(engineBin), PULUMI_BACKEND_URL: `file://${backendDir}` },
    });
    stacks.push(stack);
    await installPluginFromArchive(stack);
    await configureForEmulator(stack, emulator);
    return stack;
  }

  /** Runs the installed `custody` in the stack's work directory, with the stack's environment. */
  async function custody(stack: Stack, args: string[]): Promise<{ stdout: string; stderr: string }> {
    const ws = stack.workspace;
    return execFileAsync(project.bin("custody"), args, {
      cwd: ws.workDir,
      env: { ...process.env, ...(ws.pulumiHome ? { PULUMI_HOME: ws.pulumiHome } : {}), ...ws.envVars },
      maxBuffer: 64 * 1024 * 1024,
    });
  }

  before(async function () {
    this.timeout(40 * 60_000);
    engineBin = (await enginePaths()).binDir;
    await fs.promises.access(path.join(engineBin, "pulumi-language-yaml"), fs.constants.X_OK).catch(() => {
      throw new Error(`${engineBin} has no pulumi-language-yaml: run scripts/install-pulumi.sh`);
    });
    project = await installedProject();
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "onboarding-e2e-"));
    backendDir = path.join(tempRoot, "backend");
    await fs.promises.mkdir(backendDir);
    emulator = await startTestEmulator({ requestLogSize: 20_000 });
    const client = emulator.client;

    // Beside the default seed's vault of every type: every UTXO chain, every black-box key type, names that
    // are hard to turn into code, namesakes, and an archived vault.
    const create = async (key: string, body: Parameters<typeof client.vaults.create>[0]) =>
      made.set(key, await client.vaults.create(body));
    for (const chain of UTXO_CHAIN_IDS) await create(chain, { name: `onb ${chain}`, type: "utxo", chain });
    for (const keyType of BlackBoxKeyType.options)
      await create(keyType, { name: `onb ${keyType}`, type: "black_box", key_type: keyType });
    for (const name of [
      "Custody",
      "delete",
      "class",
      "1st Vault",
      "Ops Treasury",
      "ops treasury!",
      "Café Réserve",
    ])
      await create(name, { name, type: "evm" });
    await create("long", { name: `onb ${"x".repeat(300)}`, type: "evm" });
    await create("skip1", { name: "skip me 1", type: "evm" });
    await create("skip2", { name: "skip me 2", type: "utxo", chain: "bitcoin_testnet" });
    await create("archived", { name: "onb archived", type: "solana" });
    // A vault in two groups, the second by an approved proposal, and a third group proposed, not approved.
    const groups = await emulator.control.peek<{ id: string; name: string }>("vault-groups");
    const groupId = (name: string) => groups.find((g) => g.name === name)!.id;
    await create("grouped", { name: "onb grouped", type: "evm", vault_group_id: groupId("Treasury") });
    const grouped = made.get("grouped")!.id;
    await client.vaults.submitChangeProposal(grouped, {
      diff: { added_vault_group_ids: [groupId("Default")] },
    });
    for (const proposal of await emulator.control.listProposals({ state: "pending", vaultId: grouped }))
      await emulator.control.approveProposal(proposal.id);
    groupedIn = [groupId("Treasury"), groupId("Default")].sort();
    const third = groups.find((g) => !groupedIn.includes(g.id));
    assert.ok(third, "the emulator has a third vault group");
    await client.vaults.submitChangeProposal(grouped, { diff: { added_vault_group_ids: [third.id] } });
    await client.vaults.archive(made.get("archived")!.id);
    await client.vaults.addresses.create(made.get("bitcoin_testnet")!.id, {
      name: "Deposits",
      address_type: "taproot",
    });

    // Another stack manages two vaults: a YAML program of its own, in the shared backend.
    const otherDir = path.join(tempRoot, "other");
    await fs.promises.mkdir(otherDir);
    await fs.promises.writeFile(
      path.join(otherDir, "Pulumi.yaml"),
      [
        "name: onboarding-other",
        "runtime: yaml",
        "resources:",
        ...[1, 2].flatMap((n) => [
          `  other${n}:`,
          "    type: custody:index:Vault",
          "    properties:",
          `      name: onb other ${n}`,
          "      type: evm",
        ]),
        "",
      ].join("\n"),
    );
    otherStack = await newStack(otherDir, "other");
    await otherStack.up();
    otherRef = `organization/onboarding-other/other`;
    const otherIds = new Set(
      [...(await stateResources(otherStack, VAULT)).values()].map((r) => String(r.id)),
    );
    assert.equal(otherIds.size, 2);

    for await (const vault of client.vaults.listAll({ vault_states: ["active"] })) {
      if (vault.name.startsWith("skip ") || otherIds.has(vault.id) || vault.id === made.get("long")!.id)
        continue;
      expected.set(vault.id, vault);
      if (vault.type === "utxo")
        for (const address of await apiAddresses(client, vault.id))
          expectedAddresses.add(`${vault.id}/${address.id}`);
    }
    assert.deepEqual(
      [...new Set([...expected.values()].map((v) => v.type))].sort(),
      [...VAULT_TYPES].sort(),
      "the organization has a vault of every type",
    );
  });

  after(async () => {
    for (const stack of stacks) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  /** Checks what `custody import` took and reported: exactly the filter's vaults and addresses. */
  function assertTakenAsFiltered(file: ImportFile, report: string): void {
    const vaultIds = file.resources.filter((r) => r.type === VAULT).map((r) => r.id);
    const addressIds = file.resources.filter((r) => r.type === ADDRESS).map((r) => r.id);
    assert.deepEqual(vaultIds.sort(), [...expected.keys()].sort(), "exactly the vaults the filter takes");
    assert.deepEqual(addressIds.sort(), [...expectedAddresses].sort(), "and their addresses");
    const names = file.resources.map((r) => r.name);
    assert.equal(new Set(names).size, names.length, "names are unique");
    for (const name of [
      "vault-custody",
      "delete",
      "class",
      "vault-1st-vault",
      "cafe-reserve",
      "onb-bitcoin-testnet-deposits",
    ])
      assert.ok(names.includes(name), `${name} in ${names.join(", ")}`);
    // The namesakes: the older keeps the name, the newer gets its id's prefix.
    const newer = made.get("ops treasury!")!;
    assert.ok(names.includes("ops-treasury"));
    assert.ok(names.includes(`ops-treasury-${newer.id.replace(/-/g, "").slice(0, 8)}`));
    // A name this long is shown cut (the id names the vault), as all of the service's text is (sdk/shown.ts).
    assert.match(
      report,
      new RegExp(`vault "onb x+…" \\(${made.get("long")!.id}\\): name: must be at most 256 bytes`),
    );
    assert.match(
      report,
      /vault "onb other 1" \(.*\): stack organization\/onboarding-other\/other manages it/,
    );
    // Neither the archived vaults nor the skipped ones were taken (checked by id above); the report counts them.
    assert.match(report, /other vaults of the organization are outside the filter/);
  }

  /** The team's policy config of a project, before the import adds to it. */
  async function teamPolicyConfig(dir: string): Promise<string> {
    const file = path.join(dir, "policy.json");
    await fs.promises.writeFile(
      file,
      JSON.stringify({ "custody-vault-allowed-utxo-chains": { allowedChains: TESTNETS } }, null, 2),
    );
    return file;
  }

  /**
   * The pull request's review of the onboarded stack, with the pack and the policy config: it plans no change,
   * and its only violations are what the organization itself has against the team's rule (its UTXO vaults on a
   * mainnet), by resource; nothing the import caused (no vault group, its own adoptions).
   */
  async function assertReviewShowsOnlyTheOrganization(
    stack: Stack,
    policyConfig: string,
    vaults: Map<string, { id?: unknown; inputs?: Record<string, unknown> }>,
  ): Promise<void> {
    const out = path.join(path.dirname(policyConfig), "review.md");
    const pack = path.join(project.nodeModules, "@pulumi-custody", "policy");
    const args = ["review", "--stack", stack.name, "--out", out, "--"];
    let code = 0;
    try {
      await custody(stack, [...args, "--policy-pack", pack, "--policy-pack-config", policyConfig]);
    } catch (err) {
      code = (err as { code?: number }).code ?? -1;
    }
    const markdown = await fs.promises.readFile(out, "utf8");
    const violations = markdown
      .split("\n")
      .flatMap((line) => {
        const m = /^- \*\*(\w+)\*\* `([^`]+)`.*?, resource `([^`]+)`/.exec(line);
        return m ? [`${m[1]} ${m[2]} ${m[3]}`] : [];
      })
      .sort();
    const onMainnet = [...vaults.entries()]
      .filter(([, r]) => {
        const vault = expected.get(String(r.id));
        const chain = (vault as { chain?: { unique_id?: string } } | undefined)?.chain?.unique_id;
        return vault?.type === "utxo" && chain !== undefined && !TESTNETS.includes(chain as never);
      })
      .map(([name]) => `mandatory custody-vault-allowed-utxo-chains ${name}`)
      .sort();
    assert.ok(onMainnet.length > 0, "the organization has UTXO vaults on a mainnet");
    assert.deepEqual(violations, onMainnet, markdown);
    assert.match(markdown, /the preview planned no vault or address change\./, markdown);
    assert.match(
      markdown,
      /Policy pack `pulumi-custody@[^`]+` ran: \d+ mandatory violation\(s\)\./,
      markdown,
    );
    assert.equal(code, 3, "mandatory violations: the change cannot be applied as it is");
    // The vault in two groups declares both, and not the group only proposed.
    const grouped = [...vaults.values()].find((r) => r.id === made.get("grouped")!.id);
    assert.deepEqual([...((grouped?.inputs?.vaultGroupIds as string[] | undefined) ?? [])].sort(), groupedIn);
  }

  const languages = [
    {
      language: "typescript",
      program: "index.ts",
      async project(dir: string) {
        await fs.promises.writeFile(
          path.join(dir, "Pulumi.yaml"),
          "name: onboard-ts\nruntime: nodejs\nmain: index.ts\n",
        );
        await fs.promises.writeFile(
          path.join(dir, "tsconfig.json"),
          JSON.stringify({
            compilerOptions: {
              strict: true,
              target: "ES2022",
              module: "node16",
              moduleResolution: "node16",
              esModuleInterop: true,
              skipLibCheck: true,
              noEmit: true,
            },
            files: ["index.ts"],
          }),
        );
      },
      /** The generated TypeScript compiles under `strict` (no indexed enum access), then runs. */
      async compile(dir: string) {
        await execFileAsync(project.bin("tsc"), ["-p", dir], { cwd: dir });
      },
    },
    {
      language: "python",
      program: "__main__.py",
      async project(dir: string) {
        const venv = await virtualenvWithWheel(path.join(dir, "venv"));
        await fs.promises.writeFile(
          path.join(dir, "Pulumi.yaml"),
          `name: onboard-py\nruntime:\n  name: python\n  options:\n    virtualenv: ${JSON.stringify(venv)}\n`,
        );
      },
      async compile(dir: string) {
        await execFileAsync(path.join(dir, "venv", "bin", "python"), [
          "-m",
          "py_compile",
          path.join(dir, "__main__.py"),
        ]);
      },
    },
    {
      language: "yaml",
      program: "Main.yaml",
      async project(dir: string) {
        await fs.promises.writeFile(path.join(dir, "Pulumi.yaml"), "name: onboard-yaml\nruntime: yaml\n");
      },
      async compile() {},
    },
    {
      language: "go",
      program: "main.go",
      env: GO_PROGRAM_ENV,
      /** A Go module that requires the release's Go SDK, as `go get` of its tag would. */
      async project(dir: string) {
        const sdk = await goSdkFromRelease(path.join(tempRoot, "custody-go-sdk"));
        await fs.promises.writeFile(path.join(dir, "Pulumi.yaml"), "name: onboard-go\nruntime: go\n");
        await fs.promises.writeFile(path.join(dir, "go.mod"), goModWithSdk("example.com/onboard-go", sdk));
      },
      /** The generated Go compiles (`go vet` type-checks it and runs the standard checks). */
      async compile(dir: string) {
        await execFileAsync("go", ["vet", "."], { cwd: dir, env: { ...process.env, ...GO_PROGRAM_ENV } });
      },
    },
  ] as const;

  for (const lang of languages) {
    it(`${lang.language}: custody import writes the file and the program; after pulumi import --file it runs unchanged with no diff`, async function () {
      this.timeout(20 * 60_000);
      // The TypeScript project lives in the installed project, beside its node_modules (the SDK, @pulumi/pulumi).
      const dir =
        lang.language === "typescript"
          ? path.join(project.dir, "onboard-ts")
          : path.join(tempRoot, `onboard-${lang.language}`);
      await fs.promises.mkdir(dir, { recursive: true });
      await lang.project(dir);
      const stack = await newStack(dir, lang.language);
      Object.assign(stack.workspace.envVars, "env" in lang ? lang.env : {});
      const importFile = path.join(dir, "custody-import.json");
      const program = path.join(dir, lang.program);
      const policyConfig = await teamPolicyConfig(dir);

      const { stdout, stderr } = await custody(stack, [
        "import",
        "--language",
        lang.language,
        ...FILTER,
        "--exclude-stack",
        otherRef,
        "--out",
        program,
        "--import-file",
        importFile,
        "--policy-config",
        policyConfig,
      ]);

      const file = JSON.parse(await fs.promises.readFile(importFile, "utf8")) as ImportFile;
      assertTakenAsFiltered(file, stdout);
      assert.match(
        stderr,
        new RegExp(`generated the ${lang.language} program from ${file.resources.length} resources`),
      );
      assert.match(
        stdout,
        /pulumi import --file .*custody-import\.json --generate-code=false --stack \S+ --yes/,
      );
      await lang.compile(dir);

      await pulumiCli(stack, ["import", "--file", importFile, "--generate-code=false", "--yes"]);

      const vaults = await stateResources(stack, VAULT);
      assert.deepEqual([...vaults.values()].map((r) => String(r.id)).sort(), [...expected.keys()].sort());
      for (const resource of vaults.values()) assert.equal(resource.outputs?.acquisition, "adopted");
      assert.equal((await stateResources(stack, ADDRESS)).size, expectedAddresses.size);
      await stack.preview({ expectNoChanges: true });
      await stack.preview({ refresh: true, expectNoChanges: true });
      // Safe and exchange vaults can only be adopted: their names are on the adopt allow-list now.
      const adopted = [...expected.values()].filter((v) => v.type === "safe" || v.type === "exchange");
      assert.ok(adopted.length > 0);
      const config = JSON.parse(await fs.promises.readFile(policyConfig, "utf8"));
      assert.deepEqual(config["custody-vault-allowed-utxo-chains"], { allowedChains: TESTNETS }, "kept");
      assert.deepEqual(
        [...config["custody-vault-adopt-allow-list"].allowedNames].sort(),
        adopted.map((v) => v.name).sort(),
      );
      await assertReviewShowsOnlyTheOrganization(stack, policyConfig, vaults);
    });
  }

  it("the next time, what the stack manages is left out (a second run takes nothing)", async function () {
    this.timeout(10 * 60_000);
    const stack = stacks.find((s) => s.name === "typescript");
    assert.ok(stack, "the TypeScript stack of the test above");
    const { stdout, stderr } = await custody(stack, ["import-file", ...FILTER, "--exclude-stack", otherRef]);
    assert.deepEqual((JSON.parse(stdout) as ImportFile).resources, []);
    assert.match(stderr, /^0 vaults to import/m);
    const managed = stderr.split("\n").filter((line) => /: stack typescript manages it$/.test(line));
    assert.equal(managed.length, expected.size + expectedAddresses.size);
  });

  it("a narrower filter takes only what it names (type, chain)", async function () {
    this.timeout(10 * 60_000);
    const stack = stacks.find((s) => s.name === "other")!;
    const { stdout } = await custody(stack, [
      "import-file",
      "--type",
      "utxo",
      "--chain",
      "bitcoin_testnet,dogecoin_mainnet",
    ]);
    const wanted = [...expected.values()].filter(
      (v) =>
        v.type === "utxo" &&
        ["bitcoin_testnet", "dogecoin_mainnet"].includes(
          (v as { chain: { unique_id: string } }).chain.unique_id,
        ),
    );
    const skipped = made.get("skip2")!;
    assert.deepEqual(
      (JSON.parse(stdout) as ImportFile).resources.map((r) => r.id).sort(),
      [...wanted.map((v) => v.id), skipped.id].sort(),
      "this filter does not leave out `skip …`",
    );
  });

  it("dynamic provider: the program adopts every vault; its first up sends no write, and the preview is clean", async function () {
    this.timeout(20 * 60_000);
    const dir = path.join(project.dir, "onboard-dynamic");
    await fs.promises.mkdir(dir, { recursive: true });
    await fs.promises.writeFile(
      path.join(dir, "Pulumi.yaml"),
      "name: onboard-dynamic\nruntime: nodejs\nmain: index.ts\n",
    );
    const stack = await newStack(dir, "dynamic");
    const policyConfig = await teamPolicyConfig(dir);
    const { stdout } = await custody(stack, [
      "import",
      "--provider",
      "dynamic",
      "--language",
      "typescript",
      ...FILTER,
      "--exclude-stack",
      otherRef,
      "--out",
      path.join(dir, "index.ts"),
      "--policy-config",
      policyConfig,
    ]);
    assert.match(stdout, /adopted by its exact name/);
    const config = JSON.parse(await fs.promises.readFile(policyConfig, "utf8"));
    assert.deepEqual(
      [...config["custody-vault-adopt-allow-list"].allowedNames].sort(),
      [...expected.values()].map((v) => v.name).sort(),
      "every vault the program adopts, by name",
    );

    await emulator.control.clearRequests();
    const up = await stack.up();

    assert.equal(up.summary.result, "succeeded");
    const writes = (await emulator.control.listRequests(20_000)).filter((r) => r.method !== "GET");
    assert.deepEqual(
      writes.map((r) => `${r.method} ${r.path}`),
      [],
      "the up changed nothing on the service",
    );
    const vaults = await stateResources(stack, DYNAMIC_VAULT);
    assert.deepEqual([...vaults.values()].map((r) => String(r.id)).sort(), [...expected.keys()].sort());
    for (const resource of vaults.values()) assert.equal(resource.outputs?.acquisition, "adopted");
    assert.deepEqual(
      [...(await stateResources(stack, DYNAMIC_ADDRESS)).values()]
        .map((r) => `${r.outputs?.vaultId}/${r.id}`)
        .sort(),
      [...expectedAddresses].sort(),
    );
    await stack.preview({ expectNoChanges: true });
    await stack.preview({ refresh: true, expectNoChanges: true });
    await assertReviewShowsOnlyTheOrganization(stack, policyConfig, vaults);
  });
});
