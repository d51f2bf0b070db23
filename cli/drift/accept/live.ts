/**
 * The live value of a secret input, which the drift check sees only as a mask: read from the service itself,
 * through the one door to the API (`connect` of `pulumi-custody/core`), with the stack's settings (its
 * `custody:*` config, secrets included, read with `pulumi config --show-secrets` and kept in memory), else the
 * environment's, as every `custody` command that works on a stack. Only a vault's name can be a secret input
 * that drifts; the connection is made on the first need.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { connect } from "pulumi-custody/core";
import type { DriftedResource } from "../drift";

const execFileAsync = promisify(execFile);

/** Where `pulumi` runs. */
export interface LiveRun {
  /** The project directory. */
  readonly cwd: string;
  /** The stack; the selected one when absent. */
  readonly stack?: string;
  /** The environment. */
  readonly env: NodeJS.ProcessEnv;
}

/** The stack's `custody:*` config, secrets shown (in memory only). */
async function custodyConfig(run: LiveRun): Promise<Record<string, unknown>> {
  const { stdout } = await execFileAsync(
    "pulumi",
    ["config", "--json", "--show-secrets", ...(run.stack ? ["--stack", run.stack] : []), "--non-interactive"],
    { cwd: run.cwd, env: run.env, maxBuffer: 64 * 1024 * 1024 },
  );
  const config = JSON.parse(stdout) as Record<string, { value?: unknown }>;
  return Object.fromEntries(
    Object.entries(config)
      .filter(([key]) => key.startsWith("custody:"))
      .map(([key, entry]) => [key, entry.value]),
  );
}

/** A reader of secret live values for an accept: `undefined` when one cannot be read. */
export function liveSecretReader(
  run: LiveRun,
): (resource: DriftedResource, field: string) => Promise<unknown> {
  let client: Promise<Awaited<ReturnType<typeof connect>>["client"]> | undefined;
  return async (resource, field) => {
    if (resource.kind !== "Vault" || field !== "name" || !resource.vaultId) return undefined;
    try {
      client ??= custodyConfig(run)
        .catch(() => ({}) as Record<string, unknown>)
        .then(
          async (config) => (await connect({ config: (key: string) => config[key], env: run.env })).client,
        );
      return (await (await client).vaults.get(resource.vaultId)).name;
    } catch {
      return undefined;
    }
  };
}
