// `custody import --split-by KEY --into DIR`: the partition (every vault in exactly one group, each address
// with its vault), group names safe as folders and stacks, the record that keeps a later import in a group's
// project to its own group, and the command in process (dynamic provider: no engine). The plugin path, with the
// engine's generated programs and parallel `pulumi import`s, is tested end to end: test/e2e/split-import.test.ts.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodyClient } from "@pulumi-custody/sdk";
import { UsageError } from "../command";
import { laterImportLines } from "../import/command";
import type { FilterSubject } from "../import/filter";
import type { PlannedAddress, PlannedVault, Selection } from "../import/select";
import {
  GROUP_NAME_MAX,
  groupFolders,
  inSplitGroup,
  OTHER_GROUP,
  type Partition,
  parseSplitBy,
  partitionSelection,
  readSplitRecord,
  SPLIT_RECORD,
  type SplitRecord,
  type SplitRule,
  splitKeyOf,
  splitRecordOf,
  subjectOf,
} from "../import/split";
import { custody } from "./run-custody";

const TYPES = ["evm", "utxo", "solana", "black_box"];
const CHAINS = ["bitcoin_mainnet", "bitcoin_testnet", "dogecoin_mainnet"];
const PREFIXES = ["ops", "Ops", "treasury", "hr", "", "émission", "x".repeat(60), "a/b"];

/** A deterministic pseudo-random organization of `n` vaults, with every awkward name the keys can meet. */
function organization(n: number): PlannedVault[] {
  // mulberry32: every bit of its output varies (a plain LCG's low bits cycle, and would skip types).
  let seed = 7;
  const next = (m: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % m;
  };
  return Array.from({ length: n }, (_, i) => {
    const type = TYPES[next(TYPES.length)]!;
    const prefix = PREFIXES[next(PREFIXES.length)]!;
    const name = next(5) === 0 ? `no separator ${i}` : `${prefix}-vault ${i}`;
    const vault = {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      name,
      type,
      state: "active",
      ...(type === "utxo" ? { chain: { unique_id: CHAINS[next(CHAINS.length)] } } : {}),
    };
    return { vault, name: `v${i}`, inputs: {} } as unknown as PlannedVault;
  });
}

function selectionOf(vaults: PlannedVault[], addresses: PlannedAddress[] = []): Selection {
  return { vaults, addresses, managed: [], unrepresentable: [], outsideFilter: 0 };
}

const RULES: [string, SplitRule][] = [
  ["type", parseSplitBy("type")],
  ["chain", parseSplitBy("chain")],
  ["name-prefix:-", parseSplitBy("name-prefix:-")],
  ["name-pattern", parseSplitBy("name-pattern:^(\\w+)-vault")],
];

describe("custody import --split-by: the partition", () => {
  for (const [title, rule] of RULES) {
    it(`${title}: every vault in exactly one group, each group's folder distinct and safe`, () => {
      const vaults = organization(400);
      const partition = partitionSelection(selectionOf(vaults), rule);
      const seen = partition.groups.flatMap((g) => g.selection.vaults.map((p) => p.vault.id));
      assert.equal(seen.length, vaults.length, "no vault twice");
      assert.deepEqual(new Set(seen), new Set(vaults.map((p) => p.vault.id)), "none left out");
      const folders = partition.groups.map((g) => g.folder);
      assert.equal(new Set(folders).size, folders.length, `distinct folders: ${folders.join(", ")}`);
      for (const folder of folders) {
        assert.match(folder, /^[a-z0-9][a-z0-9_-]*$/, folder);
        assert.ok(folder.length <= GROUP_NAME_MAX, folder);
      }
      // Each group holds exactly the vaults of its key.
      for (const group of partition.groups)
        for (const p of group.selection.vaults)
          assert.equal(splitKeyOf(subjectOf(p.vault), rule), group.key, `${p.vault.name} in ${group.folder}`);
    });
  }

  it("the keys: type; chain (other types by type); name prefix; a pattern's capture group", () => {
    const btc: FilterSubject = { name: "ops-cold", type: "utxo", chain: "bitcoin_mainnet", state: "active" };
    const evm: FilterSubject = { name: "treasury eth", type: "evm", chain: undefined, state: "active" };
    assert.equal(splitKeyOf(btc, parseSplitBy("type")), "utxo");
    assert.equal(splitKeyOf(btc, parseSplitBy("chain")), "bitcoin_mainnet");
    assert.equal(splitKeyOf(evm, parseSplitBy("chain")), "evm");
    assert.equal(splitKeyOf(btc, parseSplitBy("name-prefix:-")), "ops");
    assert.equal(splitKeyOf(evm, parseSplitBy("name-prefix:-")), undefined, "no separator: no key");
    assert.equal(splitKeyOf({ ...evm, name: "-x" }, parseSplitBy("name-prefix:-")), undefined, "empty key");
    assert.equal(splitKeyOf(evm, parseSplitBy("name-pattern:^(\\w+) ")), "treasury");
    assert.equal(splitKeyOf(btc, parseSplitBy("name-pattern:^(\\w+) ")), undefined);
    assert.equal(splitKeyOf(evm, parseSplitBy("name-pattern:^(?:x(\\d))?")), undefined, "group unmatched");
  });

  it("folder names: escaped, bounded, `other` for no key, collisions told apart in a stable order", () => {
    const long = "Ops ".repeat(30);
    const folders = groupFolders(["Ops", "ops", undefined, "other", "Café/Réserve", "***", long, `${long}!`]);
    assert.equal(folders.get(undefined), OTHER_GROUP);
    assert.equal(folders.get("other"), "other-2", "a key named other does not take the group without a key");
    assert.equal(folders.get("Ops"), "ops");
    assert.equal(folders.get("ops"), "ops-2");
    assert.equal(folders.get("Café/Réserve"), "cafe-reserve");
    assert.equal(folders.get("***"), "group");
    const a = folders.get(long)!;
    const b = folders.get(`${long}!`)!;
    assert.notEqual(a, b);
    for (const f of [a, b]) assert.ok(f.length <= GROUP_NAME_MAX, f);
    assert.equal(new Set(folders.values()).size, folders.size);
    // The same keys in another order: the same folders.
    assert.deepEqual(
      groupFolders([`${long}!`, long, "***", "Café/Réserve", "other", undefined, "ops", "Ops"]),
      folders,
    );
  });

  it("each address goes with its vault; an address of a vault a stack manages is set apart", () => {
    const vaults = organization(60).filter((p) => p.vault.type === "utxo");
    assert.ok(vaults.length >= 2);
    const address = (vault: PlannedVault | undefined, id: string) =>
      ({
        vault,
        address: { id, name: id, vault: { id: vault?.vault.id ?? "managed-vault" } },
        name: id,
        inputs: {},
      }) as unknown as PlannedAddress;
    const addresses = [...vaults.map((v, i) => address(v, `a${i}`)), address(undefined, "orphan")];
    const partition = partitionSelection(selectionOf(vaults, addresses), parseSplitBy("chain"));
    for (const group of partition.groups) {
      const ids = new Set(group.selection.vaults.map((p) => p.vault.id));
      for (const a of group.selection.addresses) assert.ok(ids.has(a.vault!.vault.id));
    }
    assert.equal(
      partition.groups.reduce((n, g) => n + g.selection.addresses.length, 0),
      vaults.length,
    );
    assert.deepEqual(
      partition.orphanAddresses.map((a) => a.name),
      ["orphan"],
    );
  });
});

describe("custody import --split-by: each group's default filter", () => {
  /** The records a split writes, one per group. */
  function records(rule: SplitRule, partition: Partition, filter = { states: ["active"] }): SplitRecord[] {
    // Through JSON, as a later run reads them.
    return partition.groups.map(
      (g) => JSON.parse(JSON.stringify(splitRecordOf(rule, filter, partition, g))) as SplitRecord,
    );
  }

  for (const [title, rule] of RULES) {
    it(`${title}: a vault belongs to exactly one group's filter; one created later to at most one`, () => {
      const vaults = organization(200);
      const seen = vaults.slice(0, 150);
      const partition = partitionSelection(selectionOf(seen), rule);
      const all = records(rule, partition);
      const hasOther = all.some((r) => r.key === null);
      for (const p of vaults) {
        const subject = subjectOf(p.vault);
        const holders = all.filter((r) => inSplitGroup(r, subject));
        const key = splitKeyOf(subject, rule);
        // A vault the split saw, or one with a key it saw or none, has exactly one group; one with a key that
        // appeared since goes to the group other if there is one (no group when every vault had a key).
        const known = seen.includes(p) || key === undefined || all.some((r) => r.key === key);
        assert.equal(
          holders.length,
          known || hasOther ? 1 : 0,
          `${p.vault.name} (${key}): ${holders.map((r) => r.key).join(", ")}`,
        );
      }
      // The vaults the split saw: in the group it put them in.
      for (const [i, group] of partition.groups.entries())
        for (const p of group.selection.vaults) assert.ok(inSplitGroup(all[i]!, subjectOf(p.vault)));
    });
  }

  it("a new key goes to the group other; the split's own filter is kept", () => {
    const rule = parseSplitBy("type");
    const vaults = organization(50).filter((p) => p.vault.type !== "solana");
    const partition = partitionSelection(selectionOf(vaults), rule);
    const all = records(rule, partition, { namePrefix: "ops", states: ["active"] } as never);
    const solana: FilterSubject = { name: "ops-new", type: "solana", chain: undefined, state: "active" };
    const evm: FilterSubject = { name: "ops-new", type: "evm", chain: undefined, state: "active" };
    assert.deepEqual(
      all.filter((r) => inSplitGroup(r, solana)).map((r) => r.key),
      [],
      "no group of types seen, and no group other since every vault had a key",
    );
    assert.deepEqual(
      all.filter((r) => inSplitGroup(r, evm)).map((r) => r.key),
      ["evm"],
    );
    assert.deepEqual(
      all.filter((r) => inSplitGroup(r, { ...evm, name: "hr-new" })),
      [],
      "outside the split's filter: in no group",
    );
    const withOther: SplitRecord = { ...all[0]!, key: null };
    assert.ok(inSplitGroup(withOther, solana), "a group other takes a key no group has");
    assert.ok(!inSplitGroup(withOther, evm));
  });

  it("bad --split-by values are usage errors that name the rule", () => {
    const cases: [string, RegExp][] = [
      ["owner", /--split-by "owner" is not one of type, chain, name-prefix:SEP, name-pattern:RE/],
      ["name-prefix", /name-prefix needs its separator/],
      ["name-pattern:^ops", /exactly one capture group .* has 0/],
      ["name-pattern:^(a)(b)", /exactly one capture group .* has 2/],
      ["name-pattern:(", /is not a regular expression/],
    ];
    for (const [value, message] of cases)
      assert.throws(
        () => parseSplitBy(value),
        (err: unknown) => err instanceof UsageError && message.test(err.message),
        value,
      );
  });

  it("a record that cannot be read is one line naming it and the way out", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-split-record-"));
    try {
      assert.equal(readSplitRecord(dir, dir), undefined);
      fs.writeFileSync(path.join(dir, SPLIT_RECORD), "{");
      assert.throws(() => readSplitRecord(dir, dir), /custody-split.json .* is not JSON: .*--ignore-split/);
      fs.writeFileSync(
        path.join(dir, SPLIT_RECORD),
        JSON.stringify({ splitBy: "owner", key: null, keys: [], filter: {} }),
      );
      assert.throws(() => readSplitRecord(dir, dir), /has a rule that does not parse/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("custody import --split-by: the command (dynamic provider, no engine)", () => {
  let emulator: RunningEmulator;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  /** Every active vault of the organization, id → type. */
  const types = new Map<string, string>();

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    env = {
      PATH: "/nonexistent",
      CUSTODY_BASE_URL: emulator.baseUrl,
      CUSTODY_ACCESS_TOKEN: emulator.accessToken,
    };
    const client = new CustodyClient({ baseUrl: emulator.baseUrl, accessToken: emulator.accessToken });
    await client.vaults.create({ name: "split evm", type: "evm" });
    await client.vaults.create({ name: "split btc", type: "utxo", chain: "bitcoin_testnet" });
    for await (const vault of client.vaults.listAll({ vault_states: ["active"] }))
      types.set(vault.id, vault.type);
    await client.close();
  });
  after(async () => {
    await emulator.close();
  });
  beforeEach(async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "custody-split-cmd-"));
  });
  afterEach(async () => {
    await fs.promises.rm(dir, { recursive: true, force: true });
  });

  const split = ["import", "--provider", "dynamic", "-l", "typescript", "--split-by", "type"];

  it("writes a project per type; a later import in a group's project takes only its group", async () => {
    await fs.promises.mkdir(path.join(dir, "groups"));
    const { code, stdout, stderr } = await custody(
      [...split, "--into", "groups", "--project", "acme"],
      dir,
      env,
    );
    assert.equal(code, 0, stderr);
    const groups = (await fs.promises.readdir(path.join(dir, "groups"))).sort();
    assert.deepEqual(groups, [...new Set(types.values())].sort());
    const adopted = new Map<string, string>();
    for (const group of groups) {
      const groupDir = path.join(dir, "groups", group);
      assert.equal(
        await fs.promises.readFile(path.join(groupDir, "Pulumi.yaml"), "utf8"),
        `name: acme-${group}\nruntime: nodejs\ndescription: "custody vaults of the group ${group} (split by type)"\n`,
      );
      const program = await fs.promises.readFile(path.join(groupDir, "index.ts"), "utf8");
      for (const [, type] of program.matchAll(/type: "(\w+)"/g)) assert.equal(type, group);
      assert.match(stdout, new RegExp(`pulumi stack init ${group}\\n`));
      // A later run in the group's project takes only that group's vaults.
      const later = await custody(["import-file"], groupDir, env);
      assert.equal(later.code, 0, later.stderr);
      for (const r of JSON.parse(later.stdout).resources as { id: string }[]) {
        assert.equal(adopted.get(r.id), undefined, `${r.id} in two groups`);
        adopted.set(r.id, group);
      }
      assert.match(
        later.stderr,
        new RegExp(`group "${group}" of the split by type \\(custody-split\\.json\\)`),
      );
      const all = await custody(["import-file", "--ignore-split"], groupDir, env);
      assert.equal(JSON.parse(all.stdout).resources.length, types.size, "--ignore-split takes them all");
    }
    assert.deepEqual([...adopted.keys()].sort(), [...types.keys()].sort(), "every vault in one group");
    for (const [id, group] of adopted) assert.equal(types.get(id), group);
    assert.match(stdout, /can run in parallel/);
    assert.doesNotMatch(stdout + stderr, new RegExp(emulator.accessToken));
  });

  it("its files that exist stop it before anything is written; --force replaces them", async () => {
    await fs.promises.mkdir(path.join(dir, "groups", "evm"), { recursive: true });
    await fs.promises.writeFile(path.join(dir, "groups", "evm", "index.ts"), "mine\n");
    const { code, stderr } = await custody([...split, "--into", "groups"], dir, env);
    assert.equal(code, 1);
    assert.match(stderr, /groups\/evm\/index\.ts exists: pass --force/);
    assert.deepEqual(await fs.promises.readdir(path.join(dir, "groups")), ["evm"]);
    assert.equal(await fs.promises.readFile(path.join(dir, "groups", "evm", "index.ts"), "utf8"), "mine\n");
    const forced = await custody([...split, "--into", "groups", "--force"], dir, env);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(
      await fs.promises.readFile(path.join(dir, "groups", "evm", "index.ts"), "utf8"),
      /new Vault/,
    );
  });

  /**
   * A stand-in `pulumi` whose selected stack `stack` manages the vaults `ids` (`stack export`), with no custody
   * config (the settings come from the environment).
   */
  async function stackManaging(stack: string, ids: readonly string[]): Promise<NodeJS.ProcessEnv> {
    // In the test's own folder, which afterEach removes.
    const bin = await fs.promises.mkdtemp(path.join(dir, "stand-in-bin-"));
    const exported = {
      version: 3,
      deployment: {
        resources: ids.map((id, i) => ({
          urn: `urn:pulumi:${stack}::acme-${stack}::pulumi-nodejs:dynamic/custody:Vault::vault-${i}`,
          custom: true,
          type: "pulumi-nodejs:dynamic/custody:Vault",
          id,
        })),
      },
    };
    await fs.promises.writeFile(path.join(bin, "export.json"), JSON.stringify(exported));
    await fs.promises.writeFile(
      path.join(bin, "pulumi"),
      `#!/bin/sh
case "$1 $2" in
  "stack --show-name") echo "${stack}" ;;
  "stack export") cat "${bin}/export.json" ;;
  "config --json") echo "{}" ;;
  *) echo "unexpected: $*" >&2; exit 2 ;;
esac
`,
      { mode: 0o755 },
    );
    return { ...env, PATH: `${bin}:/usr/bin:/bin` };
  }

  it("a later import in a group's project: a program of the new vaults only, and how to add them to the group's program", async () => {
    await fs.promises.mkdir(path.join(dir, "groups"));
    assert.equal((await custody([...split, "--into", "groups"], dir, env)).code, 0);
    const groupDir = path.join(dir, "groups", "evm");
    const program = await fs.promises.readFile(path.join(groupDir, "index.ts"), "utf8");
    // The group's stack manages what the split took; a vault is created since.
    const evmIds = [...types].filter(([, type]) => type === "evm").map(([id]) => id);
    const client = new CustodyClient({ baseUrl: emulator.baseUrl, accessToken: emulator.accessToken });
    const added = await client.vaults.create({ name: "split evm later", type: "evm" });
    await client.close();
    try {
      const withStack = await stackManaging("evm", evmIds);
      const later = await custody(
        ["import", "--provider", "dynamic", "-l", "typescript", "--force", "--out", "new.ts"],
        groupDir,
        withStack,
      );
      assert.equal(later.code, 0, later.stderr);
      const written = await fs.promises.readFile(path.join(groupDir, "new.ts"), "utf8");
      assert.match(written, /name: "split evm later"/);
      assert.doesNotMatch(written, /name: "split evm"/);
      assert.match(
        later.stdout,
        new RegExp(
          `^new\\.ts holds only the 1 vault\\(s\\) the stack does not manage yet; the stack already manages ${evmIds.length}, which index\\.ts declares\\. Do not make new\\.ts the program`,
          "m",
        ),
      );
      assert.match(
        later.stdout,
        /^Next: copy the resource declarations of new\.ts \(without its imports\) into index\.ts, keeping everything index\.ts declares, then `pulumi up`/m,
      );
      assert.doesNotMatch(later.stdout, /make it the program|Next: review it/);

      // Over the group's program itself, even with --force: refused, nothing written.
      const over = await custody(
        ["import", "--provider", "dynamic", "-l", "typescript", "--force"],
        groupDir,
        withStack,
      );
      assert.equal(over.code, 1, over.stderr);
      assert.match(
        over.stderr,
        new RegExp(
          `^custody import: index\\.ts is the program of stack evm, which already manages ${evmIds.length} vault\\(s\\): it would hold only the 1 new one\\(s\\), and \`pulumi up\` would then delete the others\\. Write them to another file with --out FILE, then add them to the program; nothing was written$`,
          "m",
        ),
      );
      assert.equal(await fs.promises.readFile(path.join(groupDir, "index.ts"), "utf8"), program);
    } finally {
      const cleanup = new CustodyClient({ baseUrl: emulator.baseUrl, accessToken: emulator.accessToken });
      await cleanup.vaults.archive(added.id).catch(() => undefined);
      await cleanup.close();
    }
  });

  it("the same on the plugin path, in YAML: the lines say how to add the resources to Main.yaml", () => {
    const lines = laterImportLines("yaml", "new.yaml", "Main.yaml", { managed: 60, added: 1 });
    assert.deepEqual(lines, [
      "new.yaml holds only the 1 vault(s) the stack does not manage yet; the stack already manages 60, which " +
        "Main.yaml declares. Do not make new.yaml the program: it would declare none of those 60, and `pulumi up` " +
        "would try to delete them.",
      "Next: copy the entries under `resources:` of new.yaml into the `resources:` of Main.yaml, keeping everything " +
        "Main.yaml declares, then",
    ]);
  });

  it("usage: --into is needed, must exist, and --out is refused; --into alone is refused", async () => {
    const cases: [string[], number, RegExp][] = [
      [split, 2, /--split-by needs --into DIR/],
      [
        [...split, "--into", "nowhere"],
        1,
        /the directory nowhere \(--into\) does not exist: create it first/,
      ],
      [[...split, "--into", ".", "--out", "x.ts"], 2, /--out is not for --split-by/],
      [["import", "-l", "yaml", "--into", "."], 2, /--into is for --split-by/],
      [
        ["import", "-l", "yaml", "--split-by", "name-pattern:^x", "--into", "."],
        2,
        /exactly one capture group/,
      ],
    ];
    for (const [argv, exit, message] of cases) {
      const { code, stderr } = await custody(argv, dir, env);
      assert.equal(code, exit, `${argv.join(" ")}: ${stderr}`);
      assert.match(stderr, message);
    }
    assert.deepEqual(await fs.promises.readdir(dir), [], "nothing written");
  });
});
