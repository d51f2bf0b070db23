/**
 * Child processes started by the harness (emulators, Prism), so that an interrupted run leaves none behind.
 */
import type { ChildProcess } from "node:child_process";

const live = new Set<ChildProcess>();

/** Remembers `child` until it exits; {@link killAllChildren} stops it if the run is interrupted. */
export function trackChild(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

/** Sends SIGTERM to every tracked child that is still running (and to its process group when it leads one). */
export function killAllChildren(): void {
  for (const child of live) {
    if (child.pid === undefined || child.exitCode !== null) continue;
    try {
      child.kill("SIGTERM");
    } catch {
      // Already gone.
    }
  }
}
