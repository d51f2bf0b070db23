// The YAML program `custody import --language yaml` generates names the plugin's version and release URL on
// every resource (a YAML program has no SDK to name them; without them the engine looks for the plugin in
// github.com/pulumi's releases). The engine's code generation is played by a stand-in `pulumi` that writes
// the program the real one writes (checked against pulumi-yaml v1.25.0's output).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { generateProgram } from "../import/generate";
import {
  missingPluginMessage,
  PLUGIN_DOWNLOAD_URL,
  PLUGIN_VERSION,
  withPluginSource,
} from "../import/plugin-source";
import type { Selection } from "../import/select";
import { importFileOf } from "../import-file/import-file";

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

const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string] ?? process.arch;
const archive = (v: string) => `pulumi-resource-custody-v${v}-${process.platform}-${arch}.tar.gz`;

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
      `# The custody provider plugin: the engine downloads version ${cliVersion} from github://api.github.com/pulumi-custody/pulumi-custody (the \`version\` and
# \`pluginDownloadURL\` of each resource). Without network access, install it from the release archive:
# pulumi plugin install resource custody ${cliVersion} --file ${archive(cliVersion)}
resources:
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
    assert.equal(withPluginSource(text).split("\n").slice(3).join("\n"), text);
  });

  describe("the plugin missing from the machine", () => {
    // The engine's errors, as v3.248.0 prints them when the plugin is missing.
    const ENGINE = {
      "no download allowed":
        "error: no resource plugin 'pulumi-resource-custody' found in the workspace or on your $PATH",
      "the download failed":
        "error: Could not automatically download and install resource plugin 'pulumi-resource-custody' at version v0.2.0, install the plugin using `pulumi plugin install resource custody v0.2.0 --server github://api.github.com/pulumi-custody/pulumi-custody`: error downloading provider custody to file: failed to download plugin: custody-0.2.0: 403 HTTP error fetching plugin",
      "no version named":
        'error: preview failed: failed to validate provider config: could not find latest version for provider custody: Get "https://api.github.com/repos/pulumi/pulumi-custody/releases/latest": dial tcp: lookup api.github.com: no such host',
    };

    for (const [what, said] of Object.entries(ENGINE))
      it(`${what}: custody import fails with one message that says how to install the plugin from a file`, async () => {
        const failing = path.join(dir, "pulumi-fails");
        fs.writeFileSync(
          failing,
          `#!/bin/sh\nif [ "$1" = "import" ]; then\n  echo ${JSON.stringify(said).replace(/\$/g, "\\$").replace(/`/g, "\\`")}\n  exit 255\nfi\nexit 0\n`,
          { mode: 0o755 },
        );

        const failed = await generateProgram({
          language: "yaml",
          importText: '{"resources":[]}',
          protect: true,
          env: { PATH: process.env.PATH },
          pulumi: failing,
        }).then(
          () => undefined,
          (err: Error) => err.message,
        );

        assert.ok(failed, "the generation fails");
        assert.equal(failed.split("\n").length, 1, failed);
        assert.match(failed, /the custody provider plugin \(pulumi-resource-custody \S+\) is not installed/);
        assert.ok(
          failed.includes(
            `pulumi plugin install resource custody ${cliVersion} --file ${archive(cliVersion)}`,
          ),
          failed,
        );
        assert.doesNotMatch(failed, /--server/);
      });

    it("another failure keeps the engine's words", () => {
      assert.equal(missingPluginMessage("error: the stack is locked"), undefined);
    });
  });

  it("the import file names the plugin's version and release URL on every entry (pulumi import --file reads them)", () => {
    const selection = {
      vaults: [{ name: "treasury", vault: { id: "v-1" } }],
      addresses: [{ name: "deposits", address: { id: "a-1", vault: { id: "V-1" } } }],
    } as unknown as Selection;

    const file = importFileOf(selection);

    assert.deepEqual(
      file.resources.map((r) => [r.name, r.version, r.pluginDownloadUrl]),
      [
        ["treasury", cliVersion, "github://api.github.com/pulumi-custody/pulumi-custody"],
        ["deposits", cliVersion, "github://api.github.com/pulumi-custody/pulumi-custody"],
      ],
    );
  });
});
