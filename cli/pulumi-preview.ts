/**
 * Runs `pulumi preview --json` for the commands that need a preview of their own (`custody review -- …`,
 * `custody drift`), with the event stream switched on (`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true`): only
 * the stream carries the policy results and the preview's outcome (cli/review/preview-input.ts). The CLI's
 * own messages on standard error pass through to the command's, so that a pipeline's log shows them.
 */
import { spawn } from "node:child_process";

/** Where and how to run the preview. */
export interface PreviewRunOptions {
  /** The project directory. */
  cwd: string;
  /** The stack (`--stack`); the selected one when absent. */
  stack?: string;
  /** The environment of the CLI (and through it of the program and the providers). */
  env: NodeJS.ProcessEnv;
  /** Where the CLI's standard error goes. */
  stderr: NodeJS.WritableStream;
  /**
   * Scrubs each line of standard error before it is passed on (cli/secrets.ts: the command's secrets); the
   * lines go through whole, so that a secret is never cut in two at a chunk's edge.
   */
  redact?: (line: string) => string;
}

/** What the preview printed. */
export interface PreviewRun {
  /** The event stream, one JSON event per line (empty when the CLI stopped before the engine ran). */
  events: string;
  /** The CLI's exit code. */
  exitCode: number;
  /** The last line the CLI printed on standard error (its reason when it printed no events). */
  lastError: string;
}

/** Runs `pulumi preview --json [--stack S] --non-interactive <args>` and collects its event stream. */
export function runPreviewEvents(args: readonly string[], options: PreviewRunOptions): Promise<PreviewRun> {
  const stackArgs = options.stack ? ["--stack", options.stack] : [];
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", ["preview", "--json", ...stackArgs, "--non-interactive", ...args], {
      cwd: options.cwd,
      env: { ...options.env, PULUMI_ENABLE_STREAMING_JSON_PREVIEW: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    let errText = "";
    let pending = "";
    const redact = options.redact ?? ((line: string) => line);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      errText = (errText + text).slice(-8192);
      const lines = (pending + text).split("\n");
      pending = lines.pop() ?? "";
      if (lines.length > 0) options.stderr.write(lines.map((line) => `${redact(line)}\n`).join(""));
    });
    child.on("error", (err: NodeJS.ErrnoException) => {
      reject(
        err.code === "ENOENT"
          ? new Error("the Pulumi CLI (`pulumi`) is not on PATH")
          : new Error(`could not run \`pulumi preview\`: ${err.message}`),
      );
    });
    child.on("close", (code, signal) => {
      if (pending !== "") options.stderr.write(redact(pending));
      const lines = errText
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean);
      resolve({
        events: Buffer.concat(out).toString("utf8"),
        exitCode: code ?? (signal ? 128 : 1),
        lastError: redact(lines[lines.length - 1] ?? ""),
      });
    });
  });
}
