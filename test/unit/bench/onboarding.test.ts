/**
 * Figure 8 (bench/figures/onboarding.ts) from given round times: one comparison per N of `custody import` plus
 * `pulumi import --file` against the engine's no-op import, medians over the rounds, and the table of its notes.
 */
import { strict as assert } from "node:assert";
import { outcome, suggestedImportEnv } from "../../../bench/figures/onboarding";

describe("bench figure 8: onboarding", () => {
  it("one comparison per N: the sum of both commands over the no-op import, by medians", () => {
    const result = outcome([
      {
        n: 100,
        rounds: [
          { custodyImport: 3000, pulumiImport: 5000, noopImport: 4000 },
          { custodyImport: 2000, pulumiImport: 4000, noopImport: 3000 },
          { custodyImport: 9000, pulumiImport: 9000, noopImport: 9000 },
        ],
      },
      { n: 1000, rounds: [{ custodyImport: 12_000, pulumiImport: 48_000, noopImport: 40_000 }] },
    ]);
    assert.deepEqual(
      result.comparisons.map((c) => [c.label, c.ours.median, c.floors[0]!.value.median, c.ratio]),
      [
        ["custody import + pulumi import --file, N = 100 vaults", 8000, 4000, 2],
        ["custody import + pulumi import --file, N = 1000 vaults", 60_000, 40_000, 1.5],
      ],
    );
    assert.equal(result.comparisons[0]!.target, undefined, "a reference: no target");
    const table = result.notes.find((n) => n.startsWith("| N |"))!;
    assert.match(table, /^\| 100 \| 3\.00 s \| 5\.00 s \| 8\.00 s \| 4\.00 s \| 2\.00× \|$/m);
    assert.match(table, /^\| 1000 \| 12\.0 s \| 48\.0 s \| 60\.0 s \| 40\.0 s \| 1\.50× \|$/m);
    assert.equal(result.settings["rounds at N=100"], 3);
  });

  it("the import is run with the environment custody import's report names", () => {
    const report = [
      "Next: review Main.yaml, make it the program (Pulumi.yaml runtime: yaml), then",
      "  CUSTODY_REQUESTS_PER_MINUTE=900000 PULUMI_SKIP_CHECKPOINTS=true pulumi import --file custody-import.json --yes",
    ].join("\n");
    assert.deepEqual(suggestedImportEnv(report), {
      CUSTODY_REQUESTS_PER_MINUTE: "900000",
      PULUMI_SKIP_CHECKPOINTS: "true",
    });
    assert.deepEqual(suggestedImportEnv("  pulumi import --file f.json --yes"), {});
    assert.throws(() => suggestedImportEnv("Nothing to import"), /printed no `pulumi import` line/);
  });
});
