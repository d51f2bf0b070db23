/**
 * `custody drift`: the verdict on refresh-previews in the shapes the real CLI streams (CLI 3.248.0 and 3.274.1
 * stream the same), the reports it writes, their JSON schema (cli/drift/report.schema.json), and the command
 * with a stand-in `pulumi`. test/e2e/drift.test.ts runs the real CLI against the emulator.
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { SEE_ANOTHER_RESOURCE } from "pulumi-custody/core";
import { type DriftReport, driftReport } from "../drift/drift";
import { driftMarkdown } from "../drift/markdown";
import { parsePreview } from "../review/preview-input";
import { fakePulumi, hasStackTrace, runCustody } from "./fake-pulumi";

// cli/drift/report.schema.json, from the compiled test in cli/dist/test.
const schema = JSON.parse(
  fs.readFileSync(path.join(__dirname, "..", "..", "drift", "report.schema.json"), "utf8"),
);

const SECRET = {
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  ciphertext: "[secret]",
};
const VAULT = "custody:index:Vault";
const ADDRESS = "pulumi-nodejs:dynamic/custody:VaultAddress";
const urn = (type: string, name: string) => `urn:pulumi:production::gitops::${type}::${name}`;

interface State {
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

const line = (body: Record<string, unknown>) => JSON.stringify({ sequence: 1, timestamp: 0, ...body });
const full = (type: string, name: string, s: State | null) =>
  s && { type, urn: urn(type, name), custom: true, id: s.id ?? "", inputs: {}, outputs: {}, ...s };

/** A refresh as the stream has it: the pre-event shows the state before, the outputs event what was read. */
function refresh(type: string, name: string, before: State, after: State | null): string[] {
  const meta = (now: State | null) => ({
    op: "refresh",
    urn: urn(type, name),
    type,
    old: full(type, name, before),
    new: full(type, name, now),
  });
  return [
    line({ resourcePreEvent: { metadata: meta(before) } }),
    line({ resOutputsEvent: { metadata: meta(after) } }),
  ];
}

function step(
  op: string,
  type: string,
  name: string,
  live: State | null,
  declared: State | null,
  keys?: string[],
) {
  const metadata = {
    op,
    urn: urn(type, name),
    type,
    old: full(type, name, live),
    new: full(type, name, declared),
    ...(keys ? { keys } : {}),
  };
  return line({ resourcePreEvent: { metadata } });
}

const error = (message: string, resource?: string) =>
  line({
    diagnosticEvent: {
      ...(resource ? { urn: resource } : {}),
      prefix: "error: ",
      message: `${message}\n`,
      severity: "error",
    },
  });
const summary = (result: string) =>
  line({ summaryEvent: { resourceChanges: {}, PolicyPacks: {}, isPreview: true, result } });

const PAYMENTS_ID = "0d8957b4-c172-4696-ba52-7a7a77889c37";
const BITCOIN_ID = "ee4186b7-0e74-46b4-9dbe-c755055df473";
const payments = (name: string, modifiedAt: string): State => ({
  id: PAYMENTS_ID,
  inputs: { name, type: "evm" },
  outputs: { name, type: "evm", state: "active", details: { createdAt: "2026-01-01T00:00:00Z", modifiedAt } },
});
const bitcoin = (nextAddressName: string, modifiedAt: string): State => ({
  id: BITCOIN_ID,
  inputs: { chain: "bitcoin_testnet", name: "Bitcoin", type: "utxo" },
  outputs: {
    name: "Bitcoin",
    chain: "bitcoin_testnet",
    type: "utxo",
    state: "active",
    details: { modifiedAt, nextAddressName, defaultAddressName: "Address 1" },
  },
});
const settlement: State = {
  id: "8086a557-08b4-404f-888f-0fd934e5a05b",
  inputs: { name: "Settlement", vaultId: BITCOIN_ID },
  outputs: {
    name: "Settlement",
    vaultId: BITCOIN_ID,
    addressType: "segwit",
    modifiedAt: "2026-01-02T00:00:00Z",
  },
};
const settlementLive: State = { ...settlement, inputs: { ...settlement.inputs, addressType: "segwit" } };

function check(lines: string[], exitCode = 0, lastError?: string): DriftReport {
  return driftReport({
    preview: parsePreview(lines.join("\n")),
    exitCode,
    lastError,
    checkedAt: new Date("2026-11-27T03:17:00Z"),
  });
}

describe("custody drift", () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const assertValid = (report: unknown) =>
    assert.ok(validate(report), JSON.stringify(validate.errors, null, 2));

  describe("the verdict", () => {
    it("output-only churn is not drift: a new address's nextAddressName, modifiedAt, an output-only refresh diff", () => {
      const report = check([
        ...refresh(
          VAULT,
          "payments",
          payments("Payments", "2026-01-01T00:00:00Z"),
          payments("Payments", "2026-03-01T00:00:00Z"),
        ),
        ...refresh(
          VAULT,
          "bitcoin",
          bitcoin("Address 2", "2026-01-01T00:00:00Z"),
          bitcoin("Address 4", "2026-01-01T00:00:00Z"),
        ),
        ...refresh(ADDRESS, "settlement", settlement, settlementLive),
        step("same", VAULT, "payments", payments("Payments", "2026-03-01T00:00:00Z"), {
          inputs: { name: "Payments", type: "evm" },
        }),
        step("same", VAULT, "bitcoin", bitcoin("Address 4", "2026-01-01T00:00:00Z"), {
          inputs: bitcoin("", "").inputs,
        }),
        step("same", ADDRESS, "settlement", settlementLive, { inputs: settlement.inputs }),
        summary("succeeded"),
      ]);
      assert.equal(report.status, "clean");
      assert.equal(report.exitCode, 0);
      assert.equal(report.resourcesChecked, 3);
      assert.equal(report.stack, "production");
      assertValid(report);
      assert.match(
        driftMarkdown(report),
        /^✅ \*\*No drift\*\*: every custody resource is as the program declares it \(3 checked\)\.$/m,
      );
    });

    it("a rename in the console: the field once, declared and live, with the vault's id, name and modified_at", () => {
      const live = payments("renamed in the console", "2026-11-26T22:00:00Z");
      const declared = { inputs: { name: "Payments", type: "evm" } };
      const report = check([
        ...refresh(VAULT, "payments", payments("Payments", "2026-01-01T00:00:00Z"), live),
        step("update", VAULT, "payments", live, declared),
        summary("succeeded"),
      ]);
      assert.equal(report.status, "drift");
      assert.equal(report.exitCode, 3);
      assertValid(report);
      assert.deepEqual(report.drifted, [
        {
          urn: urn(VAULT, "payments"),
          resource: "payments",
          kind: "Vault",
          operation: "update",
          vaultId: PAYMENTS_ID,
          vaultName: "renamed in the console",
          addressId: null,
          modifiedAt: "2026-11-26T22:00:00Z",
          fields: [
            {
              field: "name",
              declared: "Payments",
              live: "renamed in the console",
              secret: false,
              certain: true,
            },
          ],
          note: null,
        },
      ]);
      const markdown = driftMarkdown(report);
      assert.match(markdown, /^⚠️ \*\*Drift\*\*: 1 custody resource\(s\) differ/m);
      assert.match(
        markdown,
        new RegExp(
          `^\\| \\*\\*renamed in the console\\*\\* \\| \`${PAYMENTS_ID}\` \\| \`payments\` \\(vault\\) \\| \`name\` \\| \`"Payments"\` \\| \`"renamed in the console"\` \\| 2026-11-26T22:00:00Z \\|$`,
          "m",
        ),
      );
    });

    it("a replacement's three steps are one drifted resource, each field once", () => {
      const live = { ...bitcoin("Address 2", "2026-01-01T00:00:00Z") };
      live.inputs = { ...live.inputs, chain: "bitcoin_testnet_v4" };
      const declared = { inputs: bitcoin("", "").inputs };
      const report = check([
        ...refresh(VAULT, "bitcoin", bitcoin("Address 2", "2026-01-01T00:00:00Z"), live),
        step("create-replacement", VAULT, "bitcoin", live, declared, ["chain"]),
        step("replace", VAULT, "bitcoin", live, declared, ["chain"]),
        step("delete-replaced", VAULT, "bitcoin", live, null),
        summary("succeeded"),
      ]);
      assert.equal(report.drifted.length, 1);
      assert.equal(report.drifted[0]?.operation, "replace");
      assert.deepEqual(
        report.drifted[0]?.fields.map((f) => [f.field, f.declared, f.live]),
        [["chain", "bitcoin_testnet", "bitcoin_testnet_v4"]],
      );
      assertValid(report);
    });

    it("a vault archived in the console: its state, declared active, live archived", () => {
      const live = payments("Payments", "2026-11-26T22:00:00Z");
      live.outputs = { ...live.outputs, state: "archived" };
      const report = check([
        ...refresh(VAULT, "payments", payments("Payments", "2026-01-01T00:00:00Z"), live),
        step("update", VAULT, "payments", live, { inputs: { name: "Payments", type: "evm" } }),
        summary("succeeded"),
      ]);
      assert.deepEqual(report.drifted[0]?.fields, [
        { field: "state", declared: "active", live: "archived", secret: false, certain: true },
      ]);
      assertValid(report);
    });

    it("vault groups compare as the provider does: a set, the live one from the outputs when the read's inputs lack it", () => {
      const [groupA, groupB, groupC] = [
        "405a1a60-7075-4457-9d86-26046a4f1930",
        "7d1e9b0c-2f4a-4c3b-9e8d-1a2b3c4d5e6f",
        "0b9f6a2e-51c3-4d7e-8a90-1b2c3d4e5f60",
      ];
      // A vault taken in by `pulumi import`: its state has no declared membership yet, so the read's inputs
      // leave vaultGroupIds out; the outputs have the live membership, in the API's order.
      const renamed = payments("renamed", "2026-11-26T22:00:00Z");
      renamed.outputs = { ...renamed.outputs, vaultGroupIds: [groupB, groupA] };
      const declared = {
        inputs: { name: "Payments", type: "evm", vaultGroupIds: [groupA, groupB.toUpperCase()] },
      };
      const sameGroups = check([
        ...refresh(VAULT, "payments", payments("Payments", "2026-01-01T00:00:00Z"), renamed),
        step("update", VAULT, "payments", renamed, declared),
        summary("succeeded"),
      ]);
      assert.deepEqual(
        sameGroups.drifted[0]?.fields.map((f) => f.field),
        ["name"],
        "the same groups, in another order and case, are not drift",
      );
      // Moved to another group in the console (one proposal approved, another pending): the live membership is
      // what the provider compares with, the groups once the pending proposal is approved.
      const moved = payments("Payments", "2026-11-26T22:00:00Z");
      moved.outputs = {
        ...moved.outputs,
        vaultGroupIds: [groupA, groupB],
        pendingVaultGroupIds: [groupC],
        pendingRemovalVaultGroupIds: [groupB],
      };
      const report = check([
        ...refresh(VAULT, "payments", payments("Payments", "2026-01-01T00:00:00Z"), moved),
        step("update", VAULT, "payments", moved, {
          inputs: { name: "Payments", type: "evm", vaultGroupIds: [groupA, groupB] },
        }),
        summary("succeeded"),
      ]);
      assert.deepEqual(report.drifted[0]?.fields, [
        {
          field: "vaultGroupIds",
          declared: [groupA, groupB],
          live: [groupA, groupC],
          secret: false,
          certain: true,
        },
      ]);
      assertValid(report);
    });

    it("an input the program leaves unset is the service's choice, never drift", () => {
      const live = { ...settlementLive, inputs: { ...settlementLive.inputs, name: "Renamed" } };
      const report = check([
        ...refresh(ADDRESS, "settlement", settlement, live),
        step("update", ADDRESS, "settlement", live, { inputs: settlement.inputs }),
        summary("succeeded"),
      ]);
      assert.deepEqual(
        report.drifted[0]?.fields.map((f) => f.field),
        ["name"],
        "addressType is live but not declared",
      );
      assert.equal(report.drifted[0]?.vaultId, BITCOIN_ID);
      assert.equal(report.drifted[0]?.addressId, settlement.id);
      assert.equal(report.drifted[0]?.modifiedAt, "2026-01-02T00:00:00Z");
      assertValid(report);
    });

    it("secrets: a lone one that explains the change differs for sure; values are never shown", () => {
      const hidden = {
        id: PAYMENTS_ID,
        inputs: { name: SECRET, type: "evm" },
        outputs: { name: SECRET, state: "active" },
      };
      const report = check([
        ...refresh(VAULT, "hidden", hidden, hidden),
        step("update", VAULT, "hidden", hidden, { inputs: hidden.inputs }),
        summary("succeeded"),
      ]);
      assert.deepEqual(report.drifted[0]?.fields, [
        { field: "name", declared: null, live: null, secret: true, certain: true },
      ]);
      assert.equal(report.drifted[0]?.vaultName, null);
      assertValid(report);
      const markdown = driftMarkdown(report);
      assert.match(markdown, /\| \(name not shown\) \| .* \| `name` \| secret \| secret \|/);
      assert.doesNotMatch(
        `${markdown}${JSON.stringify(report)}`,
        /ciphertext|1b47061264138c4ac30d75fd1eb44270/,
      );

      const two = { ...hidden, inputs: { ...hidden.inputs, vaultGroupIds: SECRET } };
      const either = check([
        ...refresh(VAULT, "hidden", two, two),
        step("update", VAULT, "hidden", two, { inputs: two.inputs }),
        summary("succeeded"),
      ]);
      assert.deepEqual(
        either.drifted[0]?.fields.map((f) => [f.field, f.certain]),
        [
          ["name", false],
          ["vaultGroupIds", false],
        ],
      );
      assert.match(driftMarkdown(either), /`vaultGroupIds` \(secret; may differ\)/);
      assertValid(either);
    });

    it("a resource gone from the API, one never created, one no longer declared: a note each", () => {
      const report = check([
        ...refresh(VAULT, "payments", payments("Payments", "2026-01-01T00:00:00Z"), null),
        step("create", VAULT, "payments", null, { inputs: { name: "Payments", type: "evm" } }),
        step("create", VAULT, "fresh", null, { inputs: { name: "Fresh", type: "evm" } }),
        ...refresh(
          VAULT,
          "bitcoin",
          bitcoin("Address 2", "2026-01-01T00:00:00Z"),
          bitcoin("Address 2", "2026-01-01T00:00:00Z"),
        ),
        step("delete", VAULT, "bitcoin", bitcoin("Address 2", "2026-01-01T00:00:00Z"), null),
        summary("succeeded"),
      ]);
      const notes = Object.fromEntries(
        report.drifted.map((r) => [r.resource, [r.vaultId, r.modifiedAt, r.note]]),
      );
      assert.deepEqual(notes, {
        payments: [
          PAYMENTS_ID,
          null,
          "the vault no longer exists in the API; the next `pulumi up` creates it again",
        ],
        fresh: [null, null, "declared but not in the stack: the last `pulumi up` did not create it"],
        bitcoin: [
          BITCOIN_ID,
          "2026-01-01T00:00:00Z",
          "in the stack but no longer declared: the next `pulumi up` removes it",
        ],
      });
      assertValid(report);
      assert.match(driftMarkdown(report), /^- `payments` \(vault\): the vault no longer exists in the API/m);
    });
  });

  describe("a check that could not run (exit 1), never mistaken for drift", () => {
    it("a refused token: the reason that says why, not the provider's pointer to it or the CLI's last word", () => {
      // The provider's own pointer text, so that a change of its wording cannot pass unnoticed.
      const pointer = `Preview failed: custody:accessToken does not work: ${SEE_ANOTHER_RESOURCE}.`;
      const why =
        "Preview failed: The custody API at http://127.0.0.1:1 refused the access token from the CUSTODY_ACCESS_TOKEN environment variable (401 Unauthorized): it is wrong, expired or revoked.";
      const report = check(
        [
          ...refresh(
            VAULT,
            "payments",
            payments("Payments", "2026-01-01T00:00:00Z"),
            payments("Payments", "2026-01-01T00:00:00Z"),
          ),
          error(pointer, urn(VAULT, "bitcoin")),
          error(why, urn(VAULT, "payments")),
          error("preview failed"),
          summary("failed"),
        ],
        1,
      );
      assert.equal(report.status, "failed");
      assert.equal(report.exitCode, 1);
      assert.equal(
        report.reason,
        "authentication refused by the custody API at http://127.0.0.1:1 (401) for the token in CUSTODY_ACCESS_TOKEN: it is wrong, expired or revoked; set a valid one and run the check again",
      );
      assert.deepEqual(report.drifted, []);
      assertValid(report);
      assert.match(
        driftMarkdown(report),
        /^🛑 \*\*The drift check could not run\*\*: authentication refused by the custody API/m,
      );
    });

    // The provider's message for a token from stack config, as the engine prints it (provider/core/settings,
    // `recordedTokenRefused`): it cannot know which command configured the provider, so it describes them all.
    const RECORDED_REFUSED =
      "Preview failed: The custody API at http://127.0.0.1:41234 refused the access token custody:accessToken that the provider was configured with (401 Unauthorized). `pulumi refresh`, `pulumi destroy` and the refresh step of `pulumi preview --refresh` and `pulumi up --refresh` configure the provider from the state, with the custody:accessToken the last `pulumi up` recorded, not from the current stack config. If the token was rotated since that `up`, run `pulumi up` once to record the new one, or add --run-program to use the current stack config: `pulumi refresh --run-program`, and for the drift check `pulumi preview --refresh --run-program --expect-no-changes`. Otherwise the token is wrong, expired or revoked: set a valid one with `pulumi config set --secret custody:accessToken <token>` or the CUSTODY_ACCESS_TOKEN environment variable.";
    const refusedCheck = (message: string, runProgram: boolean) =>
      driftReport({
        preview: parsePreview(
          [error(message, urn(VAULT, "payments")), error("preview failed"), summary("failed")].join("\n"),
        ),
        exitCode: 255,
        checkedAt: new Date("2026-11-27T03:17:00Z"),
        runProgram,
      });

    it("a refused token from stack config: one short reason, true of the run (with --run-program: the stack config)", () => {
      const report = refusedCheck(RECORDED_REFUSED, true);
      assert.equal(
        report.reason,
        "authentication refused by the custody API at http://127.0.0.1:41234 (401) for custody:accessToken of the stack config (the check runs with --run-program): it is wrong, expired or revoked; set a valid one with `pulumi config set --secret custody:accessToken <token>`",
      );
      // Nothing of the provider's cases that do not apply to a run with --run-program.
      assert.doesNotMatch(report.reason ?? "", /from the state|add --run-program|environment variable/);
      assertValid(report);
    });

    it("a refused token without --run-program: the two tokens the run may have used, and what to do", () => {
      const report = refusedCheck(RECORDED_REFUSED, false);
      assert.equal(
        report.reason,
        "authentication refused by the custody API at http://127.0.0.1:41234 (401) for custody:accessToken (the stack config's, or in the refresh the one the last `pulumi up` recorded): set a valid one with `pulumi config set --secret custody:accessToken <token>`; after a rotation, also pass `-- --run-program`",
      );
      assert.ok((report.reason ?? "").length <= 320, `${report.reason?.length} characters`);
    });

    it("a refused token from the environment: named as such", () => {
      const report = refusedCheck(
        "Preview failed: The custody API at http://127.0.0.1:1 refused the access token from the CUSTODY_ACCESS_TOKEN environment variable (401 Unauthorized): it is wrong, expired or revoked. Set the CUSTODY_ACCESS_TOKEN environment variable.",
        false,
      );
      assert.equal(
        report.reason,
        "authentication refused by the custody API at http://127.0.0.1:1 (401) for the token in CUSTODY_ACCESS_TOKEN: it is wrong, expired or revoked; set a valid one and run the check again",
      );
    });

    it("any other reason is bounded: one line of at most 400 characters", () => {
      const report = refusedCheck(`Preview failed: ${"the service said no. ".repeat(100)}`, false);
      assert.equal(report.reason?.length, 400);
      assert.ok(report.reason?.endsWith("…"));
      assertValid(report);
    });

    it("the command tells the check whether the preview ran with --run-program", () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-drift-refused-"));
      try {
        const fake = fakePulumi(
          dir,
          [error(RECORDED_REFUSED, urn(VAULT, "payments")), summary("failed")].join("\n"),
          255,
        );
        const json = path.join(dir, "drift.json");
        const out = runCustody(["drift", "--json", json, "--", "--run-program"], {
          env: fake.env(),
          cwd: dir,
        });
        assert.equal(out.status, 1, out.stderr);
        const report = JSON.parse(fs.readFileSync(json, "utf8")) as DriftReport;
        assert.match(
          report.reason ?? "",
          /for custody:accessToken of the stack config \(the check runs with --run-program\)/,
        );
        assert.equal(out.stderr, `custody drift: the drift check could not run: ${report.reason}\n`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("an error beside planned changes still fails the check: it did not read everything", () => {
      const live = payments("renamed", "2026-01-01T00:00:00Z");
      const report = check(
        [
          ...refresh(VAULT, "payments", live, live),
          step("update", VAULT, "payments", live, { inputs: { name: "Payments", type: "evm" } }),
          error(
            "Preview failed: the custody API at http://10.0.0.1 cannot be reached: connect ECONNREFUSED",
            urn(VAULT, "bitcoin"),
          ),
          summary("failed"),
        ],
        1,
      );
      assert.equal(report.status, "failed");
      assert.match(report.reason ?? "", /cannot be reached: connect ECONNREFUSED$/);
      assertValid(report);
    });

    it("a program error: one line, no stack trace", () => {
      const report = check(
        [
          error(
            "Running program '/work/index.js' failed with an unhandled exception:\nError: Missing required configuration variable 'gitops:vaultGroupId'\n    at Config.require (/work/node_modules/@pulumi/pulumi/config.js:1:1)\n    at Object.<anonymous> (/work/index.js:9:1)",
          ),
          summary("failed"),
        ],
        1,
      );
      assert.equal(
        report.reason,
        "Running program '/work/index.js' failed with an unhandled exception: Error: Missing required configuration variable 'gitops:vaultGroupId'",
      );
      assertValid(report);
    });

    it("a non-zero exit without any change or error diagnostic fails with the CLI's last line", () => {
      const report = check([summary("succeeded")], 255, "error: could not read the backend: 403 Forbidden");
      assert.equal(report.status, "failed");
      assert.equal(report.reason, "could not read the backend: 403 Forbidden");
      assertValid(report);
    });

    it("a non-zero exit with changes and no error is drift (e.g. --expect-no-changes passed through)", () => {
      const live = payments("renamed", "2026-01-01T00:00:00Z");
      const report = check(
        [
          ...refresh(VAULT, "payments", live, live),
          step("update", VAULT, "payments", live, { inputs: { name: "Payments", type: "evm" } }),
          summary("succeeded"),
        ],
        7,
        "error: no changes were expected for preview but changes were proposed",
      );
      assert.equal(report.status, "drift");
      assertValid(report);
    });
  });

  describe("the schema", () => {
    it("is not vacuous: it refuses a drift without drifted resources, a failure without a reason, a shown secret", () => {
      const clean = check([summary("succeeded")]);
      assertValid(clean);
      assert.equal(validate({ ...clean, status: "drift", exitCode: 3 }), false);
      assert.equal(validate({ ...clean, status: "failed", exitCode: 1 }), false);
      assert.equal(validate({ ...clean, status: "failed", exitCode: 1, reason: "two\nlines" }), false);
      assert.equal(validate({ ...clean, extra: true }), false);
      const live = payments("renamed", "2026-01-01T00:00:00Z");
      const drift = check([
        ...refresh(VAULT, "p", live, live),
        step("update", VAULT, "p", live, { inputs: { name: "P", type: "evm" } }),
        summary("succeeded"),
      ]);
      const field = drift.drifted[0]!.fields[0]!;
      const shownSecret = {
        ...drift,
        drifted: [{ ...drift.drifted[0], fields: [{ ...field, secret: true }] }],
      };
      assert.equal(validate(shownSecret), false);
    });
  });

  describe("the command", () => {
    let dir: string;
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-drift-command-"));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const renamed = payments("renamed", "2026-11-26T22:00:00Z");
    const driftEvents = [
      ...refresh(VAULT, "payments", payments("Payments", "2026-01-01T00:00:00Z"), renamed),
      step("update", VAULT, "payments", renamed, { inputs: { name: "Payments", type: "evm" } }),
      summary("succeeded"),
    ].join("\n");

    it("runs the refresh-preview with the stack, the cwd and the arguments after --, and writes both reports", () => {
      const fake = fakePulumi(dir, driftEvents, 0);
      const markdown = path.join(dir, "drift.md");
      const json = path.join(dir, "drift.json");
      const out = runCustody(
        [
          "drift",
          "--stack",
          "production",
          "--cwd",
          dir,
          "--markdown",
          markdown,
          "--json",
          json,
          "--",
          "--run-program",
        ],
        { env: fake.env() },
      );
      assert.equal(out.status, 3, out.stderr);
      const call = fake.lastCall();
      assert.deepEqual(call.args, [
        "preview",
        "--json",
        "--stack",
        "production",
        "--non-interactive",
        "--refresh",
        "--run-program",
      ]);
      assert.equal(call.streaming, "true");
      assert.equal(fs.realpathSync(call.cwd), fs.realpathSync(dir));
      assert.equal(out.stdout, "", "the Markdown went to its file");
      assert.equal(out.stderr, "custody drift: drift in 1 custody resource(s): payments (name)\n");
      const report = JSON.parse(fs.readFileSync(json, "utf8")) as DriftReport;
      assertValid(report);
      assert.equal(report.drifted[0]?.vaultName, "renamed");
      assert.equal(fs.readFileSync(markdown, "utf8"), driftMarkdown(report));
    });

    it("exit 0 without drift; the Markdown on standard output when no file is given", () => {
      const fake = fakePulumi(
        dir,
        [...refresh(VAULT, "payments", renamed, renamed), summary("succeeded")].join("\n"),
        0,
      );
      const out = runCustody(["drift"], { env: fake.env(), cwd: dir });
      assert.equal(out.status, 0, out.stderr);
      assert.match(out.stdout, /^## Custody drift check `production`\n\n✅ \*\*No drift\*\*/);
      assert.equal(out.stderr, "custody drift: no drift (1 custody resources checked)\n");
    });

    it("exit 1 with the reason in one line, and the reports still written, when the CLI printed no events", () => {
      const fake = fakePulumi(dir, "", 255, "error: no stack named 'nope' found\n");
      const json = path.join(dir, "failed.json");
      const out = runCustody(["drift", "--stack", "nope", "--json", json], { env: fake.env(), cwd: dir });
      assert.equal(out.status, 1);
      assert.match(
        out.stderr,
        /^custody drift: the drift check could not run: `pulumi preview` exited 255: error: no stack named 'nope' found\n$/m,
      );
      const report = JSON.parse(fs.readFileSync(json, "utf8")) as DriftReport;
      assertValid(report);
      assert.equal(report.stack, "nope");
      assert.equal(hasStackTrace(out), false);
    });

    it("a report that cannot be written: one line naming its directory, before any preview runs (no verdict)", () => {
      const fake = fakePulumi(dir, driftEvents, 0);
      const out = runCustody(["drift", "--json", path.join("missing", "drift.json")], {
        env: fake.env(),
        cwd: dir,
      });
      assert.equal(out.status, 1);
      assert.equal(
        out.stderr,
        "custody drift: cannot write missing/drift.json (the JSON report): the directory missing does not exist; create it, or choose another --json\n",
      );
      assert.equal(out.stdout, "");
      assert.ok(!fs.existsSync(path.join(fake.bin, "call.json")), "no preview ran");
    });

    it("a preview whose stream stops before its end (exit 0): could not run, never 'no drift'", () => {
      const renamedOnly = refresh(VAULT, "payments", renamed, renamed).join("\n");
      const fake = fakePulumi(dir, renamedOnly, 0);
      const json = path.join(dir, "cut.json");
      const out = runCustody(["drift", "--json", json], { env: fake.env(), cwd: dir });
      assert.equal(out.status, 1, out.stderr);
      assert.match(out.stderr, /^custody drift: the drift check could not run: /m);
      assert.doesNotMatch(`${out.stdout}${out.stderr}`, /no drift|No drift/);
      assertValid(JSON.parse(fs.readFileSync(json, "utf8")));
    });

    it("a preview that exits non-zero with neither an error nor a change: could not run, never 'no drift'", () => {
      const fake = fakePulumi(
        dir,
        [...refresh(VAULT, "payments", renamed, renamed), summary("succeeded")].join("\n"),
        1,
        "error: the update was cancelled\n",
      );
      const out = runCustody(["drift"], { env: fake.env(), cwd: dir });
      assert.equal(out.status, 1, out.stderr);
      assert.match(out.stderr, /^custody drift: the drift check could not run: the update was cancelled$/m);
      assert.doesNotMatch(`${out.stdout}${out.stderr}`, /no drift|No drift/);
    });

    it("exit 1 when the Pulumi CLI is not on PATH", () => {
      const json = path.join(dir, "no-cli.json");
      const out = runCustody(["drift", "--json", json], { env: { ...process.env, PATH: dir }, cwd: dir });
      assert.equal(out.status, 1);
      assert.match(
        out.stderr,
        /custody drift: the drift check could not run: the Pulumi CLI \(`pulumi`\) is not on PATH\n$/,
      );
      assertValid(JSON.parse(fs.readFileSync(json, "utf8")));
    });

    it("--help, and bad arguments: the usage, or one line pointing to it; exit 0 and 2, no stack trace", () => {
      const help = runCustody(["drift", "--help"]);
      assert.equal(help.status, 0);
      assert.match(help.stdout, /^usage: custody drift /);
      const bad = runCustody(["drift", "--json"]);
      assert.equal(bad.status, 2);
      assert.equal(bad.stderr, "custody drift: option --json needs a value; see `custody drift --help`\n");
      const extra = runCustody(["drift", "production"]);
      assert.equal(extra.status, 2);
      // Named by its position, never shown: an argument without its flag may be a secret.
      assert.match(
        extra.stderr,
        /^custody drift: unexpected argument 1 \(counted after the command; not shown/,
      );
      assert.ok(!extra.stderr.includes("production"), extra.stderr);
      assert.equal(hasStackTrace(help) || hasStackTrace(bad) || hasStackTrace(extra), false);
      assert.match(runCustody(["--help"]).stdout, /^ {2}drift {8}the nightly drift check/m);
    });
  });
});
