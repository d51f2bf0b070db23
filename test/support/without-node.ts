/**
 * A `PATH` on which no Node.js can be found, for the stacks of programs that must run without it (a YAML or
 * Python program through the self-contained plugin): a user of those languages may never have installed Node.js.
 *
 * Node.js often shares its directory with tools the programs do need (`/usr/bin` holds `node` beside `sh` and
 * `python3`), so a directory that holds `node` is replaced by a directory of links to everything else in it.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The executables of a Node.js installation, which the returned `PATH` must not reach. */
const NODE_EXECUTABLES = new Set(["node", "nodejs", "npm", "npx", "corepack"]);

/**
 * `searchPath` (a `PATH` value) with every directory that holds a Node.js executable replaced by a directory
 * under `root` that links everything else of it.
 *
 * @throws if `node` can still be found on the result (a link under another name, say)
 */
export async function pathWithoutNode(searchPath: string, root: string): Promise<string> {
  const dirs: string[] = [];
  for (const [index, dir] of searchPath.split(path.delimiter).filter(Boolean).entries()) {
    const entries = await fs.promises.readdir(dir).catch(() => [] as string[]);
    if (!entries.some((name) => NODE_EXECUTABLES.has(name))) {
      dirs.push(dir);
      continue;
    }
    const shadow = path.join(root, `path-without-node-${index}`);
    await fs.promises.mkdir(shadow, { recursive: true });
    for (const name of entries)
      if (!NODE_EXECUTABLES.has(name))
        await fs.promises.symlink(path.join(dir, name), path.join(shadow, name));
    dirs.push(shadow);
  }
  const result = dirs.join(path.delimiter);
  const found = findOnPath("node", result);
  if (found) throw new Error(`node is still on the PATH without Node.js: ${found}`);
  return result;
}

/** The first executable `name` on `searchPath`, as a shell finds it; undefined when there is none. */
export function findOnPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
