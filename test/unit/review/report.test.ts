/**
 * The review report of a preview, from the real CLI's `pulumi preview --json` of a rename, a replacement, an
 * archive and two creates (test/fixtures/review). Replacements and archives come first, with ids, addresses
 * and the provider's own warning.
 */
import { strict as assert } from "node:assert";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { type PreviewJson, reviewReport } from "../../../review/report";

const root = path.resolve(__dirname, "..", "..", "..", "..");
const fixture = path.join(root, "test", "fixtures", "review", "preview-rename-replace-archive.json");
const expected = path.join(root, "test", "fixtures", "review", "expected-report.md");
const cli = path.join(root, "dist", "review", "cli.js");

describe("custody-review: the review report of a preview", () => {
  const preview = JSON.parse(fs.readFileSync(fixture, "utf8")) as PreviewJson;
  const report = reviewReport(preview);

  it("matches the expected Markdown", () => {
    assert.equal(report, fs.readFileSync(expected, "utf8"));
  });

  it("puts the replacement and the archive first, with ids, addresses and the provider's warning", () => {
    const sections = [...report.matchAll(/^### (.*)$/gm)].map((m) => m[1]);
    assert.deepEqual(sections, [
      "⚠️ Replaced: the old vault is archived and a new one, with a new address, is created",
      "⚠️ Archived",
      "Created",
      "Renamed",
    ]);
    assert.match(report, /2 change\(s\) to review first: 1 replaced, 1 archived\./);
    assert.match(
      report,
      /Vault \*\*Swap\*\* \(resource `swap`, id `4f461cb7-0c0c-4ebe-be01-97dd03a4b54d`, address `0x0a4b8752de92e40a9dcb9ffef0578a0c05c97c62`\): `type`: `"evm"` → `"solana"`/,
    );
    assert.match(
      report,
      /> vault "Swap" \(4f461cb7-[^)]*\) must be replaced .* will be ARCHIVED, not deleted/,
    );
    assert.match(
      report,
      /Vault \*\*Old\*\* \(resource `old`, id `7b002532-[^`]*`, address `7yip1[^`]*`\): archived, not deleted/,
    );
    assert.match(report, /Vault \*\*Treasury\*\* .*: `name`: `"Treasury"` → `"Treasury Main"`\./);
    assert.match(report, /Vault \*\*Fresh\*\* \(resource `fresh`\): type `aptos`\./);
    assert.match(report, /Address \*\*Change\*\* \(resource `change`\): in vault `79538d77-/);
  });

  it("says so when nothing changes, and leaves out resources that are not vaults or addresses", () => {
    const stackOnly: PreviewJson = {
      steps: [{ op: "same", urn: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev" }],
      diagnostics: [],
    };
    assert.equal(reviewReport(stackOnly), "## Custody changes\n\nNo vault or address changes.\n");
  });

  it("the bin reads a file or standard input, and names what is wrong with input that is not JSON", () => {
    assert.equal(execFileSync(process.execPath, [cli, fixture], { encoding: "utf8" }), report);
    assert.equal(
      execFileSync(process.execPath, [cli], { input: fs.readFileSync(fixture), encoding: "utf8" }),
      report,
    );
    const bad = spawnSync(process.execPath, [cli, "-"], {
      input: "Previewing update (dev)",
      encoding: "utf8",
    });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^custody-review: standard input is not the JSON/);
    assert.match(bad.stderr, /is not the JSON of `pulumi preview --json`/);
  });
});
