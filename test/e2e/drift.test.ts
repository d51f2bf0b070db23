// `custody drift`, the nightly check, under the real engine against the emulator, on both provider paths (the
// dynamic resources and the plugin found on PATH): a clean stack exits 0; output-only churn (a new address
// moves the vault's nextAddressName) is not drift; a vault renamed and one archived in the console exit 3 with
// each drifted field once, its declared and live values, the vault's id and name and the API's modified_at;
// a wrong token and an unreachable API exit 1 with the reason in one line, never as drift; the repair (`up
// --refresh`) brings the check back to 0. Every JSON report is validated against the package's schema
// (cli/drift/report.schema.json) with ajv; the Markdown report is asserted on its text.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { DriftReport } from "@pulumi-custody/cli";
import { freeLoopbackPort } from "@pulumi-custody/testing";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import {
  type CustodyResult,
  custodyCli,
  declareProgram,
  PROVIDER_PATHS,
  type ProgramDeclaration,
  reviewProgramStack,
} from "../support/custody-cli";
import { startTestEmulator, stateResources, type TestEmulator } from "../support/e2e-custody";
import { disposeLocalStack, enginePaths, pluginLauncherDir, repoPath } from "../support/pulumi-engine";

const schema = JSON.parse(fs.readFileSync(repoPath("cli", "drift", "report.schema.json"), "utf8"));

describe("custody drift, the nightly check (real engine, both provider paths)", () => {
  let emulator: TestEmulator;
  let tempRoot: string;
  let binPath: string;
  let defaultGroup: string;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);

  before(async function () {
    this.timeout(40 * 60_000);
    const engine = await enginePaths();
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "drift-e2e-"));
    binPath = [await pluginLauncherDir(tempRoot), engine.binDir, process.env.PATH].join(path.delimiter);
    emulator = await startTestEmulator();
    const groups = await emulator.control.peek<{ id: string; name: string }>("vault-groups");
    defaultGroup = groups.find((g) => g.name === "Default")!.id;
  });

  after(async () => {
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  for (const providerPath of PROVIDER_PATHS) {
    describe(`the ${providerPath} path`, () => {
      let stack: Stack;
      const name = (n: string) => `dr-${providerPath} ${n}`;
      const ids = new Map<string, string>();
      let runs = 0;

      const declared: ProgramDeclaration = {
        vaults: {
          payments: { name: "", type: "evm", vaultGroupIds: [], protect: true },
          bitcoin: { name: "", type: "utxo", chain: "bitcoin_testnet", vaultGroupIds: [], protect: true },
          hidden: { name: "", type: "solana", vaultGroupIds: [], protect: true, secret: ["name"] },
        },
        addresses: { settlement: { vault: "bitcoin", name: "Settlement" } },
      };

      interface Check extends CustodyResult {
        report: DriftReport;
        markdown: string;
      }

      /** The nightly job's step: `custody drift --json --markdown -- --run-program`. */
      async function drift(): Promise<Check> {
        runs += 1;
        const json = path.join(tempRoot, `drift-${providerPath}-${runs}.json`);
        const markdown = path.join(tempRoot, `drift-${providerPath}-${runs}.md`);
        const out = await custodyCli(stack, [
          "drift",
          "--stack",
          stack.name,
          "--json",
          json,
          "--markdown",
          markdown,
          "--",
          "--run-program",
        ]);
        const report = JSON.parse(await fs.promises.readFile(json, "utf8")) as DriftReport;
        assert.ok(validate(report), JSON.stringify(validate.errors, null, 2));
        assert.equal(report.exitCode, out.status, "the report's exit code is the command's");
        assert.equal(
          out.stderr
            .trim()
            .split("\n")
            .filter((l) => l.startsWith("custody drift: ")).length,
          1,
        );
        return { ...out, report, markdown: await fs.promises.readFile(markdown, "utf8") };
      }

      before(async function () {
        this.timeout(20 * 60_000);
        for (const [key, vault] of Object.entries(declared.vaults)) {
          vault.name = name(key[0]!.toUpperCase() + key.slice(1));
          vault.vaultGroupIds = [defaultGroup];
        }
        stack = await reviewProgramStack(emulator, `drift-${providerPath}`, providerPath, binPath);
        await declareProgram(stack, declared);
        const up = await stack.up();
        assert.equal(up.summary.result, "succeeded");
        const type =
          providerPath === "plugin" ? "custody:index:Vault" : "pulumi-nodejs:dynamic/custody:Vault";
        for (const [key, resource] of await stateResources(stack, type)) ids.set(key, String(resource.id));
      });

      after(async () => {
        if (stack) await disposeLocalStack(stack);
      });

      it("exit 0 on a clean stack, with the reports", async () => {
        const out = await drift();
        assert.equal(out.status, 0, out.stderr);
        assert.equal(out.report.status, "clean");
        assert.equal(out.report.resourcesChecked, 4);
        assert.equal(out.report.stack, stack.name);
        assert.match(out.stderr, /^custody drift: no drift \(4 custody resources checked\)$/m);
        assert.match(
          out.markdown,
          new RegExp(
            `^## Custody drift check \`${stack.name}\`\\n\\n✅ \\*\\*No drift\\*\\*: every custody resource is as the program declares it \\(4 checked\\)\\.$`,
            "m",
          ),
        );
      });

      it("output-only churn is not drift: an address made in the console moves the vault's nextAddressName", async () => {
        const bitcoinId = ids.get("bitcoin")!;
        const type =
          providerPath === "plugin" ? "custody:index:Vault" : "pulumi-nodejs:dynamic/custody:Vault";
        const recorded = (await stateResources(stack, type)).get("bitcoin")?.outputs?.details as {
          nextAddressName?: string;
        };
        await emulator.client.vaults.addresses.create(bitcoinId, { name: "made in the console" });
        const live = await emulator.client.vaults.get(bitcoinId);
        assert.notEqual(
          (live as { default_next_address_name?: string }).default_next_address_name,
          recorded.nextAddressName,
          "the refresh reads a new nextAddressName",
        );
        const out = await drift();
        assert.equal(out.status, 0, `${out.stderr}\n${out.markdown}`);
        assert.equal(out.report.status, "clean");
      });

      it("exit 3 for a rename and an archive in the console: each drifted field once, with the vault and the API's modified_at", async () => {
        const paymentsId = ids.get("payments")!;
        const hiddenId = ids.get("hidden")!;
        await emulator.client.vaults.rename(paymentsId, "renamed in the console");
        await emulator.client.vaults.archive(hiddenId);
        const modifiedAt = (await emulator.client.vaults.get(paymentsId)).modified_at;

        const out = await drift();
        assert.equal(out.status, 3, out.stderr);
        assert.equal(out.report.status, "drift");
        const byResource = new Map(out.report.drifted.map((r) => [r.resource, r]));
        assert.deepEqual([...byResource.keys()].sort(), ["hidden", "payments"]);
        const payments = byResource.get("payments")!;
        assert.deepEqual(
          { ...payments, urn: undefined },
          {
            urn: undefined,
            resource: "payments",
            kind: "Vault",
            operation: "update",
            vaultId: paymentsId,
            vaultName: "renamed in the console",
            addressId: null,
            modifiedAt,
            fields: [
              {
                field: "name",
                declared: name("Payments"),
                live: "renamed in the console",
                secret: false,
                certain: true,
              },
            ],
            note: null,
          },
        );
        const hidden = byResource.get("hidden")!;
        assert.equal(hidden.vaultId, hiddenId);
        assert.equal(hidden.vaultName, null, "a secret name is not shown");
        assert.deepEqual(hidden.fields, [
          { field: "state", declared: "active", live: "archived", secret: false, certain: true },
        ]);

        assert.match(
          out.stderr,
          /^custody drift: drift in 2 custody resource\(s\): (payments \(name\); hidden \(state\)|hidden \(state\); payments \(name\))$/m,
        );
        assert.match(
          out.markdown,
          /^⚠️ \*\*Drift\*\*: 2 custody resource\(s\) differ from what the program declares \(2 difference\(s\), 4 resources checked\)\.$/m,
        );
        assert.match(
          out.markdown,
          new RegExp(
            `^\\| \\*\\*renamed in the console\\*\\* \\| \`${paymentsId}\` \\| \`payments\` \\(vault\\) \\| \`name\` \\| \`"${name("Payments")}"\` \\| \`"renamed in the console"\` \\| ${modifiedAt} \\|$`,
            "m",
          ),
        );
        assert.match(
          out.markdown,
          new RegExp(
            `^\\| \\(name not shown\\) \\| \`${hiddenId}\` \\| \`hidden\` \\(vault\\) \\| \`state\` \\| \`"active"\` \\| \`"archived"\` \\| `,
            "m",
          ),
        );
        assert.doesNotMatch(out.markdown + JSON.stringify(out.report), new RegExp(name("Hidden")));
        assert.match(out.markdown, /^To repair, run the deploy \(`pulumi up --refresh`\)/m);
      });

      it("exit 1, never drift, for a wrong token and for an unreachable API: the reason in one line", async () => {
        await stack.setConfig("custody:accessToken", { value: "not-a-valid-token", secret: true });
        const refused = await drift();
        assert.equal(refused.status, 1, refused.stderr);
        assert.equal(refused.report.status, "failed");
        assert.deepEqual(refused.report.drifted, []);
        assert.match(
          refused.report.reason ?? "",
          /^authentication refused by the custody API at http:\/\/127\.0\.0\.1:\d+ \(401\) for custody:accessToken of the stack config \(the check runs with --run-program\): it is wrong, expired or revoked; set a valid one with `pulumi config set --secret custody:accessToken <token>`$/,
        );
        assert.match(
          refused.stderr,
          /^custody drift: the drift check could not run: authentication refused by the custody API at /m,
        );
        assert.match(
          refused.markdown,
          /^🛑 \*\*The drift check could not run\*\*: authentication refused by the custody API at /m,
        );
        assert.doesNotMatch(refused.markdown + refused.stderr, /not-a-valid-token/);
        await stack.setConfig("custody:accessToken", { value: emulator.accessToken, secret: true });

        const closed = `http://127.0.0.1:${await freeLoopbackPort()}`;
        await stack.setConfig("custody:baseUrl", { value: closed });
        const unreachable = await drift();
        assert.equal(unreachable.status, 1, unreachable.stderr);
        assert.match(
          unreachable.report.reason ?? "",
          new RegExp(
            `^The custody API at ${closed} \\(from stack config custody:baseUrl\\) cannot be reached`,
          ),
        );
        await stack.setConfig("custody:baseUrl", { value: emulator.baseUrl });
      });

      it("after the repair (`pulumi up --refresh`), exit 0 again", async () => {
        const up = await stack.up({ refresh: true });
        assert.equal(up.summary.result, "succeeded");
        const out = await drift();
        assert.equal(out.status, 0, `${out.stderr}\n${out.markdown}`);
        assert.equal((await emulator.client.vaults.get(ids.get("payments")!)).name, name("Payments"));
      });
    });
  }
});
