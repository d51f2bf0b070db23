// The files the repository holds that are generated from the plugin's schema are the ones the release's schema
// generates, so that a change of the schema without them fails here (`bash scripts/update-generated.sh` brings
// them up to date):
// - docs/api-docs: the registry's API docs, a page per resource and function in TypeScript, Python, Go and YAML
//   (scripts/registry-docs.sh);
// - sdk/go/custody: the Go SDK, the module `go get` fetches from the tag sdk/go/custody/v<version>.
// And the registry's two pages written by hand, docs/_index.md and docs/installation-configuration.md, are
// registry pages that name every setting of the schema.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoPath } from "../support/pulumi-engine";
import { type ReleaseArtifacts, releaseArtifacts } from "../support/release";

const execFileAsync = promisify(execFile);
const UPDATE = "run `bash scripts/update-generated.sh` and commit what it changes";

/** Every file under `dir`, by path relative to it, with its contents. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.set(path.relative(dir, full), fs.readFileSync(full, "utf8"));
    }
  };
  walk(dir);
  return files;
}

/** The files that differ between two trees: missing from one, or with other contents. */
function differences(committed: Map<string, string>, generated: Map<string, string>): string[] {
  const names = new Set([...committed.keys(), ...generated.keys()]);
  return [...names]
    .filter((name) => committed.get(name) !== generated.get(name))
    .map((name) =>
      !committed.has(name) ? `${name} (missing)` : !generated.has(name) ? `${name} (not generated)` : name,
    )
    .sort();
}

/** The front matter of a Markdown page (`---` lines), as keys and values. */
function frontMatter(text: string): Record<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(match, "the page starts with front matter");
  return Object.fromEntries(
    match[1]
      .split("\n")
      .filter((line) => /^\w+:/.test(line))
      .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
  );
}

describe("the files generated from the plugin's schema are up to date (docs/api-docs, sdk/go/custody)", () => {
  let release: ReleaseArtifacts;
  let schema: {
    resources: Record<string, unknown>;
    functions: Record<string, unknown>;
    config: { variables: Record<string, unknown> };
  };
  let tempRoot: string;

  before(async function () {
    this.timeout(30 * 60_000);
    release = await releaseArtifacts();
    schema = JSON.parse(fs.readFileSync(release.schema, "utf8"));
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "generated-files-"));
  });

  after(async () => {
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  it("docs/api-docs is what scripts/registry-docs.sh generates from the release's schema", async function () {
    this.timeout(15 * 60_000);
    const out = path.join(tempRoot, "api-docs");
    await execFileAsync("bash", [repoPath("scripts", "registry-docs.sh"), release.schema, out], {
      maxBuffer: 16 * 1024 * 1024,
    });

    const generated = tree(out);
    assert.deepEqual(differences(tree(repoPath("docs", "api-docs")), generated), [], UPDATE);
    // A page for each resource and function, with its code in each language the project ships an SDK for.
    for (const token of [...Object.keys(schema.resources), ...Object.keys(schema.functions)]) {
      const page = generated.get(path.join(token.split(":")[2].toLowerCase(), "_index.md"));
      assert.ok(page, `a page for ${token}`);
      assert.equal(frontMatter(page).layout, "api", token);
      assert.match(page, /\{\{< chooser language "typescript,python,go,yaml" >\}\}/, token);
      for (const language of ["typescript", "python", "go", "yaml"])
        assert.ok(
          page.includes(`{{% choosable language ${language} %}}\n\n\`\`\`${language}\n`),
          `${token}: ${language}`,
        );
    }
  });

  it("sdk/go/custody is the release's Go SDK (custody-go-sdk-v<version>.tar.gz)", async () => {
    const out = path.join(tempRoot, "go-sdk");
    await fs.promises.mkdir(out);
    await execFileAsync("tar", [
      "-xzf",
      path.join(release.dir, `custody-go-sdk-v${release.version}.tar.gz`),
      "-C",
      out,
    ]);

    const generated = tree(out);
    assert.deepEqual(differences(tree(repoPath("sdk", "go", "custody")), generated), [], UPDATE);
    assert.match(
      generated.get("go.mod") ?? "",
      /^module github\.com\/pulumi-custody\/pulumi-custody\/sdk\/go\/custody$/m,
    );
    assert.equal(JSON.parse(generated.get("pulumi-plugin.json") ?? "{}").version, release.version);
  });

  it("docs/_index.md and docs/installation-configuration.md are registry pages; the latter names every setting", () => {
    for (const [page, title] of [
      ["_index.md", "Custody Provider"],
      ["installation-configuration.md", "Custody Installation & Configuration"],
    ]) {
      const fields = frontMatter(fs.readFileSync(repoPath("docs", page), "utf8"));
      assert.equal(fields.title, title, page);
      assert.equal(fields.layout, "package", page);
      assert.ok((fields.meta_desc ?? "").length > 20, `${page}: meta_desc`);
    }
    const installation = fs.readFileSync(repoPath("docs", "installation-configuration.md"), "utf8");
    for (const name of Object.keys(schema.config.variables))
      assert.ok(
        installation.includes(`\`custody:${name}\``),
        `docs/installation-configuration.md names custody:${name}`,
      );
  });
});
