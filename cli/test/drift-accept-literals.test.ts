/**
 * Hostile input for `custody drift --accept`: a vault name comes from the service, typed by anyone in the
 * console. Whatever it holds (quotes, backslashes, line breaks, `${…}`, `$$`, comment and YAML markers, control
 * and bidi characters, lone surrogates), it is written as a literal that the language reads back as exactly that
 * name: checked by each language's own reader (JavaScript evaluated in a fresh context, Python's
 * parser, the `yaml` package and Pulumi YAML's `$$` rule), never breaking the file around it nor
 * starting code, a comment or an interpolation. The report shows such names by the project's one escaping rule.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import fc from "fast-check";
import { parseDocument } from "yaml";
import { acceptDrift } from "../drift/accept/accept";
import { javascriptString, pythonString, UNSAFE_CHARACTER, yamlString } from "../drift/accept/literals";
import { acceptMarkdown } from "../drift/accept/markdown";
import type { AcceptReport } from "../drift/accept/report";
import { yamlStringValue } from "../drift/accept/yaml-program";
import { drifted, driftOf, field, projectWith } from "./accept-support";

/** Pieces a hostile name is made of, beside any characters at all. */
const HOSTILE_PIECES = [
  '"',
  "'",
  "`",
  "\\",
  "\\n",
  "\n",
  "\r\n",
  "\t",
  "\0",
  "\x1b[31m",
  "\x7f",
  "\u0085",
  "\u2028",
  "\u2029",
  "\u202e",
  "\u2066",
  "\u200f",
  "\ufeff",
  "\ud800",
  "\udc00",
  "😀",
  "é",
  "${",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: hostile text, as written
  "${x}",
  "$$",
  "$",
  "#{x}",
  "{",
  "}",
  "*/",
  "/*",
  "//",
  "#",
  '"""',
  "'''",
  ": ",
  " #",
  "- ",
  "|",
  ">",
  "&a",
  "*a",
  "!tag",
  "%",
  "@",
  "true",
  "null",
  "~",
  "0x1f",
  "1e5",
  " ",
];

const hostileName = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE_PIECES), fc.string({ unit: "binary", maxLength: 3 })), {
    minLength: 1,
    maxLength: 8,
  })
  .map((parts) => parts.join(""));

/** A literal holds no character a reader would not see as itself, and stays on one line. */
function assertVisible(literal: string): void {
  assert.ok(!UNSAFE_CHARACTER.test(literal), `a raw control or bidi character in ${JSON.stringify(literal)}`);
  assert.ok(!/[\n\r]/.test(literal), "one line");
}

describe("custody drift --accept: hostile names are written as literals, never as code", () => {
  const made: string[] = [];
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("JavaScript: each quote style evaluates to the name itself", () => {
    fc.assert(
      fc.property(hostileName, fc.constantFrom('"', "'", "`"), (name, quote) => {
        const literal = javascriptString(name, quote as '"');
        assertVisible(literal);
        const sandbox: { out?: unknown; injected?: boolean } = {};
        vm.runInNewContext(`out = ${literal}; // ${"end"}`, sandbox);
        assert.equal(sandbox.out, name);
        assert.equal(sandbox.injected, undefined);
      }),
      { numRuns: 400 },
    );
  });

  it("Python: the interpreter reads back the name, in either quote", () => {
    const samples = fc.sample(fc.tuple(hostileName, fc.constantFrom('"', "'")), { numRuns: 400, seed: 44 });
    const literals = samples.map(([name, quote]) => pythonString(name, quote as '"'));
    for (const literal of literals) assertVisible(literal);
    // One interpreter for every sample: each literal is a line of a program that lists them.
    const program = `import ast, json, sys\nvalues = [\n${literals.map((l) => `    ${l},  # a comment`).join("\n")}\n]\nsys.stdout.write(json.dumps([{"chars": [ord(c) for c in v]} for v in values]))\n`;
    const run = spawnSync(process.env.PULUMI_PYTHON_CMD ?? "python3", ["-c", program], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(run.status, 0, run.stderr);
    const read = (JSON.parse(run.stdout) as { chars: number[] }[]).map(({ chars }) =>
      chars.map((c) => String.fromCodePoint(c)).join(""),
    );
    // Python counts code points; a lone surrogate is one either way.
    assert.deepEqual(
      read,
      samples.map(([name]) => name),
    );
  });

  it("YAML: every style parses to the name, and Pulumi YAML reads no interpolation in it", () => {
    fc.assert(
      fc.property(hostileName, fc.constantFrom("plain", "single", "double"), (name, style) => {
        const scalar = yamlString(name, style as "plain");
        assertVisible(scalar);
        const doc = parseDocument(
          `resources:\n  a:\n    properties:\n      name: ${scalar} # a comment\n      type: evm\n`,
        );
        assert.deepEqual(doc.errors, [], scalar);
        const read = doc.getIn(["resources", "a", "properties", "name"]);
        assert.equal(typeof read, "string", scalar);
        assert.equal(yamlStringValue(read as string), name, scalar);
        assert.equal(doc.getIn(["resources", "a", "properties", "type"]), "evm");
      }),
      { numRuns: 400 },
    );
  });

  it("through the whole accept, in each language: one line changes, the name reads back, the rest stays", async function () {
    this.timeout(60_000);
    const names = [
      ...fc.sample(hostileName, { numRuns: 6, seed: 7 }),
      'x"); require("child_process").exec("rm -rf /"); ("',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: hostile text, as written
      "x\n#!/bin/sh\n${HOME}`id`\u202e",
      "a' + __import__('os').system('id') + 'b",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: hostile text, as written
      "${bName} $${x} #not-a-comment",
    ];
    const programs = {
      js: [
        "Pulumi.yaml",
        "name: proj\nruntime: nodejs\n",
        "index.js",
        'const { Vault } = require("pulumi-custody");\nnew Vault("a", { name: "old", type: "evm" }); // keep\nnew Vault("b", { name: \'b\', type: "evm" });\n',
      ],
      py: [
        "Pulumi.yaml",
        "name: proj\nruntime: python\n",
        "__main__.py",
        'import pulumi_custody as custody\ncustody.Vault("a", name="old", type="evm")  # keep\ncustody.Vault("b", name=\'b\', type="evm")\n',
      ],
      yaml: [
        "Main.yaml",
        "resources:\n  a:\n    type: custody:Vault\n    properties:\n      name: old # keep\n      type: evm\n  b:\n    type: custody:Vault\n    properties:\n      name: b\n      type: evm\n",
        "Pulumi.yaml",
        "name: proj\nruntime: yaml\n",
      ],
    } as const;
    for (const [language, [file1, text1, file2, text2]] of Object.entries(programs)) {
      for (const name of names) {
        const dir = projectWith({ [file1]: text1, [file2]: text2 });
        made.push(dir);
        const program = language === "yaml" ? file1 : file2;
        const before = fs.readFileSync(path.join(dir, program), "utf8");
        const result = await acceptDrift(driftOf([drifted("a", [field("name", "old", name)])]), {
          projectDir: dir,
          stack: "dev",
          env: process.env,
          cwd: dir,
          dryRun: false,
        });
        assert.equal(result.exitCode, 0, `${language}: ${JSON.stringify(name)}`);
        const after = fs.readFileSync(path.join(dir, program), "utf8");
        const oldLines = before.split("\n");
        const newLines = after.split("\n");
        assert.equal(newLines.length, oldLines.length, `${language}: the same lines`);
        const changed = newLines.filter((line, i) => line !== oldLines[i]);
        assert.equal(changed.length, 1, `${language}: one line changed`);
        assert.match(changed[0] ?? "", /# keep$|\/\/ keep$/, "the line keeps its comment");
        assertVisible(changed[0] ?? "");
      }
    }
  });

  it("the report shows hostile names escaped: no control character, no code span or block closed early", () => {
    const name = "x``` \x1b[2J\u202e\n## forged heading\n```";
    const accept: AcceptReport = {
      dryRun: false,
      exitCode: 3,
      reason: null,
      accepted: [
        {
          resource: "a",
          urn: "urn:pulumi:dev::proj::custody:index:Vault::a",
          field: "name",
          how: "rewritten",
          file: "index.js",
          line: 3,
          declaredIn: "index.js",
          configKey: null,
          value: name,
          secret: false,
        },
      ],
      handEdits: [
        {
          resource: "d`x",
          urn: "urn:pulumi:dev::proj::custody:index:Vault::d",
          field: "name",
          file: "index.js",
          line: 9,
          reason: "name is a template literal: change it so that it is the service's value",
          value: name,
          secret: false,
        },
      ],
      imported: [],
      files: ["index.js"],
      diff: `--- a/index.js\n+++ b/index.js\n@@ -1,1 +1,1 @@\n-old\n+${JSON.stringify(name)}\n \`\`\`\`\n`,
    };
    const text = acceptMarkdown(accept).join("\n");
    const raw = [...text].filter((c) => c !== "\n" && UNSAFE_CHARACTER.test(c));
    assert.deepEqual(raw, [], "no raw control or bidi character");
    assert.doesNotMatch(text, /^## forged heading/m);
    assert.match(text, /set to "x``` \\x1b\[2J\\u202e\\n## forged heading\\n```"$/m);
    assert.match(text, /^- `index\.js:9`: `` d`x ``, `name`: /m);
    // The diff's block: its fence is longer than any run of backticks a line of it starts with.
    const fence = /^(`{3,})diff$/m.exec(text)?.[1] ?? "";
    assert.ok(fence.length >= 5, fence);
    assert.equal(text.split("\n").filter((l) => l === fence).length, 1, "closed once, at its end");
  });
});
