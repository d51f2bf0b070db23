// From Node 26, the closure serializer's enumeration of the built-in modules (every dynamic resource) loads
// `node:ffi`, which printed an ExperimentalWarning on the stack's row of every run. The first custody resource
// loads them quietly; a warning of the program's own still prints.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";

const quietBuiltins = path.resolve(__dirname, "..", "resources", "quiet-builtins.js");

/** What @pulumi/pulumi's closure serializer does (runtime/closure/createClosure.js, computeBuiltInModules). */
const SERIALIZER_ENUMERATION = `
  for (const name of require("node:module").builtinModules) {
    if (name.startsWith("_") || ["punycode", "sys", "wasi"].includes(name)) continue;
    try { require(name); } catch {}
  }`;

async function stderrOf(script: string): Promise<string> {
  const { stderr } = await promisify(execFile)(process.execPath, ["-e", script]);
  return stderr;
}

describe("the built-in modules the closure serializer loads", () => {
  it("load without an experimental-feature warning after the first custody resource", async () => {
    const stderr = await stderrOf(
      `require(${JSON.stringify(quietBuiltins)}).loadBuiltinsQuietly();${SERIALIZER_ENUMERATION}`,
    );
    assert.doesNotMatch(stderr, /ExperimentalWarning/);
  });

  it("a warning the program raises itself, before or after, still prints", async () => {
    const stderr = await stderrOf(
      `process.emitWarning("before", "ExperimentalWarning");` +
        `require(${JSON.stringify(quietBuiltins)}).loadBuiltinsQuietly();${SERIALIZER_ENUMERATION}` +
        `process.emitWarning("after", "ExperimentalWarning");`,
    );
    assert.match(stderr, /ExperimentalWarning: before/);
    assert.match(stderr, /ExperimentalWarning: after/);
  });

  it("this Node's enumeration warns without it, where the Node has an experimental built-in", async () => {
    const stderr = await stderrOf(SERIALIZER_ENUMERATION);
    const experimental = /ExperimentalWarning: (.*)/.exec(stderr)?.[1];
    // On Node 20 and 24 no built-in warns; on the current leg's Node 26 `node:ffi` does.
    if (Number(process.versions.node.split(".")[0]) >= 26) assert.match(experimental ?? "", /FFI/);
    else assert.equal(experimental, undefined);
  });
});
