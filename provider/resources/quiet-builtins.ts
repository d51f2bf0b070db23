/**
 * Serializing a dynamic provider, @pulumi/pulumi requires every module in `require("node:module").builtinModules`
 * (but `punycode`, `sys` and `wasi`) to recognize them in closures. From Node 26 that list holds `node:ffi`, whose
 * first load prints "ExperimentalWarning: FFI is an experimental feature" on the stack's row of every run, though
 * no program asked for it. So the first custody resource loads the same modules itself, with experimental-feature
 * warnings held back for exactly that loop; a warning the program raises before or after is printed as usual.
 */
import { builtinModules } from "node:module";

/** The modules @pulumi/pulumi's closure serializer leaves out of its enumeration. */
const NOT_ENUMERATED = new Set(["punycode", "sys", "wasi"]);

let loaded = false;

/** Loads the built-in modules the closure serializer will load, without their experimental-feature warnings. */
export function loadBuiltinsQuietly(): void {
  if (loaded) return;
  loaded = true;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if ((warning instanceof Error ? warning.name : type) === "ExperimentalWarning") return;
    return Reflect.apply(emitWarning, process, [warning, ...rest]);
  } as typeof process.emitWarning;
  try {
    for (const name of builtinModules) {
      if (name.startsWith("_") || NOT_ENUMERATED.has(name)) continue;
      try {
        require(name);
      } catch {
        // One the serializer cannot load either: it fails there, with its own message.
      }
    }
  } finally {
    process.emitWarning = emitWarning;
  }
}
