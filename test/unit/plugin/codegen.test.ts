// custody-codegen (engine/codegen) on the plugin's schema: the Python and TypeScript SDKs carry the schema's
// version and require the Pulumi SDK we test with, every resource and function of the schema has its class or
// function with every input, and bad arguments fail with a message naming the flag and the rule.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { packageSchema } from "../../../plugin/schema";
import { repoPath } from "../../support/pulumi-engine";

const execFileAsync = promisify(execFile);

type Schema = {
  name: string;
  version?: string;
  language?: Record<string, unknown>;
  resources: Record<string, { inputProperties: Record<string, unknown> }>;
  functions: Record<string, unknown>;
};

/** `custody:index:VaultAddress` -> `VaultAddress`. */
const memberName = (token: string) => token.split(":")[2];
/** The Python generator's names: `vaultGroupIds` -> `vault_group_ids`, `VaultAddress` -> `vault_address`. */
const snake = (name: string) =>
  name.replace(/^[A-Z]/, (c) => c.toLowerCase()).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** The TypeScript generator's module names: `VaultAddress` -> `vaultAddress`, `getVaults` stays. */
const camel = (name: string) => name[0].toLowerCase() + name.slice(1);

describe("custody-codegen: SDKs from the plugin's schema", () => {
  let codegen: string;
  let tmp: string;
  const schema = packageSchema() as Schema;

  /** Writes `spec` as a schema file and runs the generator; resolves to the output directory. */
  async function generate(language: string, spec: object, extra: string[] = []): Promise<string> {
    const schemaPath = path.join(tmp, `schema-${Math.random().toString(36).slice(2)}.json`);
    await fs.promises.writeFile(schemaPath, JSON.stringify(spec));
    const out = path.join(tmp, `${language}-${Math.random().toString(36).slice(2)}`);
    await execFileAsync(codegen, ["-language", language, "-schema", schemaPath, "-out", out, ...extra]);
    return out;
  }

  async function generateFails(language: string, spec: object, extra: string[] = []): Promise<string> {
    const err = await generate(language, spec, extra).then(
      () => assert.fail("the generator should have failed"),
      (e: { stderr?: string }) => e,
    );
    return String(err.stderr);
  }

  const read = (...segments: string[]) => fs.promises.readFile(path.join(...segments), "utf8");

  before(async function () {
    // Builds the generator the first time on a machine (about a minute), then takes it from the cache.
    this.timeout(15 * 60_000);
    const { stdout } = await execFileAsync("bash", [repoPath("scripts", "gen-sdks.sh"), "--codegen-path"]);
    codegen = stdout.trim();
    tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), "custody-codegen-"));
  });

  after(async () => {
    if (tmp) await fs.promises.rm(tmp, { recursive: true, force: true });
  });

  it("the schema carries the package version the SDKs must claim", () => {
    const pkg = JSON.parse(fs.readFileSync(repoPath("package.json"), "utf8")) as { version: string };
    assert.equal(schema.version, pkg.version);
  });

  it("Python: setup.py has the schema's version and requires pulumi >= 3.248.0 < 4", async () => {
    const out = await generate("python", schema);

    const setup = await read(out, "setup.py");
    assert.match(setup, new RegExp(`^VERSION = "${schema.version}"$`, "m"));
    assert.match(setup, /'pulumi>=3\.248\.0,<4\.0\.0'/);
    assert.match(setup, /setup\(name='pulumi_custody'/);
    const plugin = JSON.parse(await read(out, "pulumi_custody", "pulumi-plugin.json"));
    assert.deepEqual(plugin, { resource: true, name: "custody", version: schema.version });
  });

  it("Python: a class per resource with every input, a module per function", async () => {
    const out = await generate("python", schema);

    assert.ok(Object.keys(schema.resources).length >= 2);
    for (const [token, resource] of Object.entries(schema.resources)) {
      const source = await read(out, "pulumi_custody", `${snake(memberName(token))}.py`);
      assert.match(source, new RegExp(`^class ${memberName(token)}\\(pulumi\\.CustomResource\\):`, "m"));
      assert.match(source, new RegExp(`super\\(${memberName(token)}, __self__\\).__init__\\(\\s*'${token}'`));
      for (const input of Object.keys(resource.inputProperties))
        assert.match(source, new RegExp(`\\b${snake(input)}: `), `${token} input ${input}`);
    }
    for (const token of Object.keys(schema.functions)) {
      const source = await read(out, "pulumi_custody", `${snake(memberName(token))}.py`);
      assert.match(source, new RegExp(`'${token}'`), `function ${token}`);
    }
  });

  it("Python: each function takes its data source's arguments and returns typed fields", async () => {
    const out = await generate("python", schema);

    const getVaults = await read(out, "pulumi_custody", "get_vaults.py");
    assert.match(
      getVaults,
      /^def get_vaults\([^)]*\bnames: Optional\[Sequence\[_builtins\.str\]\] = None,/ms,
    );
    assert.match(getVaults, /\bmax_items: Optional\[_builtins\.int\] = None/);
    assert.match(getVaults, /def items\(self\) -> Sequence\['outputs\.GetVaultsItem'\]:/);
    const getUser = await read(out, "pulumi_custody", "get_user.py");
    assert.match(getUser, /^def get_user\(id: Optional\[_builtins\.str\] = None,/m);
    assert.match(getUser, /def email\(self\) -> Optional\[_builtins\.str\]:/);
    const functions = Object.entries(schema.functions) as [string, { inputs: { properties: object } }][];
    for (const [token, fn] of functions) {
      const source = await read(out, "pulumi_custody", `${snake(memberName(token))}.py`);
      for (const arg of Object.keys(fn.inputs.properties))
        assert.match(source, new RegExp(`\\b${snake(arg)}: `), `${token} argument ${arg}`);
    }
  });

  it("TypeScript: package.json has the schema's version and @pulumi/pulumi; a class per resource with every input", async () => {
    const out = await generate("nodejs", schema);

    const pkg = JSON.parse(await read(out, "package.json"));
    assert.equal(pkg.name, "@pulumi-custody/custody");
    assert.equal(pkg.version, schema.version);
    assert.equal(pkg.dependencies["@pulumi/pulumi"], "^3.248.0");
    assert.deepEqual(pkg.pulumi, { resource: true, name: "custody", version: schema.version });
    for (const [token, resource] of Object.entries(schema.resources)) {
      const source = await read(out, `${camel(memberName(token))}.ts`);
      assert.match(source, new RegExp(`export class ${memberName(token)} extends pulumi\\.CustomResource`));
      for (const input of Object.keys(resource.inputProperties))
        assert.match(source, new RegExp(`\\b${input}\\??: `), `${token} input ${input}`);
    }
    for (const token of Object.keys(schema.functions))
      assert.ok(fs.existsSync(path.join(out, `${camel(memberName(token))}.ts`)), `function ${token}`);
    const getVaults = await read(out, "getVaults.ts");
    assert.match(getVaults, /^\s+names\?: string\[\];$/m);
    assert.match(getVaults, /^\s+maxItems\?: number;$/m);
    assert.match(getVaults, /readonly items: outputs\.GetVaultsItem\[\];/);
  });

  it("a schema without a version needs -version, which the SDK then claims", async () => {
    const { version: _, ...unversioned } = schema;

    const message = await generateFails("python", unversioned);
    assert.match(message, /the schema has no version and -version is not given/);

    const out = await generate("python", unversioned, ["-version", "2.3.4"]);
    assert.match(await read(out, "setup.py"), /^VERSION = "2\.3\.4"$/m);
  });

  it("-version that differs from the schema's is refused", async () => {
    const message = await generateFails("nodejs", schema, ["-version", "9.9.9"]);
    assert.match(
      message,
      new RegExp(`-version 9\\.9\\.9 differs from the schema's version ${schema.version}`),
    );
  });

  it("options of the schema's own language section win over the defaults", async () => {
    const out = await generate("python", {
      ...schema,
      language: { python: { requires: { pulumi: ">=3.300.0,<4.0.0" }, packageName: "custody_sdk" } },
    });

    const setup = await read(out, "setup.py");
    assert.match(setup, /'pulumi>=3\.300\.0,<4\.0\.0'/);
    assert.match(setup, /setup\(name='custody_sdk'/);
    assert.match(
      setup,
      new RegExp(`^VERSION = "${schema.version}"$`, "m"),
      "the version default still applies",
    );
  });

  it("bad arguments name the flag and the rule", async () => {
    assert.match(await generateFails("ruby", schema), /-language must be nodejs or python, got "ruby"/);
    assert.match(
      await generateFails("python", schema, ["-pulumi-version", "latest"]),
      /-pulumi-version must be a semantic version/,
    );
    assert.match(
      await generateFails("python", { ...schema, language: { python: "yes" } }),
      /schema field language\.python is not an object/,
    );
  });
});
