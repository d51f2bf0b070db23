/**
 * Loads the runtime core (`pulumi-custody/core`) in the provider process, for the serialized providers in this
 * folder. Only types are imported here; `require` is a global the serializer leaves alone, so this function
 * stays small when Pulumi has to serialize it by value (see ./index.ts).
 */
import type * as core from "../core";

/**
 * Loads the core in the provider process. The serialized module resolves packages from the program directory:
 * that finds `node_modules/pulumi-custody` in a user's program. No path is baked in.
 *
 * The module name is computed, so that a bundler (esbuild, webpack) leaves this `require` to Node.js instead
 * of inlining the whole core into the closure that Pulumi serializes: a bundled program then works too,
 * loading the core from its `node_modules` at run time.
 *
 * The result is cached on the global object, not on the shim: the shims are serialized with everything they
 * hold, and without a cache every call would pay a `require` (BENCHMARKS.md, figure 1). The core registers
 * itself under the same key when it loads (provider/core/index.ts), so a process that already holds a copy,
 * however it was reached, shares that copy and its settings. Comments inside these function bodies would be
 * serialized too, so they stay out here.
 */
export function loadCustodyRuntime(): typeof core {
  const cache = globalThis as { [key: symbol]: typeof core | undefined };
  const key = Symbol.for("pulumi-custody.runtime");
  if (cache[key]) return cache[key];
  try {
    const loaded: typeof core = require(["pulumi-custody", "core"].join("/"));
    cache[key] = loaded;
    return loaded;
  } catch (err) {
    const { code, message } = err as { code?: string; message?: string };
    if (code !== "MODULE_NOT_FOUND" || !String(message).includes("'pulumi-custody/core'")) throw err;
    throw new Error(
      "Cannot load pulumi-custody/core from the program directory: add pulumi-custody to the program's " +
        "dependencies (npm install pulumi-custody).",
    );
  }
}
