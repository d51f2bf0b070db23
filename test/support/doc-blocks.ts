/**
 * The fenced code blocks of the docs (README.md, docs/*.md and each package's README), for the suites that
 * compile or run them (test/unit/docs/code-blocks.test.ts, test/e2e/delivered-packages.test.ts).
 *
 * @module
 */
import * as fs from "node:fs";
import { repoPath } from "./pulumi-engine";

/** One fenced code block of a document. */
export interface CodeBlock {
  /** The document, relative to the repository. */
  document: string;
  /** The line of its opening fence (from 1). */
  line: number;
  /** Its language, as the fence names it (lower case; empty when it names none). */
  language: string;
  /** Its text, without the indentation of its fence. */
  code: string;
  /** Why it is only type-checked, when the line before it says so. */
  compileOnly?: string;
  /** The index.ts of a policy pack (type-checked with `skipLibCheck`, not run). */
  policyPack?: true;
  /** A program on an SDK generated from the plugin's schema (checked where that SDK is installed). */
  generatedSdk?: true;
}

/** The documents whose code blocks are checked: README.md, docs/*.md and each package's README. */
export function documents(): string[] {
  const { workspaces } = JSON.parse(fs.readFileSync(repoPath("package.json"), "utf8")) as {
    workspaces: string[];
  };
  const docs = fs
    .readdirSync(repoPath("docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs.sort(), ...workspaces.map((workspace) => `${workspace}/README.md`)];
}

/** The fenced code blocks of `document` (``` or ~~~, indented inside a list item or not). */
export function codeBlocksOf(document: string): CodeBlock[] {
  const lines = fs.readFileSync(repoPath(document), "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i] ?? "");
    if (!open) continue;
    const [, indent = "", fence = "```", language = ""] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] ?? "";
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, "") === "") break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    let before = i - 1;
    while (before >= 0 && (lines[before] ?? "").trim() === "") before--;
    const marker = (lines[before] ?? "").trim();
    const compileOnly = /^<!-- doc-test: compile-only: (.+) -->$/.exec(marker)?.[1];
    const policyPack = marker === "<!-- doc-test: policy-pack -->";
    const generatedSdk = marker === "<!-- doc-test: generated-sdk -->";
    blocks.push({
      document,
      line: i + 1,
      language: language.toLowerCase(),
      code: `${body.join("\n")}\n`,
      ...(generatedSdk ? { generatedSdk: true as const } : {}),
      ...(policyPack
        ? { policyPack: true, compileOnly: "a policy pack runs only inside `pulumi preview --policy-pack`" }
        : compileOnly
          ? { compileOnly }
          : {}),
    });
    i = j;
  }
  return blocks;
}
