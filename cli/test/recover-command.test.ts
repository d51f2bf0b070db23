// `custody recover` says what it did only once it is done: the takeovers exist only in the state it writes back
// with `pulumi stack import`, so until that import succeeds nothing has changed. Here a stand-in `pulumi` reads
// a stack with pending creates (one vault that exists in the emulator, one that never arrived) and refuses the
// import the way a lock left by a killed run does. test/e2e/interrupted-up.test.ts runs the real CLI.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodyClient } from "@pulumi-custody/sdk";
import { configure } from "pulumi-custody/core";
import { main } from "../custody";

/** The dynamic provider's vault, the type whose pending creates `custody recover` takes over. */
const VAULT_RESOURCE_TYPE = "pulumi-nodejs:dynamic/custody:Vault";
const STACK_URN = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
const vaultUrn = (name: string) => `urn:pulumi:dev::proj::${VAULT_RESOURCE_TYPE}::${name}`;
const pendingCreate = (name: string, inputs: Record<string, unknown>) => ({
  type: "creating",
  resource: { urn: vaultUrn(name), custom: true, type: VAULT_RESOURCE_TYPE, inputs, parent: STACK_URN },
});

/** What the file backend says when a run's lock is still there (pulumi/pulumi pkg/backend/diy). */
const LOCKED =
  "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete " +
  "the lock file with `pulumi cancel`.\n" +
  "  file:///state/.pulumi/locks/organization/proj/dev/6c1a.json: created by ci@runner (pid 4242) at 2026-01-05T10:00:00Z\n";

describe("custody recover: what it says it did", () => {
  let emulator: RunningEmulator;
  let dir: string;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    const client = new CustodyClient({
      baseUrl: emulator.baseUrl,
      accessToken: emulator.accessToken,
      requestsPerMinute: 0,
    });
    await client.vaults.create({ name: "Recover Treasury", type: "evm" });
    await client.close();
  });
  after(async () => {
    // The command configured this process for the emulator, which is gone now.
    configure(undefined);
    await emulator.close();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-recover-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A stand-in `pulumi` whose `stack import` prints `importError` and fails, or succeeds when it is empty. */
  function fakePulumi(importError: string): string {
    const exported = {
      version: 3,
      deployment: {
        manifest: { time: "2026-01-05T10:00:00Z", magic: "", version: "v3.274.1" },
        resources: [{ urn: STACK_URN, custom: false, type: "pulumi:pulumi:Stack" }],
        pending_operations: [
          pendingCreate("treasury", { name: "Recover Treasury", type: "evm" }),
          pendingCreate("never", { name: "Recover Never Created", type: "evm" }),
        ],
      },
    };
    fs.writeFileSync(path.join(dir, "export.json"), JSON.stringify(exported));
    fs.writeFileSync(
      path.join(dir, "config.json"),
      JSON.stringify({
        "custody:baseUrl": { value: emulator.baseUrl, secret: false },
        "custody:accessToken": { value: emulator.accessToken, secret: true },
        "custody:requestsPerMinute": { value: "0", secret: false },
      }),
    );
    fs.writeFileSync(path.join(dir, "import-error.txt"), importError);
    const bin = path.join(dir, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, "pulumi"),
      `#!/bin/sh
case "$1 $2" in
  "whoami --verbose") echo "User: ci"; echo "Backend URL: https://api.pulumi.com" ;;
  "stack export") cat "${dir}/export.json" ;;
  "config --json") cat "${dir}/config.json" ;;
  "stack import")
    cp "$4" "${dir}/imported.json"
    if [ -s "${dir}/import-error.txt" ]; then cat "${dir}/import-error.txt" >&2; exit 255; fi ;;
  *) echo "unexpected: $*" >&2; exit 2 ;;
esac
`,
      { mode: 0o755 },
    );
    return bin;
  }

  async function recover(bin: string) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = "";
    let err = "";
    stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    const code = await main(["recover", "--stack", "dev"], {
      stdout,
      stderr,
      stdin: new PassThrough(),
      env: { PATH: `${bin}:${process.env.PATH ?? ""}` },
      cwd: dir,
    });
    return { code, stdout: out, stderr: err };
  }

  it("a locked stack: claims nothing, says in one line that nothing changed, why, and what to do; exit 1", async () => {
    const out = await recover(fakePulumi(LOCKED));
    assert.ok(fs.existsSync(path.join(dir, "imported.json")), "the import was tried");
    assert.equal(out.code, 1);
    assert.doesNotMatch(out.stdout, /adopted|dropped|Recovered/, out.stdout);
    assert.equal(out.stderr.trim().split("\n").length, 1, out.stderr);
    assert.match(
      out.stderr,
      /^custody recover: nothing was changed \(the stack's state is as it was: nothing taken over, no create dropped\): `pulumi stack import` failed: the stack is currently locked/,
    );
    assert.match(
      out.stderr,
      /A run holds the stack's lock\. If that run is dead \(a killed or cancelled `pulumi up`\), release it with `pulumi cancel --yes`, then run `custody recover` again; if another run is going on, wait for it to end, then run `custody recover` again\.\n$/,
    );
    assert.ok(!out.stderr.includes(emulator.accessToken), "no token in the message");
    assert.doesNotMatch(out.stderr, /^\s+at /m);
  });

  it("an import that fails otherwise: nothing claimed, the reason without the stack's secrets, exit 1", async () => {
    const out = await recover(
      fakePulumi(
        `error: could not import deployment: [500] Internal Server Error (${emulator.accessToken})\n`,
      ),
    );
    assert.equal(out.code, 1);
    assert.equal(out.stdout, "");
    assert.match(
      out.stderr,
      /^custody recover: nothing was changed \(.*\): `pulumi stack import` failed: could not import deployment: \[500\] Internal Server Error \(\[secret\]\)\n$/,
    );
  });

  it("an import that succeeds: then, and only then, what it did for each pending create", async () => {
    const out = await recover(fakePulumi(""));
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout.trim().split("\n");
    assert.match(
      lines[0] ?? "",
      /^adopted {2}urn:.*::treasury: vault "Recover Treasury" exists \([0-9a-f-]{36}\), as declared$/,
    );
    assert.match(
      lines[1] ?? "",
      /^dropped {2}urn:.*::never: no vault is named "Recover Never Created": the create never arrived$/,
    );
    assert.equal(lines[2], "Recovered: 1 taken over, 1 left for `pulumi up` to create. Run `pulumi up` now.");
    const imported = JSON.parse(fs.readFileSync(path.join(dir, "imported.json"), "utf8")) as {
      deployment: { resources: { urn: string }[]; pending_operations: unknown[] };
    };
    assert.deepEqual(
      imported.deployment.resources.map((r) => r.urn),
      [STACK_URN, vaultUrn("treasury")],
    );
    assert.deepEqual(imported.deployment.pending_operations, []);
  });
});
