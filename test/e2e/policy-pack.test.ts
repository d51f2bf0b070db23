// The custody policy pack under the real engine: `pulumi preview --policy-pack policy` starts the pack through
// the Node.js language host (RunPlugin), and the engine judges each vault. One program per rule breaks that rule
// alone, and the preview fails naming the rule and the resource; a compliant program passes; the policy config
// file (`--policy-pack-config`) changes the outcome.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { Vault, type VaultArgs } from "pulumi-custody";
import {
  configureForEmulator,
  fixtureDir,
  startTestEmulator,
  type TestEmulator,
} from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";

const PACK_DIR = repoPath("policy");

/** One vault of a test program: its Pulumi resource name, inputs and whether it is protected. */
interface Declared {
  resource: string;
  args: VaultArgs;
  protect?: boolean;
}

interface Outcome {
  passed: boolean;
  /** What the CLI printed (on failure, the error carries stdout and stderr). */
  output: string;
  /** The engine's events, one JSON line each: what `pulumi preview --json` streams, and `custody-review` reads. */
  events: string;
}

describe("the custody policy pack (pulumi preview --policy-pack, real engine)", function () {
  this.timeout(20 * 60_000);
  let emulator: TestEmulator;
  let groupId: string;
  let count = 0;

  before(async function () {
    this.timeout(40 * 60_000);
    await enginePaths();
    emulator = await startTestEmulator();
    const groups = await emulator.control.peek<{ id: string; name: string }>("vault-groups");
    groupId = groups.find((g) => g.name === "Default")!.id;
  });

  after(async () => {
    await emulator?.stop();
  });

  /** A compliant vault under the default settings; each case changes one thing. */
  function treasury(change: Partial<VaultArgs> = {}, protect = true): Declared {
    return {
      resource: "treasury",
      args: { name: "Treasury", type: "evm", vaultGroupIds: [groupId], ...change },
      protect,
    };
  }

  /** Previews a program that declares `vaults`, with the pack and, when given, a policy config file. */
  async function preview(vaults: Declared[], policyConfig?: Record<string, unknown>): Promise<Outcome> {
    count += 1;
    // The program runs in this process; fixtureDir() only gives the project name and the directory the dynamic
    // provider starts in (it resolves @pulumi/pulumi and pulumi-custody from there).
    const stack: Stack = await createLocalStack({
      projectDir: await fixtureDir(),
      stackName: `policy${count}`,
      program: async () => {
        for (const v of vaults) new Vault(v.resource, v.args, { protect: v.protect });
      },
    });
    try {
      await configureForEmulator(stack, emulator);
      let policyPackConfigs: string[] | undefined;
      if (policyConfig) {
        const file = path.join(stack.workspace.workDir, "policy-config.json");
        await fs.promises.writeFile(file, JSON.stringify(policyConfig));
        policyPackConfigs = [file];
      }
      const events: string[] = [];
      const onEvent = (event: unknown) => events.push(JSON.stringify(event));
      try {
        const result = await stack.preview({ policyPacks: [PACK_DIR], policyPackConfigs, onEvent });
        return { passed: true, output: `${result.stdout}\n${result.stderr}`, events: events.join("\n") };
      } catch (err) {
        return { passed: false, output: String(err), events: events.join("\n") };
      }
    } finally {
      await disposeLocalStack(stack);
    }
  }

  function assertViolation(outcome: Outcome, rule: string, resourceText: RegExp): void {
    assert.equal(outcome.passed, false, `the preview should fail on ${rule}:\n${outcome.output}`);
    assert.match(outcome.output, new RegExp(`mandatory.*${rule}|${rule}.*mandatory`, "s"));
    assert.match(outcome.output, resourceText);
    assert.match(outcome.output, new RegExp(`\\[${rule}\\]`));
  }

  it("a compliant program passes, and the pack ran", async () => {
    const outcome = await preview([
      treasury(),
      {
        resource: "cold",
        args: { name: "Cold", type: "utxo", chain: "bitcoin_testnet", vaultGroupIds: [groupId] },
        protect: true,
      },
      {
        resource: "signer",
        args: { name: "Signer", type: "black_box", keyType: "ecdsa_secp256k1" },
        protect: true,
      },
    ]);
    assert.equal(outcome.passed, true, outcome.output);
    // The pack reports the policy package's version.
    const { version } = JSON.parse(fs.readFileSync(path.join(PACK_DIR, "package.json"), "utf8"));
    assert.ok(outcome.output.includes(`pulumi-custody@v${version}`), outcome.output);
  });

  it("custody-vault-protected: an unprotected vault fails the preview", async () => {
    const outcome = await preview([treasury({}, false)]);
    assertViolation(outcome, "custody-vault-protected", /Vault resource treasury is not protected/);
  });

  it("custody review lists the engine's policy violation first, with the rule and the resource", async () => {
    const outcome = await preview([treasury({}, false)]);
    assert.equal(outcome.passed, false, outcome.output);
    // The released bin, fed the engine's own event stream of that preview.
    const review = spawnSync(process.execPath, [repoPath("cli", "dist", "custody.js"), "review"], {
      input: outcome.events,
      encoding: "utf8",
    });
    // Exit 3: the change cannot be applied; the report is written all the same.
    assert.equal(review.status, 3, review.stderr);
    const report = review.stdout;
    // What stops the change comes first: the violation, counted, then listed under its level.
    const sections = report.split("\n### ").slice(1);
    assert.match(
      sections[0] ?? "",
      /^🛑 This change cannot be applied\n\n- 1 mandatory policy violation \(below\)\./,
      report,
    );
    const mandatory = sections[1] ?? "";
    assert.match(mandatory, /^🛑 Mandatory policy violations/, report);
    assert.match(mandatory, /custody-vault-protected/);
    assert.match(mandatory, /Vault resource treasury is not protected/);
  });

  it("custody-vault-name-pattern: a name with trailing whitespace fails the preview", async () => {
    const outcome = await preview([treasury({ name: "Treasury " })]);
    assertViolation(
      outcome,
      "custody-vault-name-pattern",
      /Vault resource treasury has a name that does not match/,
    );
  });

  it("custody-vault-allowed-types: a type the stack's config file does not allow fails the preview", async () => {
    const outcome = await preview([treasury({ type: "solana" })], {
      "custody-vault-allowed-types": { allowedTypes: ["evm", "utxo"] },
    });
    assertViolation(
      outcome,
      "custody-vault-allowed-types",
      /has type "solana", which this stack does not allow/,
    );
  });

  it("custody-vault-allowed-utxo-chains: a mainnet chain in a testnet-only stack fails the preview", async () => {
    const outcome = await preview(
      [
        {
          resource: "cold",
          args: { name: "Cold", type: "utxo", chain: "bitcoin_mainnet", vaultGroupIds: [groupId] },
          protect: true,
        },
      ],
      { "custody-vault-allowed-utxo-chains": { allowedChains: ["bitcoin_testnet"] } },
    );
    assertViolation(
      outcome,
      "custody-vault-allowed-utxo-chains",
      /Vault resource cold is on the UTXO chain "bitcoin_mainnet"/,
    );
  });

  it("custody-vault-in-vault-group: a value-bearing vault without a group fails the preview", async () => {
    const outcome = await preview([treasury({ vaultGroupIds: undefined })]);
    assertViolation(
      outcome,
      "custody-vault-in-vault-group",
      /Vault resource treasury is a "evm" vault, which holds assets/,
    );
  });

  it("custody-vault-adopt-allow-list: adoptExisting off the allow-list fails the preview", async () => {
    const outcome = await preview([treasury({ adoptExisting: true })]);
    assertViolation(
      outcome,
      "custody-vault-adopt-allow-list",
      /Vault resource treasury sets `adoptExisting: true`/,
    );
  });

  it("custody-vault-unique-names: two vaults with one name fail the preview", async () => {
    const outcome = await preview([treasury(), { ...treasury(), resource: "treasury2" }]);
    assertViolation(
      outcome,
      "custody-vault-unique-names",
      /Vault resource treasury2? has the same name as resource/,
    );
  });

  it("the config file changes enforcement: a disabled rule, an advisory rule, an allow-list", async () => {
    const disabled = await preview([treasury({}, false)], { "custody-vault-protected": "disabled" });
    assert.equal(disabled.passed, true, disabled.output);
    assert.doesNotMatch(disabled.output, /\[custody-vault-protected\]/);

    const advisory = await preview([treasury({}, false)], {
      "custody-vault-protected": { enforcementLevel: "advisory" },
    });
    assert.equal(advisory.passed, true, advisory.output);
    assert.match(advisory.output, /advisory/);
    assert.match(advisory.output, /\[custody-vault-protected\]/);

    const allowed = await preview([treasury({ adoptExisting: true })], {
      "custody-vault-adopt-allow-list": { allowedNames: ["Treasury"] },
    });
    assert.equal(allowed.passed, true, allowed.output);
  });

  it("a config file with a setting of the wrong type is refused, naming the policy and the setting", async () => {
    const outcome = await preview([treasury()], { "custody-vault-allowed-types": { allowedTypes: ["evn"] } });
    assert.equal(outcome.passed, false, outcome.output);
    assert.match(outcome.output, /custody-vault-allowed-types/);
    assert.match(outcome.output, /allowedTypes/);
  });
});
