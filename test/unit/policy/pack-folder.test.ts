/**
 * The `policy` folder is what `pulumi preview --policy-pack` runs: the engine starts its package.json's `main`
 * from that folder, so the compiled pack, `@pulumi/policy` and `@pulumi/pulumi` must resolve from there, and
 * the pack's version (which @pulumi/policy reads from that package.json) is the package's.
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "..", "..", "..", "..");
const folder = path.join(root, "policy");

describe("@pulumi-custody/policy: the policy pack folder", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8"));
  const rootManifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

  it("runs the compiled pack, with the package's version", () => {
    assert.equal(require.resolve(folder), path.join(folder, "dist", "pack.js"));
    assert.equal(manifest.version, rootManifest.version);
    const yaml = fs.readFileSync(path.join(folder, "PulumiPolicy.yaml"), "utf8");
    assert.match(yaml, /^runtime:\n {2}name: nodejs\n/m);
  });

  it("resolves @pulumi/policy and @pulumi/pulumi from the folder, and the package ships them", () => {
    for (const dependency of ["@pulumi/policy", "@pulumi/pulumi/cmd/run-policy-pack"]) {
      assert.ok(require.resolve(dependency, { paths: [folder] }).startsWith(path.join(root, "node_modules")));
    }
    assert.ok(manifest.dependencies["@pulumi/policy"], "@pulumi/policy is a dependency, not a devDependency");
    for (const file of ["dist", "PulumiPolicy.yaml"]) {
      assert.ok(manifest.files.includes(file), `package.json "files" has ${file}`);
    }
  });
});
