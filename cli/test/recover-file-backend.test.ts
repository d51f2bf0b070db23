// What `custody recover` repairs in Pulumi's file backend after a killed CLI. The backend (pkg/backend/diy of
// pulumi/pulumi, through gocloud's fileblob, v3.248.0 and v3.274.1 alike) writes every file to a temporary file
// and renames it, so the state file is always whole; but before the rename it writes the file's metadata
// sidecar `<file>.attrs` in place (truncate, then write). A kill between the two leaves an empty or half-written
// sidecar, and every command that reads the stack then fails with `failed to load checkpoint: EOF`. The CLI's
// own behaviour, and the recovery, are checked end to end in test/e2e/interrupted-up.test.ts.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { main } from "../custody";
import { backendDirOf, repairTornMetadata, stateBackups } from "../recover/file-backend";

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const SIDECAR =
  '{"user.cache_control":"","user.content_disposition":"","user.content_encoding":"","user.content_language":"",' +
  '"user.content_type":"text/plain; charset=utf-8","user.metadata":null,"md5":"Vm2RiyVzm4uOyY46ACu5OQ=="}\n';

describe("custody recover: Pulumi's file backend", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-file-backend-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("the directory of a file:// backend URL, as the CLI resolves it; none for other backends", () => {
    assert.equal(backendDirOf("file:///var/state", "/work"), "/var/state");
    assert.equal(backendDirOf("file:///var/state?no_tmp_dir=true", "/work"), "/var/state");
    assert.equal(backendDirOf("file://~/state", "/work"), path.join(os.homedir(), "state"));
    assert.equal(backendDirOf("file://~", "/work"), os.homedir());
    assert.equal(backendDirOf("file://./state", "/work"), path.join("/work", "state"));
    assert.equal(backendDirOf("https://api.pulumi.com", "/work"), undefined);
    assert.equal(backendDirOf("s3://bucket", "/work"), undefined);
  });

  it("removes the sidecars a kill left empty or half-written, and nothing else", () => {
    const stacks = path.join(dir, ".pulumi", "stacks", "proj");
    write(path.join(stacks, "dev.json"), '{"version":3,"checkpoint":{}}');
    write(path.join(stacks, "dev.json.attrs"), "");
    write(path.join(stacks, "dev.json.bak"), '{"version":3,"checkpoint":{}}');
    write(path.join(stacks, "dev.json.bak.attrs"), SIDECAR.slice(0, 40));
    write(path.join(stacks, "prod.json"), '{"version":3,"checkpoint":{}}');
    write(path.join(stacks, "prod.json.attrs"), SIDECAR);
    write(path.join(dir, ".pulumi", "meta.yaml"), "version: 1\n");
    write(path.join(dir, ".pulumi", "meta.yaml.attrs"), SIDECAR);

    const removed = repairTornMetadata(dir);
    assert.deepEqual(removed.sort(), [
      path.join(stacks, "dev.json.attrs"),
      path.join(stacks, "dev.json.bak.attrs"),
    ]);
    assert.ok(!fs.existsSync(path.join(stacks, "dev.json.attrs")));
    assert.ok(fs.existsSync(path.join(stacks, "dev.json")), "the state file is left alone");
    assert.equal(fs.readFileSync(path.join(stacks, "prod.json.attrs"), "utf8"), SIDECAR);
    assert.equal(fs.readFileSync(path.join(dir, ".pulumi", "meta.yaml.attrs"), "utf8"), SIDECAR);
    assert.deepEqual(repairTornMetadata(dir), [], "nothing left to repair");
  });

  it("a directory without a .pulumi folder has nothing to repair", () => {
    assert.deepEqual(repairTornMetadata(dir), []);
  });

  it("the backups the CLI keeps of a stack's state, newest first: .bak, then .pulumi/backups", () => {
    const stacks = path.join(dir, ".pulumi", "stacks", "proj");
    write(path.join(stacks, "dev.json"), "");
    write(path.join(stacks, "dev.json.bak"), "{}");
    const backups = path.join(dir, ".pulumi", "backups", "proj", "dev");
    write(path.join(backups, "dev.1795743307598677420.json"), "{}");
    write(path.join(backups, "dev.1795743407598677420.json"), "{}");
    write(path.join(backups, "dev.1795743407598677420.json.attrs"), SIDECAR);
    assert.deepEqual(stateBackups(dir, "proj", "dev"), [
      path.join(stacks, "dev.json.bak"),
      path.join(backups, "dev.1795743407598677420.json"),
      path.join(backups, "dev.1795743307598677420.json"),
    ]);
    assert.deepEqual(stateBackups(dir, "proj", "other"), []);
  });

  it("a state file that cannot be read: custody recover names the copies the CLI keeps, in one line", async () => {
    const stacks = path.join(dir, ".pulumi", "stacks", "proj");
    write(path.join(stacks, "dev.json"), "");
    write(path.join(stacks, "dev.json.attrs"), SIDECAR);
    write(path.join(stacks, "dev.json.bak"), '{"version":3,"checkpoint":{}}');
    const backups = path.join(dir, ".pulumi", "backups", "proj", "dev");
    write(path.join(backups, "dev.1795743307598677420.json"), "{}");
    // A `pulumi` that answers as the real one does for such a file backend.
    const bin = path.join(dir, "bin");
    write(
      path.join(bin, "pulumi"),
      `#!/bin/sh
case "$1" in
  whoami) echo "User: root"; echo "Backend URL: file://${dir}" ;;
  stack) echo "error: failed to load checkpoint: place 1: unexpected end of JSON input" >&2; exit 255 ;;
  *) echo "unexpected: $*" >&2; exit 2 ;;
esac
`,
    );
    fs.chmodSync(path.join(bin, "pulumi"), 0o755);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let said = "";
    stderr.on("data", (chunk: Buffer) => {
      said += chunk.toString();
    });
    const code = await main(["recover", "--stack", "dev"], {
      stdout,
      stderr,
      stdin: new PassThrough(),
      env: { PATH: `${bin}:${process.env.PATH ?? ""}` },
      cwd: dir,
    });
    assert.equal(code, 1);
    assert.equal(said.trim().split("\n").length, 1, said);
    assert.match(
      said,
      /^custody recover: `pulumi stack export` failed: failed to load checkpoint: place 1: unexpected end of JSON input\. The file backend keeps copies of its state, newest first: /,
    );
    assert.ok(
      said.includes(
        `${path.join(stacks, "dev.json.bak")}, ${path.join(backups, "dev.1795743307598677420.json")}`,
      ),
      said,
    );
    assert.match(said, /restore it with `pulumi stack import --file <copy>`/);
  });
});
