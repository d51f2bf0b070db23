/** The machine a run measured, so that numbers are never read without it. */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./repo";

const run = promisify(execFile);

/** Hardware and software of the run. */
export interface MachineInfo {
  /** CPU model string, e.g. `AMD EPYC 7B13`. */
  cpuModel: string;
  /** Cores this process may use (`os.availableParallelism()`). */
  cores: number;
  /** Physical memory in bytes. */
  memoryBytes: number;
  /** `linux 6.1.0 x64`. */
  os: string;
  /** `process.version`. */
  node: string;
  /** `pulumi version` of the CLI on PATH, or why it is missing. */
  pulumiCli: string;
  /** Version of the `@pulumi/pulumi` package the programs use. */
  pulumiSdk: string;
  /** Versions of the load and HTTP tools. */
  tools: Record<string, string>;
}

/** Describes this machine. Never throws: a missing piece reads `unknown (...)`. */
export async function describeMachine(): Promise<MachineInfo> {
  return {
    cpuModel: cpuModel(),
    cores: os.availableParallelism(),
    memoryBytes: os.totalmem(),
    os: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    pulumiCli: await pulumiCliVersion(),
    pulumiSdk: packageVersion("@pulumi/pulumi"),
    tools: {
      undici: packageVersion("undici"),
      autocannon: packageVersion("autocannon"),
      typescript: packageVersion("typescript"),
    },
  };
}

function cpuModel(): string {
  const fromOs = os.cpus()[0]?.model?.trim();
  // Some virtual machines report only the family in /proc/cpuinfo; keep whatever there is.
  return fromOs && fromOs.length > 0 ? fromOs : "unknown";
}

async function pulumiCliVersion(): Promise<string> {
  const bin = process.env.PULUMI_CUSTODY_BIN;
  const exe = bin ? path.join(bin, "pulumi") : "pulumi";
  try {
    const { stdout } = await run(exe, ["version"], { timeout: 30_000 });
    return stdout.trim();
  } catch (err) {
    return `unknown (${(err as Error).message.split("\n")[0]})`;
  }
}

/** Version of an installed package, read from its package.json under the repository's node_modules. */
export function packageVersion(name: string): string {
  try {
    const file = path.join(repoRoot(), "node_modules", name, "package.json");
    return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
  } catch {
    return "not installed";
  }
}
