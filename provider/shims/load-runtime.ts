/**
 * Loads the provider runtime (`pulumi-custody/provider-runtime`) in the provider process, for the serialized
 * providers in this folder. Only types are imported here; `require` and `process` are globals the serializer
 * leaves alone, so this function stays small when Pulumi has to serialize it by value (see ./index.ts).
 */
import type * as runtime from "../runtime";

/**
 * Loads the implementation in the provider process. The serialized module resolves packages from the program
 * directory: that finds `node_modules/pulumi-custody` in a user's program. Where there is no such folder (a
 * checkout of this repository before its build), the loader then looks for the package's own checkout above
 * the working directory. No path is baked in.
 *
 * The module name is computed, so that a bundler (esbuild, webpack) leaves this `require` to Node.js instead
 * of inlining the whole runtime into the closure that Pulumi serializes: a bundled program then works too,
 * loading the runtime from its `node_modules` at run time.
 *
 * The result is cached on the global object, not on the shim: the shims are serialized with everything they
 * hold, and without a cache every call would pay a failed `require` plus a directory walk (BENCHMARKS.md,
 * figure 1). The runtime registers itself under the same key when it loads (provider/runtime/index.ts), so a
 * process that already holds a copy, however it was reached, shares that copy and its settings. Comments
 * inside these function bodies would be serialized too, so they stay out here.
 */
export function loadCustodyRuntime(): typeof runtime {
  const cache = globalThis as { [key: symbol]: typeof runtime | undefined };
  const key = Symbol.for("pulumi-custody.runtime");
  if (cache[key]) return cache[key];
  try {
    const loaded: typeof runtime = require(["pulumi-custody", "provider-runtime"].join("/"));
    cache[key] = loaded;
    return loaded;
  } catch (err) {
    const { code, message } = err as { code?: string; message?: string };
    if (code !== "MODULE_NOT_FOUND" || !String(message).includes("'pulumi-custody/provider-runtime'"))
      throw err;
    const path = require("node:path");
    const fs = require("node:fs");
    for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
      const manifest = path.join(dir, "package.json");
      if (
        fs.existsSync(manifest) &&
        JSON.parse(fs.readFileSync(manifest, "utf8")).name === "pulumi-custody"
      ) {
        const loaded: typeof runtime = require(path.join(dir, "dist", "provider", "runtime", "index.js"));
        cache[key] = loaded;
        return loaded;
      }
      if (path.dirname(dir) === dir) break;
    }
    throw new Error(
      "Cannot load pulumi-custody/provider-runtime from the program directory: add pulumi-custody to the " +
        "program's dependencies (npm install pulumi-custody) and run `npm run build` if it is a local checkout.",
    );
  }
}
