import * as fs from "node:fs";
import * as path from "node:path";

let root: string | undefined;

/** The repository root (the directory holding `scripts/bench.sh`), from the sources or from `dist/`. */
export function repoRoot(): string {
  if (root) return root;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (
      fs.existsSync(path.join(dir, "scripts", "bench.sh")) &&
      fs.existsSync(path.join(dir, "package.json"))
    ) {
      root = dir;
      return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`no scripts/bench.sh above ${__dirname}`);
  }
}

/** An absolute path inside the repository. */
export function repoPath(...segments: string[]): string {
  return path.join(repoRoot(), ...segments);
}
