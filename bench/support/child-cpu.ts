/**
 * CPU time used by this process's finished children and their own waited-for descendants (Linux `cutime` +
 * `cstime` of /proc/self/stat). The difference around a `pulumi up` is the CPU of the whole engine process tree:
 * the CLI, the language host, the program and the provider.
 */
import * as fs from "node:fs";

/** `getconf CLK_TCK` on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Milliseconds of CPU (user + system) of every child that has exited and been waited for so far. */
export function finishedChildrenCpuMs(): number {
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  // Fields 16 and 17 (cutime, cstime), counted after the parenthesised command name (field 2).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
