/**
 * The files a command writes (a program, an import file, a report): checked before any work, so that a
 * missing directory is said in one line before minutes of reading the API, and written so that nothing the
 * user had is lost: without overwriting, a file that exists is never touched; with it, the file is replaced
 * whole or not at all. No command makes a directory: a directory that does not exist is more often a typo
 * than a wish.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { shownPath } from "./shown";

/** A file a command writes, as its messages name it. */
export interface OutputFile {
  /** Its absolute path. */
  readonly file: string;
  /** What it is, e.g. `the program`. */
  readonly what: string;
  /** The flag that names it, e.g. `--out`. */
  readonly flag: string;
  /** The directory its path is shown relative to (the command's working directory). */
  readonly cwd: string;
}

/** Why a file cannot be written, in one line: `cannot write gen/index.ts (the program): …`. */
function cannotWrite(target: OutputFile, why: string): Error {
  return new Error(`cannot write ${shownPath(target.file, target.cwd)} (${target.what}): ${why}`);
}

/** The one-line reason of a failed write, from its error code (never Node's `ENOENT: …, open '…'`). */
function reasonOf(err: unknown, target: OutputFile): string {
  const code = (err as NodeJS.ErrnoException).code;
  const dir = shownPath(path.dirname(target.file), target.cwd);
  switch (code) {
    case "ENOENT":
      return `the directory ${dir} does not exist; create it, or choose another ${target.flag}`;
    case "ENOTDIR":
      return `${dir} is not a directory; choose another ${target.flag}`;
    case "EISDIR":
      return `it is a directory; give ${target.flag} the path of a file`;
    case "EACCES":
    case "EPERM":
      return `permission denied in ${dir}; choose another ${target.flag}`;
    case "EROFS":
      return `${dir} is on a read-only file system; choose another ${target.flag}`;
    case "ENOSPC":
      return "no space left on the device";
    default:
      return code ?? (err instanceof Error ? err.message : String(err));
  }
}

/**
 * Checks, before any work, that `target` can be written: its directory exists and it is not a directory
 * itself; throws the one-line reason otherwise. Whether it exists is the caller's rule ({@link fileExists}).
 */
export function checkOutputFile(target: OutputFile): void {
  const dir = path.dirname(target.file);
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat === undefined) throw cannotWrite(target, reasonOf({ code: "ENOENT" }, target));
  if (!stat.isDirectory()) throw cannotWrite(target, reasonOf({ code: "ENOTDIR" }, target));
  if (fs.statSync(target.file, { throwIfNoEntry: false })?.isDirectory())
    throw cannotWrite(target, reasonOf({ code: "EISDIR" }, target));
}

/** Whether `file` exists (a dangling symbolic link included: writing through it would create its target). */
export function fileExists(file: string): boolean {
  return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
}

/**
 * Writes `text` to `target`. Without `overwrite`, a file that exists (one that appeared since the check
 * included) is left as it is and the write fails. With it, the text goes to a temporary file beside it that
 * then replaces it, so a failed write (a full disk) leaves the old file whole; a symbolic link is written
 * through, and the file keeps its mode. Every failure is one line naming the file and what to do.
 */
export function writeOutputFile(target: OutputFile, text: string, options: { overwrite: boolean }): void {
  if (!options.overwrite) {
    try {
      fs.writeFileSync(target.file, text, { flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST")
        throw cannotWrite(target, `it exists (it appeared while the command ran) and was left as it is`);
      throw cannotWrite(target, reasonOf(err, target));
    }
    return;
  }
  let real = target.file;
  let mode: number | undefined;
  try {
    real = fs.realpathSync(target.file);
    mode = fs.statSync(real).mode & 0o7777;
  } catch {
    // It does not exist yet (or is a dangling link, replaced as a link would be): written as a new file.
  }
  const temporary = path.join(
    path.dirname(real),
    `.${path.basename(real)}.custody-${process.pid}-${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    fs.writeFileSync(temporary, text, { flag: "wx", mode });
    if (mode !== undefined) fs.chmodSync(temporary, mode);
    fs.renameSync(temporary, real);
  } catch (err) {
    fs.rmSync(temporary, { force: true });
    throw cannotWrite(target, reasonOf(err, target));
  }
}
