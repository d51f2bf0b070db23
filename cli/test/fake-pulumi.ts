/**
 * A stand-in `pulumi` for the unit tests of the commands that run a preview (`custody review -- …`,
 * `custody drift`): it records how it was called, prints a given event stream and standard error, and exits
 * with a given code. The end-to-end tests (test/e2e/review.test.ts, test/e2e/drift.test.ts) run the real CLI.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The compiled command: the tests run from cli/dist/test, beside cli/dist/custody.js. */
const custody = path.join(__dirname, "..", "custody.js");

/** How the stand-in was called. */
export interface FakeCall {
  /** Its arguments. */
  args: string[];
  /** Its working directory. */
  cwd: string;
  /** `PULUMI_ENABLE_STREAMING_JSON_PREVIEW` as it saw it. */
  streaming?: string;
}

/** A stand-in `pulumi` in a directory of its own. */
export interface FakePulumi {
  /** The directory holding it (put it first on PATH). */
  bin: string;
  /** How it was last called. */
  lastCall(): FakeCall;
  /** An environment with it first on PATH. */
  env(): NodeJS.ProcessEnv;
}

/** Writes a stand-in `pulumi` under `dir` that prints `events`, writes `stderr` and exits `code`. */
export function fakePulumi(dir: string, events: string, code: number, stderr = ""): FakePulumi {
  const bin = fs.mkdtempSync(path.join(dir, "bin-"));
  const calls = path.join(bin, "call.json");
  const stream = path.join(bin, "events.jsonl");
  fs.writeFileSync(stream, events);
  fs.writeFileSync(
    path.join(bin, "pulumi"),
    [
      "#!/usr/bin/env node",
      'const fs = require("node:fs");',
      `fs.writeFileSync(${JSON.stringify(calls)}, JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd(), streaming: process.env.PULUMI_ENABLE_STREAMING_JSON_PREVIEW }));`,
      `process.stdout.write(fs.readFileSync(${JSON.stringify(stream)}, "utf8"));`,
      `process.stderr.write(${JSON.stringify(stderr)});`,
      `process.exitCode = ${code};`,
    ].join("\n"),
    { mode: 0o755 },
  );
  return {
    bin,
    lastCall: () => JSON.parse(fs.readFileSync(calls, "utf8")) as FakeCall,
    env: () => ({ ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` }),
  };
}

/** What the built `custody` bin did. */
export interface CustodyRun {
  /** Its exit code. */
  status: number | null;
  /** Its standard output. */
  stdout: string;
  /** Its standard error. */
  stderr: string;
}

/** Runs the built `custody` bin. */
export function runCustody(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): CustodyRun {
  const result = spawnSync(process.execPath, [custody, ...args], {
    input: options.input ?? "",
    encoding: "utf8",
    env: options.env ?? process.env,
    cwd: options.cwd,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** No Node.js stack trace (`    at fn (file:line)`) in what a command printed. */
export function hasStackTrace(out: CustodyRun): boolean {
  return /^\s+at .+[(:]\d+/m.test(`${out.stdout}\n${out.stderr}`);
}
