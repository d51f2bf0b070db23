/**
 * Peak resident memory (VmHWM) of processes found by their command line, sampled from `/proc` while something
 * else runs. Used for the provider process, which the engine starts and stops on its own: `pulumi` runs
 * `pulumi-resource-pulumi-nodejs` (a shell script), which runs `node .../cmd/dynamic-provider/index.js`.
 */
import * as fs from "node:fs";

/** `getconf CLK_TCK` on Linux; the unit of utime/stime in /proc/<pid>/stat. */
const CLOCK_TICKS_PER_SECOND = 100;

/** What a watcher saw. */
export interface PeakRss {
  /** Largest VmHWM of any matching process, in bytes; 0 if none was seen. */
  peakBytes: number;
  /** Peak per matching pid, in bytes. */
  byPid: Record<number, number>;
  /** CPU time (user + system) of each matching pid at its last scan, in milliseconds. */
  cpuMsByPid: Record<number, number>;
  /** Scans of `/proc` made. */
  scans: number;
}

/** A running watcher; `stop()` ends it and reports. */
export interface PeakRssWatcher {
  /** Stops sampling (after one last scan) and resolves to what was seen. */
  stop: () => Promise<PeakRss>;
}

/**
 * Scans `/proc` every `intervalMs` for descendants of this process whose command line (arguments joined by
 * spaces) satisfies `matches`, and records their VmHWM (the kernel's own high-water mark of RSS, so a short spike between two
 * scans is still counted as long as the process is alive at one scan). Linux only.
 */
export function watchPeakRss(matches: (cmdline: string) => boolean, intervalMs = 100): PeakRssWatcher {
  const byPid: Record<number, number> = {};
  const cpuMsByPid: Record<number, number> = {};
  let scans = 0;
  const scan = () => {
    scans++;
    let entries: string[];
    try {
      entries = fs.readdirSync("/proc");
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      if (pid === process.pid) continue;
      try {
        // Re-read every time: a forked child shows its parent's command line until it execs.
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
        if (!matches(cmdline)) continue;
        // Only our own descendants: other programs on the machine may run Pulumi providers too.
        if (!isDescendantOf(pid, process.pid)) continue;
        const hwm = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) byPid[pid] = Math.max(byPid[pid] ?? 0, Number(hwm[1]) * 1024);
        // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised command name) are utime and stime.
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const ticks = Number(fields[11]) + Number(fields[12]);
        if (Number.isFinite(ticks)) cpuMsByPid[pid] = (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
      } catch {
        // The process exited between readdir and read.
      }
    }
  };
  scan();
  const timer = setInterval(scan, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      scan();
      const peaks = Object.values(byPid);
      return {
        peakBytes: peaks.length > 0 ? Math.max(...peaks) : 0,
        byPid: { ...byPid },
        cpuMsByPid: { ...cpuMsByPid },
        scans,
      };
    },
  };
}

/** Whether `ancestor` is among the parents of `pid` (following PPid in /proc, a few levels up). */
function isDescendantOf(pid: number, ancestor: number): boolean {
  let current = pid;
  for (let depth = 0; depth < 16 && current > 1; depth++) {
    const status = fs.readFileSync(`/proc/${current}/status`, "utf8");
    const parent = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    if (parent === ancestor) return true;
    current = parent;
  }
  return false;
}

/** Matches the node process of Pulumi's dynamic-provider plugin (not the shell script that starts it). */
export function isDynamicProviderNode(cmdline: string): boolean {
  const [exe, script] = cmdline.split(" ");
  return exe !== undefined && /(^|\/)node$/.test(exe) && script?.includes("dynamic-provider") === true;
}
