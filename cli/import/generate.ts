/**
 * The program of an import, written by the engine's own code generation: `pulumi import --file <file> --out
 * <program>` asks the language host of the project's runtime for it (GenerateProgram: our Node.js and Python
 * and Go hosts, language-hosts/hostkit/codegen.go; the upstream YAML host for YAML), from the inputs each resource's `read`
 * reports. The import that generates it runs on a scratch stack, in a scratch project of the language, on a
 * local backend in a temporary directory that is removed afterwards: it reads the vaults and changes nothing,
 * neither on the service nor in any stack of the user. The code is what the user's own `pulumi import --file`
 * will record, so the program runs with no diff.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Language, RUNTIME_OF } from "./languages";
import { missingPluginMessage, withPluginSource } from "./plugin-source";
import { runPulumi } from "./stacks";

export { LANGUAGES, type Language, RUNTIME_OF } from "./languages";

/** Options of {@link generateProgram}. */
export interface GenerateOptions {
  /** The language of the program. */
  readonly language: Language;
  /**
   * The text of the import file (`{ resources: [...] }`). The scratch import reads it from its own directory,
   * so that the user's files are written only once the program exists: a failed generation writes none.
   */
  readonly importText: string;
  /** Mark the resources `protect: true` in the code, as `pulumi import` does by default. */
  readonly protect: boolean;
  /** The environment of `pulumi` (PATH, PULUMI_HOME with the plugin) plus the API settings for the provider. */
  readonly env: NodeJS.ProcessEnv;
  /** The `pulumi` binary (default: `pulumi` on PATH). */
  readonly pulumi?: string;
  /** Told how many resources were read so far. */
  readonly onProgress?: (done: number) => void;
}

/** Runs a scratch `pulumi import` and returns the program text it generated. */
export async function generateProgram(options: GenerateOptions): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "custody-import-"));
  try {
    const project = join(dir, "project");
    const program = join(dir, "program");
    await mkdir(project);
    await writeFile(
      join(project, "Pulumi.yaml"),
      `name: custody-import\nruntime: ${RUNTIME_OF[options.language]}\ndescription: scratch project of custody import\n`,
    );
    // A local backend of its own, with a passphrase that guards nothing (the state holds no secret and is
    // removed with the directory); the user's backend, login and stacks are never touched. The state is thrown
    // away, so the engine need not write it after every resource: without those checkpoints 1,000 imports take
    // 5 s instead of 42 s (the state file is rewritten whole each time).
    const env: NodeJS.ProcessEnv = {
      ...options.env,
      PULUMI_BACKEND_URL: `file://${join(dir, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "custody-import-scratch",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_SKIP_CHECKPOINTS: "true",
    };
    delete env.PULUMI_CONFIG_PASSPHRASE_FILE;
    delete env.PULUMI_STACK;
    await mkdir(join(dir, "state"));
    const importFile = join(dir, "import.json");
    await writeFile(importFile, options.importText);
    const run = { cwd: project, env, pulumi: options.pulumi };
    await runPulumi(["stack", "init", "import"], run);
    const output = await streamedPulumi(
      [
        "import",
        "--file",
        importFile,
        "--out",
        program,
        "--generate-code",
        `--protect=${options.protect}`,
        "--yes",
        "--suppress-progress",
      ],
      run,
      options.onProgress,
    ).catch((err: Error) => {
      // The plugin missing: one message that says how to install it, also without network.
      const missing = missingPluginMessage(err.message);
      throw missing ? new Error(missing) : err;
    });
    // The engine imports a resource whose inputs fail `check` with a warning only; its code would not run.
    const invalid = output.split("\n").filter((line) => /failed to validate|has a problem:/.test(line));
    if (invalid.length > 0)
      throw new Error(
        `the provider refused the inputs of some imported resources, so their code would not run:\n${invalid.join("\n")}`,
      );
    const code = await readFile(program, "utf8");
    // A YAML program has no SDK to name the plugin's version and release: its resources name them.
    return options.language === "yaml" ? withPluginSource(code) : code;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `pulumi` and counts the resources it reports imported (`= custody:index:Vault <name> imported`), for
 * the progress line; resolves to everything it printed, rejects with its last lines on a non-zero exit.
 */
function streamedPulumi(
  args: readonly string[],
  run: { cwd: string; env: NodeJS.ProcessEnv; pulumi?: string },
  onProgress?: (done: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(run.pulumi ?? "pulumi", [...args, "--non-interactive"], {
      cwd: run.cwd,
      env: run.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let pending = "";
    let done = 0;
    const take = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output += text;
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (/\bcustody:index:\S+\s+\S+\s+imported\b/.test(line)) onProgress?.(++done);
      }
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "ENOENT"
          ? new Error(`\`${run.pulumi ?? "pulumi"}\` was not found on PATH: install the Pulumi CLI`)
          : err,
      ),
    );
    child.on("close", (code) => {
      if (code === 0) resolve(output);
      else {
        const said = output.trim().split("\n").slice(-15).join("\n");
        reject(new Error(`\`pulumi ${args.slice(0, 1).join(" ")}\` of the scratch stack failed:\n${said}`));
      }
    });
  });
}
