// How a command writes its files: without overwriting, a file that exists is never touched, even one that
// appeared after the check; with it, the file is replaced whole (through a symbolic link, keeping its mode),
// and no temporary file is left beside it. Every failure is one line naming the file and what to do.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { checkOutputFile, type OutputFile, writeOutputFile } from "../output-file";

describe("custody: the files a command writes", () => {
  let dir: string;
  const target = (name: string): OutputFile => ({
    file: path.join(dir, name),
    what: "the program",
    flag: "--out",
    cwd: dir,
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-output-file-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("without overwriting, a file that appeared after the check is left as it is", () => {
    const out = target("index.ts");
    checkOutputFile(out);
    fs.writeFileSync(out.file, "// mine\n");
    assert.throws(
      () => writeOutputFile(out, "// generated\n", { overwrite: false }),
      /^Error: cannot write index\.ts \(the program\): it exists \(it appeared while the command ran\) and was left as it is$/,
    );
    assert.equal(fs.readFileSync(out.file, "utf8"), "// mine\n");
  });

  it("overwriting replaces the file whole, keeps its mode, and leaves no temporary file", () => {
    const out = target("index.ts");
    fs.writeFileSync(out.file, "// mine, a longer text than the new one\n", { mode: 0o640 });
    fs.chmodSync(out.file, 0o640);
    writeOutputFile(out, "// generated\n", { overwrite: true });
    assert.equal(fs.readFileSync(out.file, "utf8"), "// generated\n");
    assert.equal(fs.statSync(out.file).mode & 0o777, 0o640);
    assert.deepEqual(fs.readdirSync(dir), ["index.ts"]);
  });

  it("overwriting writes through a symbolic link: the link stays, its target changes", () => {
    fs.mkdirSync(path.join(dir, "real"));
    fs.writeFileSync(path.join(dir, "real", "index.ts"), "// mine\n");
    fs.symlinkSync(path.join("real", "index.ts"), path.join(dir, "index.ts"));
    writeOutputFile(target("index.ts"), "// generated\n", { overwrite: true });
    assert.ok(fs.lstatSync(path.join(dir, "index.ts")).isSymbolicLink());
    assert.equal(fs.readFileSync(path.join(dir, "real", "index.ts"), "utf8"), "// generated\n");
    assert.deepEqual(fs.readdirSync(path.join(dir, "real")), ["index.ts"]);
  });

  it("a directory that does not exist, or a path that is a directory: one line, no ENOENT", () => {
    assert.throws(
      () => writeOutputFile(target("gen/index.ts"), "x", { overwrite: true }),
      /^Error: cannot write gen\/index\.ts \(the program\): the directory gen does not exist; create it, or choose another --out$/,
    );
    fs.mkdirSync(path.join(dir, "src"));
    assert.throws(
      () => checkOutputFile(target("src")),
      /^Error: cannot write src \(the program\): it is a directory; give --out the path of a file$/,
    );
    fs.writeFileSync(path.join(dir, "file"), "");
    assert.throws(
      () => checkOutputFile(target("file/index.ts")),
      /^Error: cannot write file\/index\.ts \(the program\): file is not a directory; choose another --out$/,
    );
  });
});
