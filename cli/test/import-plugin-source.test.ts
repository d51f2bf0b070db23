// The YAML program `custody import --language yaml` generates names the plugin's version and release URL on
// every resource (a YAML program has no SDK to name them; without them the engine looks for the plugin in
// github.com/pulumi's releases). The engine's code generation is played by a stand-in `pulumi` that writes
// the program the real one writes (checked against pulumi-yaml v1.25.0's output).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { generateProgram } from "../import/generate";
import { PLUGIN_DOWNLOAD_URL, PLUGIN_VERSION, withPluginSource } from "../import/plugin-source";

const GENERATED = `resources:
  treasury:
    type: custody:Vault
    properties:
      name: Treasury
      type: evm
    options:
      protect: true
  deposits:
    type: custody:VaultAddress
    properties:
      vaultId: v-1
      addressType: segwit
`;

const cliVersion = (
  JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string }
).version;

describe("custody import --language yaml: the plugin's version and release URL in the program", () => {
  let dir: string;
  let pulumi: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-plugin-source-"));
    pulumi = path.join(dir, "pulumi");
    fs.writeFileSync(path.join(dir, "generated.yaml"), GENERATED);
    // `import … --out <file>` writes the program; everything else succeeds quietly.
    fs.writeFileSync(
      pulumi,
      `#!/bin/sh\nwhile [ $# -gt 0 ]; do\n  if [ "$1" = "--out" ]; then cp "${path.join(dir, "generated.yaml")}" "$2"; fi\n  shift\ndone\nexit 0\n`,
      { mode: 0o755 },
    );
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("every resource of the generated YAML program carries version and pluginDownloadURL", async () => {
    const program = await generateProgram({
      language: "yaml",
      importText: '{"resources":[]}',
      protect: true,
      env: { PATH: process.env.PATH },
      pulumi,
    });

    assert.equal(
      program,
      `resources:
  treasury:
    type: custody:Vault
    properties:
      name: Treasury
      type: evm
    options:
      version: ${cliVersion}
      pluginDownloadURL: github://api.github.com/pulumi-custody/pulumi-custody
      protect: true
  deposits:
    type: custody:VaultAddress
    properties:
      vaultId: v-1
      addressType: segwit
    options:
      version: ${cliVersion}
      pluginDownloadURL: github://api.github.com/pulumi-custody/pulumi-custody
`,
    );
  });

  it("the TypeScript and Python programs are left as generated (their SDKs name the plugin)", async () => {
    for (const language of ["typescript", "python"] as const) {
      const program = await generateProgram({
        language,
        importText: '{"resources":[]}',
        protect: true,
        env: { PATH: process.env.PATH },
        pulumi,
      });
      assert.equal(program, GENERATED, language);
    }
  });

  it("the version is this package's, the one version of a release; sections other than resources are untouched", () => {
    assert.equal(PLUGIN_VERSION, cliVersion);
    assert.equal(PLUGIN_DOWNLOAD_URL, "github://api.github.com/pulumi-custody/pulumi-custody");
    const text = "variables:\n  x:\n    fn::invoke:\n      function: custody:getVaults\noutputs:\n  y: 1\n";
    assert.equal(withPluginSource(text), text);
  });
});
