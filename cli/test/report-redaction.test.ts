/**
 * The reports of `custody drift` and `custody review` never carry a credential, in any form. A hostile service
 * (a loopback server) echoes the token it was sent back, base64'd, hex'd, as a `Basic` pair, JSON-escaped and
 * split across fields; a stand-in `pulumi` plays an engine and a provider that pass all of it on unscrubbed, in
 * error diagnostics, on standard error and in the values a refresh read. Whatever the token's source (the
 * environment, or the stack's secret config), the written reports and the command's output hold none of it.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type LoopbackServer, startLoopbackServer } from "@pulumi-custody/testing";

/** The compiled command: the tests run from cli/dist/test, beside cli/dist/custody.js. */
const CUSTODY = path.join(__dirname, "..", "custody.js");

/** Runs the built `custody` bin without blocking this process, whose loopback server it talks to. */
function runCustody(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CUSTODY, ...args], options, (err, stdout, stderr) => {
      const code = (err as { code?: unknown } | null)?.code;
      resolve({ status: err ? (typeof code === "number" ? code : -1) : 0, stdout, stderr });
    });
  });
}

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const hex = (text: string) => Buffer.from(text, "utf8").toString("hex");
const unicodeEscaped = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

/** A token of 20 characters, random, so that none of its pieces is in any report by chance. */
function newToken(): string {
  return `tk${randomBytes(24).toString("base64url").replace(/[-_]/g, "").slice(0, 18)}`;
}

/** Every written form of `token` whose 12-character pieces must not appear, and its 10-character halves. */
function leaks(text: string, token: string): string[] {
  const forms = [token, b64(token), b64url(token), hex(token), hex(token).toUpperCase(), b64(`bot:${token}`)];
  const found: string[] = [];
  for (const form of forms)
    for (let i = 0; i + 12 <= form.length; i++)
      if (text.includes(form.slice(i, i + 12))) found.push(`${form.slice(i, i + 12)} (of ${form})`);
  for (const half of [token.slice(0, 10), token.slice(10)]) if (text.includes(half)) found.push(half);
  if (text.includes(unicodeEscaped(token).slice(0, 36))) found.push("the token \\u-escaped");
  return found;
}

/** What the hostile service answers: the token it was sent, in every form, and split in two halves. */
function echoes(authorization: string): Record<string, string> {
  const token = authorization.replace(/^Bearer /, "");
  return {
    b64: b64(token),
    b64url: b64url(token),
    hex: hex(token),
    basic: b64(`bot:${token}`),
    escaped: unicodeEscaped(token),
    h1: token.slice(0, 10),
    h2: token.slice(10),
  };
}

/**
 * A stand-in `pulumi`: `config` prints `config` (the stack's config, as `pulumi config --json --show-secrets`),
 * `preview` asks the service (with the stack config's token, else the environment's), then prints `events` and
 * writes `stderr` with each `@@field@@` replaced by the field of the service's answer (JSON-escaped).
 */
function hostilePulumi(
  dir: string,
  options: { events: string; stderr: string; code: number; config?: Record<string, unknown> },
): NodeJS.ProcessEnv {
  const bin = fs.mkdtempSync(path.join(dir, "bin-"));
  const data = path.join(bin, "data.json");
  fs.writeFileSync(data, JSON.stringify(options));
  fs.writeFileSync(
    path.join(bin, "pulumi"),
    [
      "#!/usr/bin/env node",
      `const o = JSON.parse(require("node:fs").readFileSync(${JSON.stringify(data)}, "utf8"));`,
      'if (process.argv[2] === "config") {',
      '  if (!o.config) { process.stderr.write("error: no stack selected\\n"); process.exit(255); }',
      "  process.stdout.write(JSON.stringify(o.config));",
      "  process.exit(0);",
      "}",
      "(async () => {",
      '  const token = o.config?.["custody:accessToken"]?.value ?? process.env.CUSTODY_ACCESS_TOKEN;',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of the stand-in's script
      "  const res = await fetch(`${process.env.CUSTODY_BASE_URL}/api/v1/vaults`, {",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of the stand-in's script
      "    headers: { authorization: `Bearer ${token}` },",
      "  });",
      "  const said = await res.json();",
      "  const fill = (t) => t.replace(/@@(\\w+)@@/g, (_, k) => JSON.stringify(String(said[k])).slice(1, -1));",
      "  process.stdout.write(fill(o.events));",
      "  process.stderr.write(fill(o.stderr));",
      "  process.exitCode = o.code;",
      "})();",
    ].join("\n"),
    { mode: 0o755 },
  );
  return { PATH: `${bin}${path.delimiter}${process.env.PATH}` };
}

const URN = "urn:pulumi:production::gitops::custody:index:Vault::payments";
const line = (body: Record<string, unknown>) => JSON.stringify({ sequence: 1, timestamp: 0, ...body });
const error = (message: string) =>
  line({
    diagnosticEvent: { urn: URN, prefix: "error: ", message: `${message}\n`, severity: "error" },
  });
const summary = (result: string) =>
  line({ summaryEvent: { resourceChanges: {}, PolicyPacks: {}, isPreview: true, result } });
const state = (inputs: Record<string, unknown>, outputs: Record<string, unknown>) => ({
  type: "custody:index:Vault",
  urn: URN,
  custom: true,
  id: "0d8957b4-c172-4696-ba52-7a7a77889c37",
  inputs,
  outputs,
});
const GROUP = "8d83bd4b-180b-4446-824d-4a2dc35fad23";
/** The service's answer, unscrubbed, in the values the refresh read: the name, and vault groups split in two. */
const live = state(
  { name: "Bearer @@b64@@", type: "evm", vaultGroupIds: ["@@h1@@", "@@h2@@"] },
  { name: "Bearer @@b64@@", type: "evm", state: "active", vaultGroupIds: ["@@h1@@", "@@h2@@"] },
);
const declared = state({ name: "Payments", type: "evm", vaultGroupIds: [GROUP] }, {});
const driftEvents = [
  line({
    resourcePreEvent: { metadata: { op: "refresh", urn: URN, type: live.type, old: live, new: live } },
  }),
  line({ resOutputsEvent: { metadata: { op: "refresh", urn: URN, type: live.type, old: live, new: live } } }),
  line({
    resourcePreEvent: { metadata: { op: "update", urn: URN, type: live.type, old: live, new: declared } },
  }),
  line({
    policyEvent: {
      resourceUrn: URN,
      message: "Vault resource payments is named Bearer @@basic@@ [custody-vault-name-pattern]",
      color: "raw",
      policyName: "custody-vault-name-pattern",
      policyPackName: "pulumi-custody",
      policyPackVersion: "0.2.0",
      enforcementLevel: "advisory",
    },
  }),
  summary("succeeded"),
].join("\n");
/** A refused token: the service's echoes in the error diagnostics and on standard error. */
const refusedEvents = [
  error("Preview failed: 401 Unauthorized: Bearer @@b64@@ is not valid (hex @@hex@@, url @@b64url@@)"),
  error("Preview failed: Authorization: Basic @@basic@@; token @@escaped@@"),
  error("preview failed"),
  summary("failed"),
].join("\n");
const refusedStderr = "warning: the service said @@b64url@@\nerror: preview failed: @@hex@@\n";

describe("custody drift and custody review: no form of a credential in a report", function () {
  this.timeout(60_000);
  let server: LoopbackServer;
  let dir: string;
  before(async () => {
    server = await startLoopbackServer((req) => ({
      status: 401,
      body: echoes(String(req.headers.authorization ?? "")),
    }));
  });
  after(async () => {
    await server.close();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-redaction-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs `custody <args>` with the stand-in and the API settings; its output and the files it wrote. */
  async function run(args: string[], env: NodeJS.ProcessEnv, files: string[]) {
    const out = await runCustody(args, {
      env: { ...process.env, CUSTODY_BASE_URL: server.url, ...env },
      cwd: dir,
    });
    const written = files.map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
    return { ...out, all: [out.stdout, out.stderr, ...written].join("\n"), written };
  }

  it("drift, a refused token from the environment echoed in diagnostics and on stderr: exit 1, nothing of it", async () => {
    const token = newToken();
    const env = hostilePulumi(dir, { events: refusedEvents, stderr: refusedStderr, code: 255 });
    const out = await run(
      ["drift", "--json", "drift.json", "--markdown", "drift.md"],
      { ...env, CUSTODY_ACCESS_TOKEN: token },
      ["drift.json", "drift.md"],
    );
    assert.equal(out.status, 1, out.stderr);
    assert.equal(
      server.requests.at(-1)?.headers.authorization,
      `Bearer ${token}`,
      "the service got the token",
    );
    // The echoes did reach the report (scrubbed), so the test is not vacuous.
    assert.match(out.written[0] ?? "", /401 Unauthorized: Bearer \[REDACTED\]/);
    assert.deepEqual(leaks(out.all, token), []);
  });

  it("drift, the stack config's token echoed in the values a refresh read, split across fields: exit 3, nothing of it", async () => {
    const token = newToken();
    const other = newToken();
    const env = hostilePulumi(dir, {
      events: driftEvents,
      stderr: "",
      code: 0,
      config: {
        "custody:accessToken": { value: token, secret: true },
        "custody:baseUrl": { value: server.url, secret: false },
      },
    });
    const out = await run(
      ["drift", "--json", "drift.json", "--markdown", "drift.md"],
      { ...env, CUSTODY_ACCESS_TOKEN: other },
      ["drift.json", "drift.md"],
    );
    assert.equal(out.status, 3, out.stderr);
    assert.equal(server.requests.at(-1)?.headers.authorization, `Bearer ${token}`);
    const report = JSON.parse(out.written[0] ?? "{}");
    assert.deepEqual(
      report.drifted[0].fields.map((f: { field: string }) => f.field),
      ["name", "vaultGroupIds"],
      "the hostile values are in the report, scrubbed",
    );
    assert.deepEqual(leaks(out.all, token), []);
    assert.deepEqual(leaks(out.all, other), []);
  });

  it("review with a preview of its own: the token of the stack config in values and policy messages, nothing of it", async () => {
    const token = newToken();
    const env = hostilePulumi(dir, {
      events: driftEvents,
      stderr: "warning: the service said @@b64url@@\n",
      code: 0,
      config: { "custody:accessToken": { value: token, secret: true } },
    });
    const out = await run(["review", "--out", "review.md", "--", "--refresh"], env, ["review.md"]);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.written[0] ?? "", /custody-vault-name-pattern/);
    assert.deepEqual(leaks(out.all, token), []);
  });

  it("review of a refused preview: the environment's token in the errors and the CLI's last line, nothing of it", async () => {
    const token = newToken();
    const env = hostilePulumi(dir, { events: refusedEvents, stderr: refusedStderr, code: 255 });
    const out = await run(["review", "--out", "review.md", "--"], { ...env, CUSTODY_ACCESS_TOKEN: token }, [
      "review.md",
    ]);
    assert.equal(out.status, 3, out.stderr);
    assert.match(out.written[0] ?? "", /\[REDACTED\]/);
    assert.deepEqual(leaks(out.all, token), []);
  });

  it("review of a saved preview (FILE): the environment's token, nothing of it", async () => {
    const token = newToken();
    const said = echoes(`Bearer ${token}`);
    const fill = (t: string) =>
      t.replace(/@@(\w+)@@/g, (_, k: string) => JSON.stringify(said[k]).slice(1, -1));
    fs.writeFileSync(path.join(dir, "preview.jsonl"), fill(refusedEvents));
    const out = await run(
      ["review", "--out", "review.md", "preview.jsonl"],
      { CUSTODY_ACCESS_TOKEN: token },
      ["review.md"],
    );
    assert.equal(out.status, 3, out.stderr);
    assert.deepEqual(leaks(out.all, token), []);
  });
});
