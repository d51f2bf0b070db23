/**
 * CPU time and peak memory of this process's descendants, sampled from `/proc` while something runs. The
 * Pulumi engine starts and stops its processes on its own (CLI → language host → program, CLI →
 * `pulumi-resource-pulumi-nodejs` → `node .../cmd/dynamic-provider`), so they are found by ancestry and told
 * apart by command line. Linux only.
 */
import * as fs from "node:fs";

/** `getconf CLK_TCK` on Linux: the unit of utime/stime in /proc/<pid>/stat. */
const CLOCK_TICKS_PER_SECOND = 100;

/** What was seen of one descendant process. */
export interface ProcessRecord {
  pid: number;
  /** Its command line (arguments joined by spaces), as last seen after it exec'd. */
  cmdline: string;
  /** CPU time (user + system) at the last scan, in milliseconds. */
  cpuMs: number;
  /** Largest VmHWM (the kernel's own high-water mark of resident memory) seen, in bytes. */
  peakRssBytes: number;
}

/** A running watcher. */
export interface ProcessTreeWatcher {
  /** Stops sampling (after one last scan) and resolves to every descendant seen. */
  stop: () => Promise<ProcessRecord[]>;
}

/**
 * Scans `/proc` every `intervalMs` and records every descendant of this process except `exclude` (e.g. a server
 * started before the measurement). A process's CPU is read at each scan, so up to `intervalMs` of a short-lived
 * process's last moments can be missed; VmHWM is a high-water mark, so a spike between scans still counts.
 */
export function watchProcessTree(intervalMs: number, exclude: readonly number[] = []): ProcessTreeWatcher {
  const records = new Map<number, ProcessRecord>();
  const skip = new Set(exclude);
  const scan = () => {
    const parents = new Map<number, number>();
    const cpu = new Map<number, number>();
    let entries: string[];
    try {
      entries = fs.readdirSync("/proc");
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
        // After the parenthesised command name: field 3 (state), 4 (ppid), ..., 14 (utime), 15 (stime).
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        parents.set(Number(entry), Number(fields[1]));
        cpu.set(Number(entry), ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND);
      } catch {
        // Exited meanwhile.
      }
    }
    for (const [pid, cpuMs] of cpu) {
      if (skip.has(pid) || !descends(pid, parents)) continue;
      const record = records.get(pid) ?? { pid, cmdline: "", cpuMs: 0, peakRssBytes: 0 };
      record.cpuMs = Math.max(record.cpuMs, cpuMs);
      try {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
        // A zombie has an empty command line; keep the last real one.
        if (cmdline) record.cmdline = cmdline;
        const hwm = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) record.peakRssBytes = Math.max(record.peakRssBytes, Number(hwm[1]) * 1024);
      } catch {
        // Exited meanwhile; keep what was seen.
      }
      records.set(pid, record);
    }
  };
  scan();
  const timer = setInterval(scan, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      scan();
      return [...records.values()];
    },
  };
}

function descends(pid: number, parents: Map<number, number>): boolean {
  let current = pid;
  for (let depth = 0; depth < 32; depth++) {
    const parent = parents.get(current);
    if (parent === undefined || parent <= 1) return false;
    if (parent === process.pid) return true;
    current = parent;
  }
  return false;
}

/** The part of the Pulumi engine a process plays, from its command line. */
export type EngineRole = "pulumi CLI" | "language host" | "program" | "provider" | "other";

/** Classifies an engine process by its command line. */
export function engineRole(cmdline: string): EngineRole {
  const [exe = "", script = ""] = cmdline.split(" ");
  const isNode = /(^|\/)node$/.test(exe);
  // The dynamic providers' host, and the custody plugin (its launcher runs `node <plugin package>/dist/cli.js`).
  if (isNode && (script.includes("dynamic-provider") || /\/plugin\/dist\/cli\.js$/.test(script)))
    return "provider";
  if (isNode && cmdline.includes("cmd/run")) return "program";
  if (/(^|\/)pulumi-language-nodejs$/.test(exe)) return "language host";
  if (/(^|\/)pulumi$/.test(exe)) return "pulumi CLI";
  return "other";
}

/** Sums CPU milliseconds by {@link engineRole}. */
export function cpuByRole(records: readonly ProcessRecord[]): Record<EngineRole, number> {
  const sums: Record<EngineRole, number> = {
    "pulumi CLI": 0,
    "language host": 0,
    program: 0,
    provider: 0,
    other: 0,
  };
  for (const r of records) sums[engineRole(r.cmdline)] += r.cpuMs;
  return sums;
}
