/**
 * Reading what the Pulumi CLI printed, as a person reads it: its `Diagnostics:` section, row by row.
 *
 * ```ts
 * const { failed, output } = await cliOutput(stack, ["preview"]);
 * const rows = diagnosticsByRow(output); // "pulumi:pulumi:Stack my-stack" → ["error: …"]
 * assertReadable(output);
 * ```
 *
 * @module
 */
import * as assert from "node:assert/strict";
import type { Stack } from "@pulumi/pulumi/automation";
import { pulumiCli } from "./e2e-custody";

/** What a CLI run printed (stdout, then stderr), whether it failed or not; `failed` says which. */
export async function cliOutput(stack: Stack, args: string[]): Promise<{ failed: boolean; output: string }> {
  try {
    const { stdout, stderr } = await pulumiCli(stack, args);
    return { failed: false, output: `${stdout}${stderr}` };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { failed: true, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/**
 * The lines of the CLI's last `Diagnostics:` section (up to `Resources:` or `Outputs:`), without blank ones: an
 * operation that previews first (`up`, `refresh --yes`) prints the preview's section, then its own.
 */
export function diagnostics(output: string): string[] {
  const start = output.lastIndexOf("\nDiagnostics:\n");
  assert.ok(start >= 0, `no Diagnostics section in:\n${output}`);
  const rest = output.slice(start + "\nDiagnostics:\n".length);
  const end = rest.search(/^(Resources|Outputs|Policies):$/m);
  return (end < 0 ? rest : rest.slice(0, end)).split("\n").filter((line) => line.trim() !== "");
}

/**
 * The diagnostics of each row, keyed `<type> <name>` (`pulumi:pulumi:Stack my-project-dev`,
 * `pulumi-nodejs:dynamic/custody:Vault treasury`), each line trimmed.
 */
export function diagnosticsByRow(output: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of diagnostics(output)) {
    const header = /^ {2}(\S+) \((.+)\):$/.exec(line);
    if (header) {
      current = [];
      rows.set(`${header[1]} ${header[2]}`, current);
    } else {
      assert.ok(current, `a diagnostic line before any row: ${line}`);
      current.push(line.trim());
    }
  }
  return rows;
}

/** Nothing a person cannot use: no stack frame, no ANSI colour code (the output is not a terminal), no `.ts` path. */
export function assertReadable(output: string): void {
  assert.doesNotMatch(output, /^\s+at /m, output);
  assert.ok(!output.includes("\u001b["), `ANSI colour codes in:\n${output}`);
  assert.doesNotMatch(output, /\.ts:\d+:\d+/, output);
}
