/**
 * What a killed `pulumi` can leave broken in its file backend (`file://`, `pkg/backend/diy` of pulumi/pulumi,
 * read at v3.248.0 and v3.274.1), and the backups that backend keeps.
 *
 * The backend writes each file through gocloud's `fileblob`: the content goes to a temporary file beside the
 * target, which is then renamed over it, so a state file (`.pulumi/stacks/<project>/<stack>.json`) is never
 * half-written. Before that rename, though, `fileblob` writes the file's metadata sidecar, `<file>.attrs`
 * (content type and MD5), in place: it truncates the old sidecar, then writes the new one. A kill in between
 * leaves an empty or half-written sidecar, and from then on every command that reads the stack, `pulumi cancel`
 * included, fails with `failed to load checkpoint: EOF`. The state file beside it is whole: the one before the
 * interrupted write, which holds every create the killed run had started (the engine records a pending create
 * before it sends the create). A missing sidecar is read as default metadata, so removing a torn one repairs
 * the stack without losing anything.
 *
 * Backups: before each write of the state file the backend copies it to `<stack>.json.bak` (the state one write
 * behind), and after each completed update it copies the state to
 * `.pulumi/backups/<project>/<stack>/<stack>.<unix ns>.json`; a killed update leaves none of its own there.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The directory of a `file://` backend URL, resolved as the CLI does (`~`, relative to `cwd`); else `undefined`. */
export function backendDirOf(url: string, cwd: string): string | undefined {
  if (!url.startsWith("file://")) return undefined;
  const location = decodeURIComponent(url.slice("file://".length).split("?")[0] ?? "");
  if (location === "~") return os.homedir();
  if (location.startsWith("~/")) return path.join(os.homedir(), location.slice(2));
  return path.resolve(cwd, location);
}

/** Whether `text` is what `fileblob` writes as a sidecar: one JSON object. */
function wholeSidecar(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/**
 * Removes every metadata sidecar (`*.attrs`) under the backend's `.pulumi` folder that is not a whole JSON
 * object, the trace of a kill during a write; returns the files removed. Everything else is left alone.
 */
export function repairTornMetadata(backendDir: string): string[] {
  const removed: string[] = [];
  const visit = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (
        entry.isFile() &&
        entry.name.endsWith(".attrs") &&
        !wholeSidecar(fs.readFileSync(file, "utf8"))
      ) {
        fs.rmSync(file);
        removed.push(file);
      }
    }
  };
  visit(path.join(backendDir, ".pulumi"));
  return removed;
}

/**
 * The copies of a stack's state that the file backend keeps, newest first: `<stack>.json.bak` (the state before
 * the last write), then `.pulumi/backups/<project>/<stack>/<stack>.<unix ns>.json` (one per completed update).
 */
export function stateBackups(backendDir: string, project: string, stack: string): string[] {
  const found: string[] = [];
  const stacksDir = path.join(backendDir, ".pulumi", "stacks", project);
  for (const ext of [".json", ".json.gz", ".json.zst"]) {
    const bak = path.join(stacksDir, `${stack}${ext}.bak`);
    if (fs.existsSync(bak)) found.push(bak);
  }
  const backupsDir = path.join(backendDir, ".pulumi", "backups", project, stack);
  const stamp = (name: string) => BigInt(/\.(\d+)\.json/.exec(name)?.[1] ?? "0");
  let names: string[] = [];
  try {
    names = fs.readdirSync(backupsDir).filter((name) => /^.+\.\d+\.json(\.gz|\.zst)?$/.test(name));
  } catch {
    // No completed update yet.
  }
  names.sort((a, b) => (stamp(b) > stamp(a) ? 1 : stamp(b) < stamp(a) ? -1 : 0));
  return [...found, ...names.map((name) => path.join(backupsDir, name))];
}
