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

    it("a preview that printed no events (no such stack): one line with pulumi's reason, exit 1", () => {
      const fake = fakePulumi(dir, "", 255, "error: no stack named 'nope' found\n");
      const out = run(["review", "--stack", "nope", "--"], { env: fake.env(), cwd: dir });
      assert.equal(out.status, 1);
      assert.match(
        out.stderr,
        /custody review: `pulumi preview` failed \(exit 255\): error: no stack named 'nope' found\n$/,
      );
      assert.equal(out.stdout, "");
      assertNoStackTrace(out);
    });
  });
});
