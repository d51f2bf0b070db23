// `custody review` under the real engine, against the emulator, as a pull request's pipeline runs it: live
// previews through the real CLI with the custody policy pack, on both provider paths (the dynamic resources and
// the plugin found on PATH), of a program that declares protected vaults, secret inputs and addresses
// (test/fixtures/review/program). One case per fault the review report had:
//   1. the documented pipe (`pulumi preview --json | custody review`) lost the policy violations;
//   2. a mainnet chain, `adoptExisting`, `protect` and vault-group changes were hidden;
//   3. a failed preview read as pending work;
//   4. values not known until the update were printed as the engine's placeholder;
//   5. changes of secret values vanished;
//   6. advisory violations sat under a stop sign; `--help` and a missing file ended in a stack trace.
// Each report section is asserted on the Markdown text.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { UNKNOWN } from "pulumi-custody/core";
import {
  custodyCli,
  declareProgram,
  PROVIDER_PATHS,
  type ProgramDeclaration,
  type ProgramVault,
  reviewProgramStack,
  stackEnv,
} from "../support/custody-cli";
import { startTestEmulator, stateResources, type TestEmulator } from "../support/e2e-custody";
import { disposeLocalStack, enginePaths, pluginLauncherDir, repoPath } from "../support/pulumi-engine";

const execFileAsync = promisify(execFile);

const PACK = repoPath("policy");
const PACK_LABEL = `pulumi-custody@${(JSON.parse(fs.readFileSync(repoPath("policy", "package.json"), "utf8")) as { version: string }).version}`;

/** The section headings of a report, in order. */
function headings(markdown: string): string[] {
  return [...markdown.matchAll(/^### (.*)$/gm)].map((m) => m[1] as string);
}

/** The items of the section whose heading starts with `heading`. */
function section(markdown: string, heading: string): string {
  const part = markdown.split(/^### /m).find((p) => p.startsWith(heading));
  assert.ok(part !== undefined, `no section "${heading}" in:\n${markdown}`);
  return part;
}

describe("custody review of live previews (real engine, policy pack, both provider paths)", () => {
  let emulator: TestEmulator;
  let tempRoot: string;
  let binPath: string;
  let policyConfig: string;
  let defaultGroup: string;
  let treasuryGroup: string;

  before(async function () {
    this.timeout(40 * 60_000);
    const engine = await enginePaths();
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "review-e2e-"));
    binPath = [await pluginLauncherDir(tempRoot), engine.binDir, process.env.PATH].join(path.delimiter);
    emulator = await startTestEmulator();
    const groups = await emulator.control.peek<{ id: string; name: string }>("vault-groups");
    defaultGroup = groups.find((g) => g.name === "Default")!.id;
    treasuryGroup = groups.find((g) => g.name === "Treasury")!.id;
    // A development stack's settings: testnets only, and an unprotected vault is a warning, not a stop.
    policyConfig = path.join(tempRoot, "policy-dev.json");
    await fs.promises.writeFile(
      policyConfig,
      JSON.stringify({
        "custody-vault-allowed-utxo-chains": { allowedChains: ["bitcoin_testnet", "bitcoin_testnet_v4"] },
        "custody-vault-protected": "advisory",
      }),
    );
  });

  after(async () => {
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  it("6. `--help` and a file that does not exist: usage and one line, exits 0 and 2, no stack trace", async () => {
    const bin = repoPath("cli", "dist", "custody.js");
    const help = await execFileAsync(process.execPath, [bin, "review", "--help"]);
    assert.match(help.stdout, /^usage: custody review \[options\] -- \[PULUMI PREVIEW ARGUMENTS\]/);
    await assert.rejects(
      execFileAsync(process.execPath, [bin, "review", path.join(tempRoot, "nope.json")]),
      (err) => {
        const failed = err as { code: number; stdout: string; stderr: string };
        assert.equal(failed.code, 2);
        // The path is not echoed: a FILE that does not exist may be a value given without its flag.
        assert.match(
          failed.stderr,
          /^custody review: FILE does not exist \(not shown, .*; see `custody review --help`\n$/,
        );
        assert.doesNotMatch(failed.stderr, /nope\.json/);
        assert.doesNotMatch(failed.stderr + failed.stdout, /^\s+at .+:\d+/m);
        return true;
      },
    );
  });

  for (const providerPath of PROVIDER_PATHS) {
    describe(`the ${providerPath} path`, () => {
      let stack: Stack;
      const name = (n: string) => `rv-${providerPath} ${n}`;
      const ids = new Map<string, string>();

      /** What the main branch declares: every vault in a group; all protected but `spare`. */
      function base(): ProgramDeclaration & { vaults: Record<string, ProgramVault> } {
        return {
          vaults: {
            treasury: { name: name("Treasury"), type: "evm", vaultGroupIds: [defaultGroup], protect: true },
            cold: {
              name: name("Cold"),
              type: "utxo",
              chain: "bitcoin_testnet",
              vaultGroupIds: [defaultGroup],
              protect: true,
            },
            hidden: {
              name: name("Hidden"),
              type: "solana",
              vaultGroupIds: [defaultGroup],
              protect: true,
              secret: ["name"],
            },
            grouped: {
              name: name("Grouped"),
              type: "evm",
              vaultGroupIds: [defaultGroup],
              protect: true,
              secret: ["vaultGroupIds"],
            },
            spare: {
              name: name("Spare"),
              type: "utxo",
              chain: "bitcoin_testnet",
              vaultGroupIds: [defaultGroup],
            },
          },
          addresses: {
            deposits: { vault: "cold", name: "Deposits" },
            change: { vault: "spare", name: "Change" },
          },
        };
      }

      /** A pull request: the program declares `declared`; `custody review` runs the preview with the pack. */
      async function review(declared: ProgramDeclaration, config = policyConfig) {
        await declareProgram(stack, declared);
        return custodyCli(stack, [
          "review",
          "--stack",
          stack.name,
          "--",
          "--policy-pack",
          PACK,
          "--policy-pack-config",
          config,
        ]);
      }

      before(async function () {
        this.timeout(20 * 60_000);
        stack = await reviewProgramStack(emulator, `review-${providerPath}`, providerPath, binPath);
        await declareProgram(stack, base());
        const up = await stack.up();
        assert.equal(up.summary.result, "succeeded");
        const type =
          providerPath === "plugin" ? "custody:index:Vault" : "pulumi-nodejs:dynamic/custody:Vault";
        for (const [key, resource] of await stateResources(stack, type)) ids.set(key, String(resource.id));
        assert.equal(ids.size, 5);
      });

      after(async () => {
        if (stack) await disposeLocalStack(stack);
      });

      it("no change: says so, names the pack that ran, and lists an advisory violation under its own heading (6)", async () => {
        const out = await review(base());
        assert.equal(out.status, 0, out.stderr + out.stdout);
        assert.match(out.stdout, /^No vault or address changes\.$/m);
        assert.match(
          out.stdout,
          new RegExp(`^Policy pack \`${PACK_LABEL}\` ran: 1 advisory violation\\(s\\)\\.$`, "m"),
        );
        assert.deepEqual(headings(out.stdout), ["⚠️ Advisory policy violations"]);
        assert.match(
          section(out.stdout, "⚠️ Advisory policy violations"),
          new RegExp(
            `^- \\*\\*advisory\\*\\* \`custody-vault-protected\` \\(${PACK_LABEL}\\), resource \`spare\`: .*is not protected`,
            "m",
          ),
        );
        assert.doesNotMatch(out.stdout, /🛑/);
      });

      describe("a pull request with two mandatory violations, a mainnet vault, adoptExisting, protect and groups", () => {
        function pullRequest(): ProgramDeclaration {
          const declared = base();
          declared.vaults.btc = {
            name: name("BTC"),
            type: "utxo",
            chain: "bitcoin_mainnet",
            vaultGroupIds: [defaultGroup],
            protect: true,
          };
          declared.vaults.treasury = { ...declared.vaults.treasury!, adoptExisting: true, protect: false };
          declared.vaults.cold = { ...declared.vaults.cold!, vaultGroupIds: [defaultGroup, treasuryGroup] };
          return declared;
        }

        it("1. the digest of the documented pipe cannot carry the violations: the report says so, loudly with --expect-policy", async () => {
          await declareProgram(stack, pullRequest());
          const preview = await execFileAsync(
            stack.workspace.pulumiCommand.command,
            [
              "preview",
              "--json",
              "--stack",
              stack.name,
              "--non-interactive",
              "--policy-pack",
              PACK,
              "--policy-pack-config",
              policyConfig,
            ],
            { cwd: stack.workspace.workDir, env: stackEnv(stack), maxBuffer: 64 * 1024 * 1024 },
          ).then(
            () => assert.fail("the preview must fail on the mandatory violations"),
            (err: { stdout: string }) => err.stdout,
          );
          const digest = path.join(tempRoot, `digest-${providerPath}.json`);
          await fs.promises.writeFile(digest, preview);
          assert.ok(JSON.parse(preview).steps, "the digest form");

          const piped = await custodyCli(stack, ["review", digest]);
          assert.equal(piped.status, 3, piped.stderr);
          assert.deepEqual(headings(piped.stdout).slice(0, 2), [
            "🛑 This change cannot be applied",
            "⚠️ Policy results not in this input",
          ]);
          assert.match(
            section(piped.stdout, "⚠️ Policy results not in this input"),
            /PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true/,
          );
          assert.doesNotMatch(piped.stdout, /custody-vault-allowed-utxo-chains/);

          const expected = await custodyCli(stack, ["review", "--expect-policy", digest]);
          assert.match(section(expected.stdout, "🛑 Policy results missing"), /never carries policy results/);
        });

        it("1. run by `custody review --`, the report lists both mandatory violations first and exits 3", async () => {
          const out = await review(pullRequest());
          assert.equal(out.status, 3, out.stderr + out.stdout);
          assert.match(out.stderr, /custody review: this change cannot be applied/);
          assert.deepEqual(headings(out.stdout).slice(0, 3), [
            "🛑 This change cannot be applied",
            "🛑 Mandatory policy violations",
            "⚠️ Advisory policy violations",
          ]);
          assert.match(
            out.stdout,
            /^This change cannot be applied: 2 mandatory policy violations\. Nothing below happens/m,
          );
          assert.match(
            section(out.stdout, "🛑 This change cannot be applied"),
            /^- 2 mandatory policy violations \(below\)\.$/m,
          );
          const mandatory = section(out.stdout, "🛑 Mandatory policy violations");
          assert.match(
            mandatory,
            /^- \*\*mandatory\*\* `custody-vault-allowed-utxo-chains` .*resource `btc`: .*"bitcoin_mainnet"/m,
          );
          assert.match(
            mandatory,
            /^- \*\*mandatory\*\* `custody-vault-adopt-allow-list` .*resource `treasury`: .*adoptExisting/m,
          );
          assert.equal(mandatory.match(/^- /gm)?.length, 2);
          const advisory = section(out.stdout, "⚠️ Advisory policy violations");
          assert.match(advisory, /`custody-vault-protected` .*resource `treasury`/);
          assert.doesNotMatch(advisory, /mandatory/);
        });

        it("2. the mainnet chain, adoptExisting, protect and the vault groups each show", async () => {
          const out = await review(pullRequest());
          assert.match(
            section(out.stdout, "Created"),
            new RegExp(
              `^- Vault \\*\\*${name("BTC")}\\*\\* \\(\`utxo\` on \`bitcoin_mainnet\`, ⚠️ \\*\\*mainnet\\*\\*; resource \`btc\`\\): created;`,
              "m",
            ),
          );
          const safety = section(out.stdout, "⚠️ Protection and adoption");
          assert.match(
            safety,
            new RegExp(
              `^- Vault \\*\\*${name("Treasury")}\\*\\* \\(\`evm\` on every \`evm\` chain, mainnets included; resource \`treasury\`, id \`${ids.get("treasury")}\`.*\\): ` +
                "`protect`: `true` → `false`: no longer protected.*; `adoptExisting`: unset → `true`: changes nothing now",
              "m",
            ),
          );
          assert.match(
            section(out.stdout, "Vault groups"),
            new RegExp(
              `^- Vault \\*\\*${name("Cold")}\\*\\* .*resource \`cold\`.*: \`vaultGroupIds\`: \`\\["${defaultGroup}"\\]\` → \`\\["${defaultGroup}","${treasuryGroup}"\\]\`\\.$`,
              "m",
            ),
          );
          assert.match(out.stdout, /^\d+ change\(s\) to review first|^This change cannot be applied/m);
        });
      });

      it("3. a protected vault that cannot be replaced or archived: the preview's errors first, the plan marked as not happening", async () => {
        const declared = base();
        declared.vaults.cold = { ...declared.vaults.cold!, chain: "bitcoin_testnet_v4" };
        delete declared.vaults.hidden;
        const out = await review(declared);
        assert.equal(out.status, 3, out.stderr + out.stdout);
        assert.equal(headings(out.stdout)[0], "🛑 This change cannot be applied");
        const errors = section(out.stdout, "🛑 This change cannot be applied");
        assert.match(
          errors,
          /^- resource `(cold|hidden)`: (unable to replace resource .*as it is currently marked for protection|.*cannot be deleted because it is protected)/m,
        );
        assert.doesNotMatch(errors, /^- preview failed/m);
        assert.match(
          out.stdout,
          /^This change cannot be applied: \d+ errors?\. Nothing below happens until it is fixed; the rest is what the change would do\.$/m,
        );
        assert.doesNotMatch(out.stdout, /change\(s\) to review first/);
      });

      it("4. an address under a replaced vault: its vault reads known after apply, never the placeholder", async () => {
        const declared = base();
        declared.vaults.spare = { ...declared.vaults.spare!, chain: "bitcoin_testnet_v4" };
        const out = await review(declared);
        assert.equal(out.status, 0, out.stderr + out.stdout);
        assert.doesNotMatch(out.stdout, new RegExp(UNKNOWN));
        const replaced = section(out.stdout, "⚠️ Replaced");
        assert.match(
          replaced,
          new RegExp(
            `^- Vault \\*\\*${name("Spare")}\\*\\* .*: \`chain\`: \`"bitcoin_testnet"\` → \`"bitcoin_testnet_v4"\`\\.$`,
            "m",
          ),
        );
        assert.match(
          replaced,
          new RegExp(
            `^- Address \\*\\*Change\\*\\* \\(resource \`change\`, id \`[^\`]+\`, address \`[^\`]+\`\\): \`vaultId\`: \`"${ids.get("spare")}"\` → known after apply\\.$`,
            "m",
          ),
        );
        assert.deepEqual(headings(out.stdout).slice(0, 2), [
          "⚠️ Advisory policy violations",
          "⚠️ Replaced: the old vault is archived and a new one, with a new address, is created",
        ]);
      });

      it("retiring a vault: `archived: true` reads Archive and needs the allow-list; up archives it, and removing the input restores it", async () => {
        const archiving = base();
        archiving.vaults.treasury = { ...archiving.vaults.treasury!, archived: true };

        // An evm vault holds assets: archiving it is refused until the stack allow-lists it.
        const refused = await review(archiving);
        assert.equal(refused.status, 3, refused.stderr + refused.stdout);
        assert.match(
          section(refused.stdout, "⚠️ Archived"),
          new RegExp(
            `^- \\*\\*Archive\\*\\*: Vault \\*\\*${name("Treasury")}\\*\\* .*resource \`treasury\`.*: \`archived\`: .*true`,
            "m",
          ),
        );
        assert.match(
          refused.stdout,
          /custody-vault-archive-allow-list.*resource `treasury`: .*Vault resource treasury is to be archived/,
        );

        const allowList = path.join(tempRoot, `policy-archive-${providerPath}.json`);
        const dev = JSON.parse(await fs.promises.readFile(policyConfig, "utf8"));
        await fs.promises.writeFile(
          allowList,
          JSON.stringify({
            ...dev,
            "custody-vault-archive-allow-list": { allowedNames: [name("Treasury")] },
          }),
        );
        const allowed = await review(archiving, allowList);
        assert.equal(allowed.status, 0, allowed.stderr + allowed.stdout);
        assert.doesNotMatch(allowed.stdout, /custody-vault-archive-allow-list/);

        const up = await stack.up();
        assert.deepEqual(up.summary.resourceChanges, { same: 7, update: 1 }, "an update, not a replacement");
        assert.equal((await emulator.client.vaults.get(ids.get("treasury")!)).state, "archived");

        const restoring = await review(base(), allowList);
        assert.equal(restoring.status, 0, restoring.stderr + restoring.stdout);
        assert.match(section(restoring.stdout, "Restored"), /^- \*\*Restore\*\*: .*resource `treasury`/m);
        await stack.up();
        const live = await emulator.client.vaults.get(ids.get("treasury")!);
        assert.equal(live.state, "active");
        assert.equal(live.id, ids.get("treasury"), "the same vault");
      });

      it("5. a secret name renamed and secret vault groups changed: each reported as a changed secret value", async () => {
        const declared = base();
        declared.vaults.hidden = { ...declared.vaults.hidden!, name: name("Hidden Renamed") };
        declared.vaults.grouped = {
          ...declared.vaults.grouped!,
          vaultGroupIds: [defaultGroup, treasuryGroup],
        };
        const out = await review(declared);
        assert.equal(out.status, 0, out.stderr + out.stdout);
        assert.doesNotMatch(out.stdout, /No vault or address changes/);
        assert.match(
          section(out.stdout, "Renamed"),
          new RegExp(
            `^- Vault with a secret name \\(\`solana\` on every \`solana\` chain, mainnets included; resource \`hidden\`, id \`${ids.get("hidden")}\`.*\\): \`name\`: changed \\(secret value\\)\\.$`,
            "m",
          ),
        );
        assert.match(
          section(out.stdout, "Vault groups"),
          new RegExp(
            `^- Vault \\*\\*${name("Grouped")}\\*\\* .*resource \`grouped\`.*: \`vaultGroupIds\`: changed \\(secret value\\)\\.$`,
            "m",
          ),
        );
        assert.doesNotMatch(out.stdout, new RegExp(`${name("Hidden")}|${treasuryGroup}`));
      });
    });
  }
});
