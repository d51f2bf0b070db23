/**
 * `custody review` as a pipeline runs it: the built bin, its arguments and exit codes, the policy results it
 * must not lose, and the preview it runs itself (`custody review -- <pulumi preview args>`), here with a
 * stand-in `pulumi` on PATH that prints an event stream and records how it was called. test/e2e/review.test.ts
 * runs the real CLI.
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type CustodyRun, fakePulumi, hasStackTrace, runCustody as run } from "./fake-pulumi";

function assertNoStackTrace(out: CustodyRun): void {
  assert.equal(hasStackTrace(out), false, `${out.stdout}\n${out.stderr}`);
}

const VAULT = "pulumi-nodejs:dynamic/custody:Vault";
const urn = (name: string) => `urn:pulumi:dev::review-program::${VAULT}::${name}`;
const line = (body: Record<string, unknown>) => JSON.stringify({ sequence: 1, timestamp: 0, ...body });
const createBtc = line({
  resourcePreEvent: {
    metadata: {
      op: "create",
      urn: urn("btc"),
      type: VAULT,
      old: null,
      new: {
        type: VAULT,
        urn: urn("btc"),
        id: "",
        inputs: { chain: "bitcoin_mainnet", name: "BTC", type: "utxo" },
      },
    },
  },
});
const summary = (result: string, packs: Record<string, string> = {}) =>
  line({ summaryEvent: { resourceChanges: { create: 1 }, PolicyPacks: packs, isPreview: true, result } });
const policyLoaded = line({ policyLoadEvent: {} });
const analyzed = line({
  policyAnalyzeSummaryEvent: {
    resourceUrn: urn("btc"),
    policyPackName: "pulumi-custody",
    policyPackVersion: "0.2.0",
    passed: ["custody-vault-protected"],
    failed: [],
  },
});
const PACKS = { "pulumi-custody|local|/work/policy": "0.2.0" };
const cancelled = line({ cancelEvent: {} });
const errorDiagnostic = (message: string) =>
  line({
    diagnosticEvent: { prefix: "error: ", message: `${message}\n`, color: "never", severity: "error" },
  });

/** A report of a preview that did not run claims no change and says nothing about policy results. */
function assertNotClaimed(report: string): void {
  assert.doesNotMatch(report, /No vault or address changes|planned no vault or address change/);
  assert.doesNotMatch(report, /policy results|No policy pack ran|Policy packs? .* ran/i);
  assert.doesNotMatch(report, /cannot be applied/);
}

describe("custody review: the command", () => {
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-review-command-"));
  });

  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function file(name: string, text: string): string {
    const target = path.join(dir, name);
    fs.writeFileSync(target, text);
    return target;
  }

  describe("6. arguments", () => {
    it("--help prints the usage and exits 0, without a stack trace", () => {
      const out = run(["review", "--help"]);
      assert.equal(out.status, 0);
      assert.match(out.stdout, /^usage: custody review /);
      assert.match(out.stdout, /custody review \[options\] -- /);
      assertNoStackTrace(out);
    });

    it("a file that does not exist: one line that says so without showing it, the usage, exit 2, no stack trace", () => {
      const out = run(["review", path.join(dir, "missing.json")]);
      assert.equal(out.status, 2);
      // Not shown: a FILE that does not exist may be a value typed without its flag.
      assert.match(
        out.stderr,
        /^custody review: FILE does not exist \(not shown, .*\): give the path of a saved/,
      );
      assert.ok(!out.stderr.includes("missing.json"), out.stderr);
      assertNoStackTrace(out);
    });

    it("an unknown option and a file together with `--` are usage errors (exit 2)", () => {
      const unknown = run(["review", "--frobnicate"]);
      assert.equal(unknown.status, 2);
      assert.match(unknown.stderr, /^custody review: unknown option --frobnicate/);
      const both = run(["review", file("p.json", "{}"), "--", "--diff"]);
      assert.equal(both.status, 2);
      assert.match(both.stderr, /either reads FILE or runs the preview/);
      assertNoStackTrace(unknown);
      assertNoStackTrace(both);
    });
  });

  describe("1. policy results", () => {
    it("the digest of `pulumi preview --json` cannot carry policy results: the report says so at the top", () => {
      const digest = file("digest.json", JSON.stringify({ steps: [], diagnostics: [] }));
      const out = run(["review", digest]);
      assert.equal(out.status, 0, out.stderr);
      const sections = [...out.stdout.matchAll(/^### (.*)$/gm)].map((m) => m[1]);
      assert.equal(sections[0], "⚠️ Policy results not in this input");
      assert.match(out.stdout, /PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true/);
    });

    it("--expect-policy makes a digest, or a stream without policy results, fail with exit 1 after the report", () => {
      const digest = file("digest2.json", JSON.stringify({ steps: [], diagnostics: [] }));
      const out = run(["review", "--expect-policy", digest]);
      assert.equal(out.status, 1);
      assert.match(out.stdout, /^### 🛑 Policy results missing$/m);
      assert.match(out.stderr, /^custody review: no policy results/m);

      const stream = file("no-pack.jsonl", [createBtc, summary("succeeded")].join("\n"));
      const fromStream = run(["review", "--expect-policy", stream]);
      assert.equal(fromStream.status, 1);
      assert.match(fromStream.stdout, /^### 🛑 Policy results missing$/m);
    });

    it("a stream whose policy pack loaded but judged nothing fails loudly without being asked (exit 1)", () => {
      const stream = file("loaded.jsonl", [policyLoaded, createBtc, summary("succeeded", PACKS)].join("\n"));
      const out = run(["review", stream]);
      assert.equal(out.status, 1);
      const sections = [...out.stdout.matchAll(/^### (.*)$/gm)].map((m) => m[1]);
      assert.equal(sections[0], "🛑 Policy results missing");
      assert.match(out.stdout, /pulumi-custody@0\.2\.0/);
    });

    it("a stream whose pack judged every resource says which pack ran, with no violation", () => {
      const stream = file(
        "judged.jsonl",
        [policyLoaded, createBtc, analyzed, summary("succeeded", PACKS)].join("\n"),
      );
      const out = run(["review", "--expect-policy", stream]);
      assert.equal(out.status, 0, out.stdout + out.stderr);
      assert.match(out.stdout, /^Policy pack `pulumi-custody@0\.2\.0` ran: no violations\.$/m);
    });
  });

  describe("custody review -- <pulumi preview args>: runs the preview itself", () => {
    it("asks for the event stream, passes the stack and the arguments after --, and runs in --cwd", () => {
      const fake = fakePulumi(
        dir,
        [policyLoaded, createBtc, analyzed, summary("succeeded", PACKS)].join("\n"),
        0,
      );
      const out = run(["review", "--stack", "prod", "--cwd", dir, "--", "--policy-pack", "/work/policy"], {
        env: fake.env(),
      });
      assert.equal(out.status, 0, out.stderr);
      const call = fake.lastCall();
      assert.deepEqual(call.args, [
        "preview",
        "--json",
        "--stack",
        "prod",
        "--non-interactive",
        "--policy-pack",
        "/work/policy",
      ]);
      assert.equal(fs.realpathSync(call.cwd), fs.realpathSync(dir));
      assert.equal(call.streaming, "true");
      assert.match(out.stdout, /Vault \*\*BTC\*\* \(`utxo` on `bitcoin_mainnet`, ⚠️ \*\*mainnet\*\*;/);
    });

    it("a policy pack among the arguments whose results never arrive: loud, exit 1", () => {
      const fake = fakePulumi(dir, [createBtc, summary("succeeded")].join("\n"), 0);
      const out = run(["review", "--", "--policy-pack", "/work/policy"], {
        env: fake.env(),
        cwd: dir,
      });
      assert.equal(out.status, 1);
      assert.match(out.stdout, /^### 🛑 Policy results missing$/m);
      assert.match(
        out.stderr,
        /^custody review: no policy results arrived although a policy pack was given/m,
      );
    });

    it("a preview that cannot be applied: the report, then exit 3", () => {
      const failed = [
        createBtc,
        line({ diagnosticEvent: { prefix: "error: ", message: "preview failed\n", severity: "error" } }),
        summary("failed"),
      ].join("\n");
      const fake = fakePulumi(dir, failed, 1);
      const out = run(["review", "--"], { env: fake.env(), cwd: dir });
      assert.equal(out.status, 3, out.stderr);
      assert.match(out.stdout, /^### 🛑 This change cannot be applied$/m);
    });

    it("a preview that printed no events (no such stack): the report says it did not run, and why; one line; exit 1", () => {
      const fake = fakePulumi(dir, "", 255, "error: no stack named 'nope' found\n");
      const out = run(["review", "--stack", "nope", "--"], { env: fake.env(), cwd: dir });
      assert.equal(out.status, 1);
      assert.match(
        out.stderr,
        /\ncustody review: the preview did not run: no stack named 'nope' found; the report says so\.\n$/,
      );
      assert.match(
        out.stdout,
        /^## Custody changes\n\n🛑 The preview did not run: `no stack named 'nope' found`\.\n/,
      );
      assertNotClaimed(out.stdout);
      assertNoStackTrace(out);
    });

    it("--out: a preview that printed no events still writes the report, the failure first (exit 1)", () => {
      const fake = fakePulumi(dir, "", 255, "error: no stack named 'nope' found\n");
      const target = path.join(dir, "unknown-stack.md");
      const out = run(["review", "--stack", "nope", "--out", target, "--"], { env: fake.env(), cwd: dir });
      assert.equal(out.status, 1, out.stderr);
      assert.equal(out.stdout, "");
      assert.ok(fs.existsSync(target), `no report written; stderr: ${out.stderr}`);
      const report = fs.readFileSync(target, "utf8");
      assert.match(
        report,
        /^## Custody changes\n\n🛑 The preview did not run: `no stack named 'nope' found`\.\n/,
      );
      assertNotClaimed(report);
      assertNoStackTrace(out);
    });

    describe("a policy pack that failed to load (a folder without PulumiPolicy.yaml)", () => {
      const reasonOf = (pack: string) =>
        `failed to load Pulumi policy project located at "${pack}": open ${pack}/PulumiPolicy.yaml: no such file or directory`;
      // The engine announces the load, then stops before planning: no step and no summary follow. Its reason
      // comes on standard error, or as an error diagnostic in the stream.
      const cases: [string, (reason: string) => { events: string[]; stderr: string }][] = [
        [
          "the reason on standard error",
          (reason) => ({ events: [policyLoaded, cancelled], stderr: `error: ${reason}\n` }),
        ],
        [
          "the reason as an error diagnostic",
          (reason) => ({ events: [policyLoaded, errorDiagnostic(reason), cancelled], stderr: "" }),
        ],
      ];
      for (const [name, shape] of cases) {
        it(`${name}: says so first, with the engine's reason, and claims no change and no policy result; exit 1`, () => {
          const pack = path.join(dir, "no-pack");
          const reason = reasonOf(pack);
          const { events, stderr } = shape(reason);
          const fake = fakePulumi(dir, events.join("\n"), 255, stderr);
          const target = path.join(dir, "no-pack.md");
          const out = run(["review", "--out", target, "--", "--policy-pack", pack], {
            env: fake.env(),
            cwd: dir,
          });
          assert.equal(out.status, 1, out.stderr);
          const report = fs.readFileSync(target, "utf8");
          assert.equal(report.split("\n")[2], `🛑 The policy pack failed to load: \`${reason}\`.`, report);
          assertNotClaimed(report);
          assert.match(
            out.stderr,
            /^custody review: the policy pack failed to load: failed to load Pulumi policy project .*; the report says so\.$/m,
          );
          assertNoStackTrace(out);
        });
      }

      it("a saved stream of it reads the same (FILE)", () => {
        const reason = reasonOf("/work/no-pack");
        const saved = file("no-pack.jsonl", [policyLoaded, errorDiagnostic(reason), cancelled].join("\n"));
        const out = run(["review", saved]);
        assert.equal(out.status, 1, out.stderr);
        assert.equal(out.stdout.split("\n")[2], `🛑 The policy pack failed to load: \`${reason}\`.`);
        assertNotClaimed(out.stdout);
      });
    });

    it("a preview that stopped part way (killed): says so first; what it planned is listed as incomplete; exit 1", () => {
      const fake = fakePulumi(dir, createBtc, 137);
      const out = run(["review", "--"], { env: fake.env(), cwd: dir });
      assert.equal(out.status, 1, out.stderr);
      const lines = out.stdout.split("\n");
      assert.equal(
        lines[2],
        "🛑 The preview stopped before it finished: `pulumi preview` exited 137 before the end of the preview.",
      );
      assert.match(lines[4] ?? "", /^What it planned before it stopped is below, and it may be incomplete/);
      assert.match(out.stdout, /^### Created\n\n- Vault \*\*BTC\*\*/m);
      assert.doesNotMatch(out.stdout, /change\(s\) to review first/);
      assertNotClaimed(out.stdout);
    });

    it("a saved stream cut short (no summary, no error): nothing in it is read as the plan; exit 1", () => {
      const saved = file("cut.jsonl", [createBtc, analyzed].join("\n"));
      const out = run(["review", saved]);
      assert.equal(out.status, 1, out.stderr);
      assert.equal(
        out.stdout.split("\n")[2],
        "🛑 The output of `pulumi preview --json` could not be read: the event stream ends before the preview's " +
          "summary (the preview stopped early, or the stream was cut short).",
      );
      assert.doesNotMatch(out.stdout, /^### /m);
      assertNotClaimed(out.stdout);
    });

    it("the reason is shown escaped, and without the value of a secret of the environment", () => {
      const token = "tok-0123456789abcdef";
      const fake = fakePulumi(dir, "", 255, `error: token ${token} refused\x1b]0;title\x07\n`);
      const target = path.join(dir, "secret.md");
      const out = run(["review", "--out", target, "--"], {
        env: { ...fake.env(), CUSTODY_ACCESS_TOKEN: token },
        cwd: dir,
      });
      assert.equal(out.status, 1, out.stderr);
      const report = fs.readFileSync(target, "utf8");
      assert.match(
        report,
        /^🛑 The preview did not run: `token \[REDACTED\] refused\\x1b\]0;title\\x07`\.$/m,
      );
      assert.ok(!report.includes(token) && !report.includes("\x1b"), report);
      const own = out.stderr.split("\n").find((l) => l.startsWith("custody review:")) ?? "";
      assert.match(own, /^custody review: the preview did not run: token \[REDACTED\] refused\\x1b/);
    });
  });
});
