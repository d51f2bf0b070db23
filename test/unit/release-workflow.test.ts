/**
 * The release workflow (.github/workflows/release.yml): it runs on a version tag, builds with the script the
 * tests run (scripts/release-artifacts.sh, test/e2e/release.test.ts), verifies the checksums that script
 * writes, and publishes what it built: each npm tarball, the Python wheel and sdist, and a GitHub release with
 * the plugin archives and the checksums. The build runs before every publish step.
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";

const root = path.resolve(__dirname, "..", "..", "..");

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface Workflow {
  on: { push?: { tags?: string[]; branches?: string[] } };
  jobs: Record<string, { needs?: string | string[]; steps: Step[]; permissions?: Record<string, string> }>;
}

describe("the release workflow (.github/workflows/release.yml)", () => {
  const workflow = parse(
    fs.readFileSync(path.join(root, ".github", "workflows", "release.yml"), "utf8"),
  ) as Workflow;
  /** The jobs' steps in the order they run (a job after the jobs it needs). */
  const ordered: { job: string; step: Step }[] = [];
  const done = new Set<string>();
  while (done.size < Object.keys(workflow.jobs).length) {
    const ready = Object.entries(workflow.jobs).filter(
      ([name, job]) =>
        !done.has(name) && [job.needs ?? []].flat().every((needed) => done.has(needed as string)),
    );
    assert.ok(ready.length > 0, "the jobs' `needs` have no cycle");
    for (const [name, job] of ready) {
      for (const step of job.steps) ordered.push({ job: name, step });
      done.add(name);
    }
  }
  const first = (match: (step: Step) => boolean) => ordered.findIndex(({ step }) => match(step));
  const runs = (pattern: RegExp) => (step: Step) => pattern.test(step.run ?? "");

  it("runs on a pushed version tag, and on nothing else", () => {
    assert.deepEqual(Object.keys(workflow.on), ["push"]);
    assert.deepEqual(workflow.on.push?.tags, ["v*"]);
    assert.equal(workflow.on.push?.branches, undefined);
  });

  it("refuses a tag that is not v<the version of package.json>, and a file that says another version", () => {
    const tag = first(runs(/GITHUB_REF_NAME" != "v\$version"/));
    const stamp = first(runs(/node scripts\/stamp-version\.js --check/));
    const build = first(runs(/scripts\/release-artifacts\.sh/));
    assert.ok(tag >= 0 && stamp >= 0, "both checks are steps");
    assert.ok(tag < build && stamp < build, "before the build");
  });

  it("builds with scripts/release-artifacts.sh, the script the tests run, and verifies its checksums", () => {
    const build = first(runs(/^\s*bash scripts\/release-artifacts\.sh dist\/release$/m));
    assert.ok(build >= 0, "a step runs `bash scripts/release-artifacts.sh dist/release`");
    assert.ok(fs.existsSync(path.join(root, "scripts", "release-artifacts.sh")));
    const verify = ordered.filter(({ step }) => /^sha256sum -c checksums\.txt$/.test(step.run?.trim() ?? ""));
    assert.ok(verify.length >= 1, "a step runs `sha256sum -c checksums.txt`");
  });

  /** An expression of the workflow, `${{ … }}` (a plain string: the workflow's syntax, not a template). */
  const expression = (inner: string) => `\${{ ${inner} }}`;

  it("publishes each npm tarball, the Python packages and a GitHub release, only after the build", () => {
    const build = first(runs(/scripts\/release-artifacts\.sh/));
    const npm = first(runs(/npm publish --access public "\.\/\$tarball-\$version\.tgz"/));
    const pypi = first(
      (s) => /^pypa\/gh-action-pypi-publish@/.test(s.uses ?? "") || /twine upload/.test(s.run ?? ""),
    );
    const github = first(runs(/gh release create "\$GITHUB_REF_NAME"/));
    for (const [what, index] of Object.entries({ npm, pypi, github })) {
      assert.ok(index >= 0, `a step publishes to ${what}`);
      assert.ok(index > build, `${what} is published after the build`);
    }
    assert.equal(ordered[npm]?.step.env?.NODE_AUTH_TOKEN, expression("secrets.NPM_TOKEN"));
    const published = /for tarball in ([^;]+); do/.exec(ordered[npm]?.step.run ?? "")?.[1]?.split(/[\s\\]+/);
    const names = ["sdk", "emulator", "provider", "policy", "plugin", "cli"].map(
      (w) =>
        (JSON.parse(fs.readFileSync(path.join(root, w, "package.json"), "utf8")) as { name: string }).name,
    );
    assert.deepEqual(
      published?.filter(Boolean).sort(),
      [...names, "@pulumi-custody/custody"].map((n) => n.replace(/^@/, "").replace("/", "-")).sort(),
      "every package and the Node.js SDK",
    );
    const release = ordered[github]?.step.run ?? "";
    assert.match(release, /pulumi-resource-custody-"\$GITHUB_REF_NAME"-\*\.tar\.gz/, "the plugin archives");
    assert.match(release, /\bchecksums\.txt\b/);
    assert.match(release, /custody-go-sdk-"\$GITHUB_REF_NAME"\.tar\.gz/, "the Go SDK");
    assert.equal(ordered[github]?.step.env?.GH_TOKEN, expression("github.token"));
  });

  it("tags the Go SDK's module (sdk/go/custody/v<version>) after the build checked it is the generated one", () => {
    const build = first(runs(/scripts\/release-artifacts\.sh/));
    const check = first(runs(/npx mocha dist\/test\/e2e\/generated-files\.test\.js/));
    const tag = first(runs(/git push origin "sdk\/go\/custody\/\$GITHUB_REF_NAME"/));
    assert.ok(build >= 0 && build < check && check < tag, "build, check, then the tag");
    assert.match(
      ordered[tag]?.step.run ?? "",
      /git tag "sdk\/go\/custody\/\$GITHUB_REF_NAME" "\$GITHUB_SHA"/,
    );
  });
});
