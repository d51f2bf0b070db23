/**
 * Peak resident memory (VmHWM) of processes found by their command line, sampled from `/proc` while something
 * else runs. Used for the provider process, which the engine starts and stops on its own: `pulumi` runs
 * `pulumi-resource-pulumi-nodejs` (a shell script), which runs `node .../cmd/dynamic-provider/index.js`.
 */
import * as fs from "node:fs";

/** What a watcher saw. */
export interface PeakRss {
  /** Largest VmHWM of any matching process, in bytes; 0 if none was seen. */
  peakBytes: number;
  /** Peak per matching pid, in bytes. */
  byPid: Record<number, number>;
  /** Scans of `/proc` made. */
  scans: number;
}

/** A running watcher; `stop()` ends it and reports. */
export interface PeakRssWatcher {
  /** Stops sampling (after one last scan) and resolves to what was seen. */
  stop: () => Promise<PeakRss>;
}

/**
 * Scans `/proc` every `intervalMs` for processes whose command line (arguments joined by spaces) satisfies
 * `matches`, and records their VmHWM (the kernel's own high-water mark of RSS, so a short spike between two
 * scans is still counted as long as the process is alive at one scan). Linux only.
 */
export function watchPeakRss(matches: (cmdline: string) => boolean, intervalMs = 100): PeakRssWatcher {
  const byPid: Record<number, number> = {};
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
        const hwm = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) byPid[pid] = Math.max(byPid[pid] ?? 0, Number(hwm[1]) * 1024);
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
      return { peakBytes: peaks.length > 0 ? Math.max(...peaks) : 0, byPid: { ...byPid }, scans };
    },
  };
}

/** Matches the node process of Pulumi's dynamic-provider plugin (not the shell script that starts it). */
export function isDynamicProviderNode(cmdline: string): boolean {
  const [exe, script] = cmdline.split(" ");
  return exe !== undefined && /(^|\/)node$/.test(exe) && script?.includes("dynamic-provider") === true;
}
