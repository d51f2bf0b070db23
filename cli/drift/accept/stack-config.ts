/**
 * Config values an accept sets, through Pulumi's own command: `pulumi config set` on a copy of the stack's
 * config file (`--config-file`), so that the file is written in Pulumi's format by Pulumi itself (its comments
 * kept), a secret encrypted by the stack's own secrets provider, and nothing is changed until every edit of the
 * accept has been made: the copy's text is what the accept then writes, or shows with `--dry-run`.
 *
 * Each value goes to `pulumi config set` on standard input with `--raw` (exactly as it is: no argument a
 * process listing shows, nothing trimmed); a value stays a secret when the program reads it as one or the
 * file already holds it encrypted.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isMap, parseDocument } from "yaml";

/** A config value to set. */
export interface ConfigChange {
  /** Its key, with its namespace (`myproject:bName`). */
  readonly key: string;
  /** The value. */
  readonly value: unknown;
  /** Whether it is to be a secret. */
  readonly secret: boolean;
  /** How the program reads it. */
  readonly type: "string" | "boolean" | "object";
}

/** How `pulumi` runs. */
export interface PulumiRunOptions {
  /** The project directory. */
  readonly cwd: string;
  /** The environment (the backend, the passphrase or secrets provider's credentials). */
  readonly env: NodeJS.ProcessEnv;
  /** The stack; the selected one when absent. */
  readonly stack?: string;
}

/** The keys of a stack config file's text that hold an encrypted value. */
export function secretKeys(configText: string): Set<string> {
  const doc = parseDocument(configText);
  const config = isMap(doc.contents) ? doc.contents.get("config", true) : undefined;
  const keys = new Set<string>();
  if (isMap(config))
    for (const pair of config.items) {
      const value = pair.value;
      if (isMap(value) && value.has("secure"))
        keys.add(String((pair.key as { value?: unknown })?.value ?? pair.key));
    }
  return keys;
}

/** Runs `pulumi` with `input` on standard input; rejects with its last words on a non-zero exit. */
function pulumi(args: readonly string[], input: string, run: PulumiRunOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "pulumi",
      [...args, ...(run.stack ? ["--stack", run.stack] : []), "--non-interactive"],
      {
        cwd: run.cwd,
        env: { ...run.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let said = "";
    child.stdout.on("data", (chunk: Buffer) => {
      said += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      said += chunk.toString("utf8");
    });
    child.on("error", (err: NodeJS.ErrnoException) =>
      reject(err.code === "ENOENT" ? new Error("the Pulumi CLI (`pulumi`) is not on PATH") : err),
    );
    child.on("close", (code) => {
      if (code === 0) resolve();
      else {
        const last = said.trim().split("\n").filter(Boolean).pop() ?? `exit ${code}`;
        reject(new Error(`\`pulumi ${args.slice(0, 2).join(" ")}\` failed: ${last}`));
      }
    });
    child.stdin.on("error", () => {
      // A CLI that exits before reading its input reports why on close.
    });
    child.stdin.end(input);
  });
}

/** The stack config file's text once `changes` are set; the file itself is not touched. */
export async function stackConfigWith(
  file: string,
  changes: readonly ConfigChange[],
  run: PulumiRunOptions,
): Promise<string> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "custody-accept-config-"));
  try {
    const copy = path.join(dir, path.basename(file));
    const original = fs.existsSync(file) ? await fs.promises.readFile(file, "utf8") : "";
    await fs.promises.writeFile(copy, original);
    const encrypted = secretKeys(original);
    for (const change of changes) {
      const secret = change.secret || encrypted.has(change.key);
      const text = change.type === "object" ? JSON.stringify(change.value) : String(change.value);
      const kind = secret ? ["--secret"] : change.type === "boolean" ? ["--type", "bool"] : ["--plaintext"];
      await pulumi(["config", "set", change.key, "--config-file", copy, "--raw", ...kind], text, run);
    }
    return await fs.promises.readFile(copy, "utf8");
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
