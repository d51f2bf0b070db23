/**
 * The `policy` folder is what `pulumi preview --policy-pack` runs: the engine starts its package.json's `main`
 * from that folder, so the compiled pack, `@pulumi/policy` and `@pulumi/pulumi` must resolve from there, and
 * the pack's version (which @pulumi/policy reads from that package.json) is the release's, the version of the
 * packages it ships with.
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import path from "node:path";

// The compiled tests run from `dist/test`.
const folder = path.resolve(__dirname, "..", "..");

describe("@pulumi-custody/policy: the policy pack folder", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8"));

  it("runs the compiled pack, with the package's version", () => {
    assert.equal(require.resolve(folder), path.join(folder, "dist", "pack.js"));
    for (const sibling of ["pulumi-custody", "@pulumi-custody/sdk"]) {
      assert.equal(manifest.version, require(`${sibling}/package.json`).version, sibling);
    }
    const yaml = fs.readFileSync(path.join(folder, "PulumiPolicy.yaml"), "utf8");
    assert.match(yaml, /^runtime:\n {2}name: nodejs\n/m);
  });

  it("resolves @pulumi/policy and @pulumi/pulumi from the folder, and the package ships them", () => {
    for (const dependency of ["@pulumi/policy", "@pulumi/pulumi/cmd/run-policy-pack"]) {
      // Found in the node_modules of the folder or of a folder above it (npm hoists to the workspace's).
      const resolved = require.resolve(dependency, { paths: [folder] });
      const marker = `${path.sep}node_modules${path.sep}`;
      assert.ok(resolved.includes(marker), resolved);
      const owner = resolved.slice(0, resolved.indexOf(marker));
      assert.ok(folder === owner || folder.startsWith(owner + path.sep), `${dependency}: ${resolved}`);
    }
    assert.ok(manifest.dependencies["@pulumi/policy"], "@pulumi/policy is a dependency, not a devDependency");
    for (const file of ["dist", "PulumiPolicy.yaml"]) {
      assert.ok(manifest.files.includes(file), `package.json "files" has ${file}`);
    }
  });
});
