/**
 * The review report of a preview, from the real CLI's `pulumi preview --json` of a rename, a replacement, an
 * archive and two creates (cli/test/fixtures/review). Replacements and archives come first, with ids, addresses
 * and the provider's own warning.
 */
import { strict as assert } from "node:assert";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parsePreview } from "../../review/preview-input";
import { type PreviewJson, reviewReport } from "../../review/report";

// The compiled test runs from cli/dist/test/review: the fixtures are in cli/test/fixtures/review, the
// command is cli/dist/custody.js.
const fixtures = path.join(__dirname, "..", "..", "..", "test", "fixtures", "review");
const fixture = path.join(fixtures, "preview-rename-replace-archive.json");
const expected = path.join(fixtures, "expected-report.md");
const custody = path.join(__dirname, "..", "..", "custody.js");
const stream = path.join(fixtures, "preview-stream-rename-replace-create.jsonl");
const streamExpected = path.join(fixtures, "expected-stream-report.md");
const importStream = path.join(fixtures, "preview-stream-import-adopt.jsonl");
const importExpected = path.join(fixtures, "expected-import-adopt-report.md");

describe("custody review: the review report of a preview", () => {
  const preview = JSON.parse(fs.readFileSync(fixture, "utf8")) as PreviewJson;
  const report = reviewReport(preview);

  it("matches the expected Markdown", () => {
    assert.equal(report, fs.readFileSync(expected, "utf8"));
  });

  it("puts the replacement and the archive first, with ids, addresses and the provider's warning", () => {
    const sections = [...report.matchAll(/^### (.*)$/gm)].map((m) => m[1]);
    assert.deepEqual(sections, [
      "⚠️ Policy results not in this input",
      "⚠️ Replaced: the old vault is archived and a new one, with a new address, is created",
      "⚠️ Archived",
      "Created",
      "Renamed",
    ]);
    assert.match(report, /2 change\(s\) to review first: 1 replaced, 1 archived\./);
    assert.match(
      report,
      /Vault \*\*Swap\*\* \(`solana` on every `solana` chain, mainnets included; resource `swap`, id `4f461cb7-0c0c-4ebe-be01-97dd03a4b54d`, address `0x0a4b8752de92e40a9dcb9ffef0578a0c05c97c62`\): `type`: `"evm"` → `"solana"`/,
    );
    assert.match(
      report,
      /> vault "Swap" \(4f461cb7-[^)]*\) must be replaced .* will be ARCHIVED, not deleted/,
    );
    assert.match(
      report,
      /Vault \*\*Old\*\* \(`solana` on every `solana` chain, mainnets included; resource `old`, id `7b002532-[^`]*`, address `7yip1[^`]*`\): archived, not deleted/,
    );
    assert.match(report, /Vault \*\*Treasury\*\* .*: `name`: `"Treasury"` → `"Treasury Main"`\./);
    assert.match(
      report,
      /Vault \*\*Fresh\*\* \(`aptos` on every `aptos` chain, mainnets included; resource `fresh`\): created;/,
    );
    assert.match(report, /Address \*\*Change\*\* \(resource `change`\): in vault `79538d77-[^`]*`, created;/);
  });

  it("reports the provider plugin's resources (custody:index:*) as the dynamic provider's", () => {
    const text = JSON.stringify(preview);
    assert.ok(text.includes("pulumi-nodejs:dynamic/custody:VaultAddress"), "the fixture has both kinds");
    const ofPlugin = JSON.parse(
      text.replaceAll("pulumi-nodejs:dynamic/custody:", "custody:index:"),
    ) as PreviewJson;
    assert.equal(reviewReport(ofPlugin), report);
  });

  it("says so when nothing changes, and leaves out resources that are not vaults or addresses", () => {
    const stackOnly: PreviewJson = {
      steps: [{ op: "same", urn: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev" }],
      diagnostics: [],
    };
    assert.match(reviewReport(stackOnly), /^## Custody changes\n\nNo vault or address changes\.\n/);
    assert.doesNotMatch(reviewReport(stackOnly), /^- /m);
  });

  it("the bin reads a file or standard input, and names what is wrong with input that is not JSON", () => {
    assert.equal(execFileSync(process.execPath, [custody, "review", fixture], { encoding: "utf8" }), report);
    assert.equal(
      execFileSync(process.execPath, [custody, "review"], {
        input: fs.readFileSync(fixture),
        encoding: "utf8",
      }),
      report,
    );
    const bad = spawnSync(process.execPath, [custody, "review", "-"], {
      input: "Previewing update (dev)",
      encoding: "utf8",
    });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^custody review: standard input is not the JSON/);
    assert.match(bad.stderr, /is not the JSON of `pulumi preview --json`/);
  });

  describe("the event stream (PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi preview --json)", () => {
    const text = fs.readFileSync(stream, "utf8");

    it("reads the real CLI's stream into the same report: a replacement with its warning, a create, a rename", () => {
      const streamReport = reviewReport(parsePreview(text));
      assert.equal(streamReport, fs.readFileSync(streamExpected, "utf8"));
      assert.match(streamReport, /1 change\(s\) to review first: 1 replaced, 0 archived\./);
      assert.match(
        streamReport,
        /Vault \*\*Cold\*\* \(`utxo` on `bitcoin_mainnet`, ⚠️ \*\*mainnet\*\*; resource `cold`, id `79538d77-[^`]*`, address `tb1q[^`]*`\): `chain`: `"bitcoin_testnet"` → `"bitcoin_mainnet"`\.\n {2}> vault "Cold" .* must be replaced/,
      );
      assert.match(
        streamReport,
        /Vault \*\*Treasury Main\*\* \(`evm` on every `evm` chain, mainnets included; resource `hot`\): created;/,
      );
      assert.match(streamReport, /Vault \*\*Treasury\*\* .*: `name`: `"Treasury"` → `"Treasury Main"`\./);
      assert.doesNotMatch(streamReport, /Policy violations/);
      assert.equal(
        execFileSync(process.execPath, [custody, "review", stream], { encoding: "utf8" }),
        streamReport,
      );
    });

    it("lists policy violations first, under a heading per level, with the policy, the pack and the resource", () => {
      // Policy events in the shape of the engine's `policyEvent` (apitype.PolicyEvent): the message ends with
      // a newline and carries colour directives, as the engine sends it.
      const urn = (name: string) =>
        `urn:pulumi:review::custody-stack::pulumi-nodejs:dynamic/custody:Vault::${name}`;
      const policyEvent = (
        policyName: string,
        enforcementLevel: string,
        message: string,
        resourceUrn?: string,
      ) =>
        JSON.stringify({
          sequence: 100,
          timestamp: 0,
          policyEvent: {
            ...(resourceUrn ? { resourceUrn } : {}),
            message: `<{%fg 13%}>${message}<{%reset%}>\n`,
            color: "raw",
            policyName,
            policyPackName: "pulumi-custody",
            policyPackVersion: "0.1.0",
            policyPackVersionTag: "0.1.0",
            enforcementLevel,
          },
        });
      const withPolicies = [
        text.trimEnd(),
        policyEvent(
          "custody-vault-protected",
          "advisory",
          'Vault "Treasury Main" (resource treasury) is not protected',
          urn("treasury"),
        ),
        policyEvent(
          "custody-vault-allowed-utxo-chains",
          "mandatory",
          'Vault "Cold" (resource cold) is on the UTXO chain "bitcoin_mainnet"',
          urn("cold"),
        ),
        policyEvent(
          "custody-vault-unique-names",
          "mandatory",
          'Vault "Treasury Main" (resource hot) has the same name as resource treasury',
          "urn:pulumi:review::custody-stack::pulumi:pulumi:Stack::custody-stack-review",
        ),
      ].join("\n");
      const parsed = parsePreview(withPolicies);
      assert.equal(parsed.policyViolations?.length, 3);
      assert.equal(
        parsed.policyViolations?.[0]?.message,
        'Vault "Treasury Main" (resource treasury) is not protected',
      );
      const withReport = reviewReport(parsed);
      const sections = [...withReport.matchAll(/^### (.*)$/gm)].map((m) => m[1]);
      assert.deepEqual(sections.slice(0, 3), [
        "🛑 This change cannot be applied",
        "🛑 Mandatory policy violations",
        "⚠️ Advisory policy violations",
      ]);
      assert.match(
        withReport,
        /^This change cannot be applied: 2 mandatory policy violations\. Nothing below happens/m,
      );
      assert.match(
        withReport,
        /^Policy pack `pulumi-custody@0\.1\.0` ran: 2 mandatory, 1 advisory violation\(s\)\.$/m,
      );
      // One spelling of the pack: the name and version the engine's events give, in the line that says it ran
      // and on each violation.
      const spellings = new Set([...withReport.matchAll(/pulumi-custody@[^`)\s]+/g)].map((m) => m[0]));
      assert.deepEqual([...spellings], ["pulumi-custody@0.1.0"]);
      const items = (heading: string) =>
        withReport.split(`### ${heading}\n\n`)[1]!.split("\n\n")[0]!.split("\n");
      assert.deepEqual(items("🛑 This change cannot be applied"), [
        "- 2 mandatory policy violations (below).",
      ]);
      assert.deepEqual(items("🛑 Mandatory policy violations"), [
        '- **mandatory** `custody-vault-allowed-utxo-chains` (pulumi-custody@0.1.0), resource `cold`: Vault "Cold" (resource cold) is on the UTXO chain "bitcoin_mainnet"',
        '- **mandatory** `custody-vault-unique-names` (pulumi-custody@0.1.0), the stack: Vault "Treasury Main" (resource hot) has the same name as resource treasury',
      ]);
      assert.deepEqual(items("⚠️ Advisory policy violations"), [
        '- **advisory** `custody-vault-protected` (pulumi-custody@0.1.0), resource `treasury`: Vault "Treasury Main" (resource treasury) is not protected',
      ]);
    });

    describe("the first review after `custody import --provider dynamic` (each vault declared adoptExisting: true)", () => {
      const imported = reviewReport(parsePreview(fs.readFileSync(importStream, "utf8")));
      const vaults = ["treasury-eth", "btc-testnet-sandbox", "btc-cold-storage"];

      it("matches the expected Markdown", () => {
        assert.equal(imported, fs.readFileSync(importExpected, "utf8"));
      });

      it("names each vault once, by its name, and says that this up adopts it", () => {
        // A change's line (the policy violation about a vault names it too, but is no change).
        for (const resource of vaults) {
          const lines = imported
            .split("\n")
            .filter((l) => l.startsWith("- Vault ") && l.includes(`resource \`${resource}\``));
          assert.equal(lines.length, 1, `${resource}: ${lines.length} lines\n${imported}`);
        }
        const adopted = imported.split("### ⚠️ Adopted")[1]?.split("\n### ")[0] ?? "";
        for (const [name, resource] of [
          ["Treasury ETH", "treasury-eth"],
          ["BTC Testnet Sandbox", "btc-testnet-sandbox"],
          ["BTC Cold Storage", "btc-cold-storage"],
        ])
          assert.match(
            adopted,
            new RegExp(
              `^- Vault \\*\\*${name}\\*\\* \\(.*resource \`${resource}\`\\): adopted: this \`up\` takes over the active vault of this name, without creating one`,
              "m",
            ),
            imported,
          );
        assert.doesNotMatch(imported, /changes nothing now/);
        assert.doesNotMatch(imported, /Protection and adoption/);
        // The addresses are created (or adopted by their name in their vault) as before: under Created.
        const created = imported.split("### Created\n\n")[1]?.trim().split("\n") ?? [];
        assert.equal(created.length, 6, imported);
        for (const line of created) assert.match(line, /^- Address \*\*/);
      });
    });

    it("names the line of a stream that is not JSON", () => {
      const broken = `${text.split("\n").slice(0, 3).join("\n")}\nPreviewing update (dev)\n`;
      assert.throws(() => parsePreview(broken), /^Error: line 4: /);
      const bad = spawnSync(process.execPath, [custody, "review", "-"], { input: broken, encoding: "utf8" });
      assert.equal(bad.status, 2);
      assert.match(
        bad.stderr,
        /^custody review: standard input is not the JSON of `pulumi preview --json`: line 4: /,
      );
    });
  });
});
