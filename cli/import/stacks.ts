/**
 * What stacks already manage, read with `pulumi stack export`: the vaults and addresses of both paths (the
 * plugin's `custody:index:*` and the dynamic provider's `pulumi-nodejs:dynamic/custody:*`), so that an import
 * leaves them out (a second resource for the same vault would fight the first), and the resource names the
 * stack to import into already uses, so that the new names never collide with them. The stack's config gives
 * the API settings, as for every command that works on a stack.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { custodyResourceKind, type ExportedDeployment } from "pulumi-custody/core";

const execFileAsync = promisify(execFile);

/** What one stack manages. */
export interface StackHoldings {
  /** The stack, as named on the command line (or `(selected stack)`). */
  readonly stack: string;
  /** Ids of the vaults it manages, lower case. */
  readonly vaultIds: ReadonlySet<string>;
  /** Ids of the addresses it manages, lower case. */
  readonly addressIds: ReadonlySet<string>;
  /** Every resource name it uses. */
  readonly names: ReadonlySet<string>;
}

/** The holdings of a stack from its exported deployment. */
export function holdingsOf(stack: string, deployment: ExportedDeployment | undefined): StackHoldings {
  const vaultIds = new Set<string>();
  const addressIds = new Set<string>();
  const names = new Set<string>();
  for (const resource of deployment?.resources ?? []) {
    names.add(resource.urn.slice(resource.urn.lastIndexOf("::") + 2));
    // A resource being deleted is on its way out; a pending replacement still holds its object.
    if (typeof resource.id !== "string" || resource.id === "" || resource.delete === true) continue;
    const kind = custodyResourceKind(resource.type);
    if (kind === "Vault") vaultIds.add(resource.id.toLowerCase());
    else if (kind === "VaultAddress") addressIds.add(resource.id.toLowerCase());
  }
  return { stack, vaultIds, addressIds, names };
}

/** How the Pulumi CLI is run: where, with which environment, and which binary. */
export interface PulumiRun {
  /** The project directory. */
  readonly cwd: string;
  /** The environment (the user's backend login, passphrase, `PULUMI_HOME`, …). */
  readonly env: NodeJS.ProcessEnv;
  /** The `pulumi` binary (default: `pulumi` on `PATH`). */
  readonly pulumi?: string;
}

/** Runs the Pulumi CLI non-interactively; its stdout. Rejects with its last words on a non-zero exit. */
export async function runPulumi(args: readonly string[], run: PulumiRun): Promise<string> {
  try {
    const { stdout } = await execFileAsync(run.pulumi ?? "pulumi", [...args, "--non-interactive"], {
      cwd: run.cwd,
      env: run.env,
      maxBuffer: 512 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const e = err as { code?: unknown; stderr?: string; stdout?: string };
    if (e.code === "ENOENT")
      throw new Error(`\`${run.pulumi ?? "pulumi"}\` was not found on PATH: install the Pulumi CLI`);
    const said = `${e.stderr ?? ""}\n${e.stdout ?? ""}`.trim().split("\n").slice(-12).join("\n");
    throw new Error(`\`pulumi ${args.join(" ")}\` failed:\n${said}`);
  }
}

/** The exported deployment of a stack (`undefined` stack: the selected one). */
export async function exportStack(stack: string | undefined, run: PulumiRun): Promise<ExportedDeployment> {
  const text = await runPulumi(["stack", "export", ...(stack ? ["--stack", stack] : [])], run);
  return (JSON.parse(text) as { deployment?: ExportedDeployment }).deployment ?? { resources: [] };
}

/** The stack's `custody:*` config, with secrets (the API settings), as `{ "custody:baseUrl": value }`. */
export async function stackCustodyConfig(
  stack: string | undefined,
  run: PulumiRun,
): Promise<Record<string, unknown>> {
  const text = await runPulumi(
    ["config", "--json", "--show-secrets", ...(stack ? ["--stack", stack] : [])],
    run,
  );
  const config = JSON.parse(text) as Record<string, { value?: unknown }>;
  return Object.fromEntries(
    Object.entries(config)
      .filter(([key]) => key.startsWith("custody:"))
      .map(([key, entry]) => [key, entry.value]),
  );
}
