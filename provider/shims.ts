/**
 * The serialized providers. Pulumi serializes the provider object of a dynamic resource, by value, into every
 * resource's state (`__provider`). These shims keep that text tiny and stable across releases: each method
 * loads the compiled implementation (`pulumi-custody/provider-runtime`) at run time and delegates. Nothing
 * else is captured: no client, no setting, no credential (settings arrive through `configure()` or the
 * environment of the provider process).
 *
 * Only types are imported here; `require` and `process` are globals the serializer leaves alone.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as runtime from "./runtime";

/**
 * Loads the implementation in the provider process. The serialized module resolves packages from the program
 * directory: that finds `node_modules/pulumi-custody` in a user's program. A program inside this repository
 * (its demo, test fixtures) has no such folder, so the loader then looks for the package's own checkout above
 * the working directory. No path is baked in.
 *
 * The module name is computed, so that a bundler (esbuild, webpack) leaves this `require` to Node.js instead
 * of inlining the whole runtime into the closure that Pulumi serializes: a bundled program then works too,
 * loading the runtime from its `node_modules` at run time.
 *
 * The result is cached on the global object, not on the shim: the shims are serialized with everything they
 * hold, and without a cache every call would pay a failed `require` plus a directory walk (BENCHMARKS.md,
 * figure 1). Comments inside these function bodies would be serialized too, so they stay out here.
 */
function loadCustodyRuntime(): typeof runtime {
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

/** The provider of `pulumi-nodejs:dynamic/custody:Vault`. One module-level object, serialized once per program. */
export const vaultProvider: pulumi.dynamic.ResourceProvider = {
  configure: async (req) => loadCustodyRuntime().configure(req.config),
  check: async (olds, news) => loadCustodyRuntime().vault.check(olds, news),
  diff: async (id, olds, news) => loadCustodyRuntime().vault.diff(id, olds, news),
  create: async (inputs) => loadCustodyRuntime().vault.create(inputs),
  read: async (id, props) => loadCustodyRuntime().vault.read(id, props),
  update: async (id, olds, news) => loadCustodyRuntime().vault.update(id, olds, news),
  delete: async (id, props) => loadCustodyRuntime().vault.delete(id, props),
};

/** The provider of `pulumi-nodejs:dynamic/custody:VaultAddress`. */
export const vaultAddressProvider: pulumi.dynamic.ResourceProvider = {
  configure: async (req) => loadCustodyRuntime().configure(req.config),
  check: async (olds, news) => loadCustodyRuntime().vaultAddress.check(olds, news),
  diff: async (id, olds, news) => loadCustodyRuntime().vaultAddress.diff(id, olds, news),
  create: async (inputs) => loadCustodyRuntime().vaultAddress.create(inputs),
  read: async (id, props) => loadCustodyRuntime().vaultAddress.read(id, props),
  update: async (id, olds, news) => loadCustodyRuntime().vaultAddress.update(id, olds, news),
  delete: async (id, props) => loadCustodyRuntime().vaultAddress.delete(id, props),
};
