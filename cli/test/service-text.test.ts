// The service's text is data in every command: what the service holds (vault names, types, error titles and
// details) and what the engine read from it reaches no line of `custody import`, `custody import-file`,
// `custody recover` or `custody drift` raw: control characters (C0, DEL, C1 such as the CSI 0x9b), bidi and
// zero-width characters and lone surrogates are escaped by the one rule, and every line is bounded (a 10 MB
// name is not a 10 MB line). Property tests at each command's boundary: a loopback service (and, for `recover`
// and `drift`, a stand-in `pulumi`) answers what fast-check makes.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  evmVault,
  type LoopbackServer,
  type RecordedRequest,
  startLoopbackServer,
} from "@pulumi-custody/testing";
import fc from "fast-check";
import { configure } from "pulumi-custody/core";
import { fakePulumi, runCustody } from "./fake-pulumi";
import { custody } from "./run-custody";

/** What must never reach a terminal raw (the newlines between lines aside). */
const UNSAFE =
  /[^\P{Cc}\n]|\p{Cf}|[\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
/** The longest line a command may print (a message of the provider or the sdk is at most 4,000 characters). */
const LINE_MAX = 4500;

const HOSTILE_TEXT = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "\r\n    error: forged",
        "\u0007",
        "\u001b[31m",
        "\u009b31m",
        "\u0085",
        "\u202e",
        "\u2066",
      ),
      fc.constantFrom("\u200b", "\u200d", "\ufeff", "\u2028", "\ud800", "\udc00", "\u{e0041}", "🏦"),
      fc.constantFrom(..."abc XYZ-_:."),
    ),
    { minLength: 1, maxLength: 30 },
  )
  .map((parts) => parts.join(""));

/** Every line of what a command printed: escaped, and bounded. */
function assertShown(output: string, what: string): void {
  assert.doesNotMatch(output, UNSAFE, `${what}: ${JSON.stringify(output)}`);
  for (const line of output.split("\n"))
    assert.ok(line.length <= LINE_MAX, `${what}: a line of ${line.length}`);
}

const VAULT_ID = evmVault.id;

describe("the service's text in every custody command: escaped and bounded (property)", () => {
  let server: LoopbackServer;
  /** The vaults the service lists; the answer to everything else. */
  let vaults: Record<string, unknown>[] = [];
  let dir: string;

  before(async () => {
    server = await startLoopbackServer((req: RecordedRequest) => {
      if (req.method === "GET" && req.path === "/api/v1/vaults") {
        const page = Number(req.query.page?.[0] ?? "1");
        const size = Number(req.query.size?.[0] ?? "50");
        const items = vaults.slice((page - 1) * size, page * size);
        return { body: { total: vaults.length, page, size, vaults: items } };
      }
      return { status: 404, body: { title: "Not found", detail: `${req.method} ${req.path}` } };
    });
  });
  after(async () => {
    configure(undefined);
    await server.close();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-service-text-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const env = () => ({
    PATH: "/nonexistent",
    CUSTODY_BASE_URL: server.url,
    CUSTODY_ACCESS_TOKEN: "text-test-token-0123",
  });

  it("custody import and import-file: the names and types of the vaults they leave out", async () => {
    await fc.assert(
      fc.asyncProperty(HOSTILE_TEXT, HOSTILE_TEXT, async (name, type) => {
        vaults = [
          { ...evmVault, name },
          { ...evmVault, id: "4a2c3d5e-6f70-4b8c-9d0e-1f2a3b4c5d6e", name: `${name} 2`, type },
        ];
        const file = await custody(["import-file", "--state", "active"], dir, env());
        assertShown(file.stdout + file.stderr, "import-file");
        assert.match(file.stderr, /Left out, a program cannot declare them as they are/, file.stderr);
        const program = await custody(
          ["import", "-l", "typescript", "--provider", "dynamic", "--force"],
          dir,
          env(),
        );
        assertShown(program.stdout + program.stderr, "import");
      }),
      { numRuns: 15 },
    );
  });

  it("custody import: a 2 MB name is one short line", async () => {
    vaults = [{ ...evmVault, name: `\u202e${"x".repeat(2 * 1024 * 1024)}` }];
    const file = await custody(["import-file"], dir, env());
    assertShown(file.stdout + file.stderr, "import-file");
    assert.match(file.stderr, /^ {2}vault "\\u202exxx/m);
  });

  it("custody import: the service's error (title, detail) when the read fails", async () => {
    await fc.assert(
      fc.asyncProperty(HOSTILE_TEXT, HOSTILE_TEXT, async (title, detail) => {
        // A service that refuses every call, the settings check's first read among them.
        const failing = await startLoopbackServer(() => ({ status: 403, body: { title, detail } }));
        try {
          const out = await custody(["import-file"], dir, { ...env(), CUSTODY_BASE_URL: failing.url });
          assert.equal(out.code, 1, out.stderr);
          assertShown(out.stdout + out.stderr, "import-file");
        } finally {
          await failing.close();
        }
      }),
      { numRuns: 10 },
    );
  });

  it("custody recover: the names the state and the service hold, in what it says it did", async () => {
    const stackUrn = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
    const type = "pulumi-nodejs:dynamic/custody:Vault";
    await fc.assert(
      fc.asyncProperty(HOSTILE_TEXT, HOSTILE_TEXT, async (name, liveName) => {
        fc.pre(name !== liveName);
        // The service holds one of the two vaults the state was creating.
        vaults = [{ ...evmVault, name: liveName }];
        const exported = {
          version: 3,
          deployment: {
            manifest: { time: "2026-01-05T10:00:00Z", magic: "", version: "v3.274.1" },
            resources: [{ urn: stackUrn, custom: false, type: "pulumi:pulumi:Stack" }],
            pending_operations: [
              {
                type: "creating",
                resource: {
                  urn: `urn:pulumi:dev::proj::${type}::${name}`,
                  custom: true,
                  type,
                  inputs: { name, type: "evm" },
                },
              },
              {
                type: "creating",
                resource: {
                  urn: `urn:pulumi:dev::proj::${type}::live`,
                  custom: true,
                  type,
                  inputs: { name: liveName, type: "evm" },
                },
              },
            ],
          },
        };
        fs.writeFileSync(path.join(dir, "export.json"), JSON.stringify(exported));
        fs.writeFileSync(
          path.join(dir, "config.json"),
          JSON.stringify({
            "custody:baseUrl": { value: server.url, secret: false },
            "custody:accessToken": { value: "text-test-token-0123", secret: true },
            "custody:requestsPerMinute": { value: "0", secret: false },
            "custody:maxRetries": { value: "0", secret: false },
          }),
        );
        const bin = path.join(dir, "bin");
        fs.mkdirSync(bin, { recursive: true });
        fs.writeFileSync(
          path.join(bin, "pulumi"),
          `#!/bin/sh
case "$1 $2" in
  "whoami --verbose") echo "User: ci"; echo "Backend URL: https://api.pulumi.com" ;;
  "stack export") cat "${dir}/export.json" ;;
  "config --json") cat "${dir}/config.json" ;;
  "stack import") exit 0 ;;
  *) echo "unexpected: $*" >&2; exit 2 ;;
esac
`,
          { mode: 0o755 },
        );
        const out = await custody(["recover", "--stack", "dev"], dir, {
          PATH: `${bin}:${process.env.PATH ?? ""}`,
        });
        assertShown(out.stdout + out.stderr, "recover");
        assert.equal(out.code, 0, out.stderr);
        // A line for each pending create, whatever became of it.
        assert.equal(out.stdout.match(/^(adopted|dropped) {2}/gm)?.length, 2, out.stdout);
      }),
      { numRuns: 10 },
    );
  });

  it("custody drift: a vault renamed in the console to a hostile name, in the Markdown and the verdict", async () => {
    const urn = "urn:pulumi:production::gitops::custody:index:Vault::payments";
    const line = (body: Record<string, unknown>) => JSON.stringify({ sequence: 1, timestamp: 0, ...body });
    const state = (name: string) => ({
      type: "custody:index:Vault",
      urn,
      custom: true,
      id: VAULT_ID,
      inputs: { name, type: "evm" },
      outputs: { name, type: "evm", state: "active", details: { modifiedAt: "2026-11-26T22:00:00Z" } },
    });
    const metadata = (op: string, before: unknown, after: unknown) => ({
      op,
      urn,
      type: "custody:index:Vault",
      old: before,
      new: after,
    });
    await fc.assert(
      fc.property(HOSTILE_TEXT, (liveName) => {
        const events = [
          line({ resourcePreEvent: { metadata: metadata("refresh", state("Payments"), state("Payments")) } }),
          line({ resOutputsEvent: { metadata: metadata("refresh", state("Payments"), state(liveName)) } }),
          line({
            resourcePreEvent: {
              metadata: metadata("update", state(liveName), { ...state("Payments"), outputs: {} }),
            },
          }),
          line({
            summaryEvent: { resourceChanges: {}, PolicyPacks: {}, isPreview: true, result: "succeeded" },
          }),
        ].join("\n");
        const fake = fakePulumi(dir, events, 0);
        const out = runCustody(["drift"], { env: fake.env(), cwd: dir });
        assert.equal(out.status, 3, out.stderr);
        assertShown(out.stdout + out.stderr, "drift");
      }),
      { numRuns: 4 },
    );
  });
});
