/**
 * The Pulumi dynamic-provider host this runtime runs in (`@pulumi/pulumi/cmd/dynamic-provider`, started by
 * the engine with its own address as the first argument), and what the runtime does for it: it stops the
 * process once the engine is gone. The host itself never notices: a killed CLI (SIGKILL, a cancelled CI job)
 * would otherwise leave it running, holding connections to the custody API.
 */
import { connect } from "node:net";

/** How often the engine is probed, and how many probes in a row may fail before the process stops. */
const PROBE_INTERVAL_MS = 2000;
const MISSED_PROBES_BEFORE_EXIT = 2;

/** The engine's address when this process is the dynamic-provider host; otherwise `undefined`. */
export function engineAddressOfHost(): string | undefined {
  const main = require.main?.filename ?? "";
  const address = process.argv[2] ?? "";
  return /dynamic-provider/.test(main) && /^[\w.[\]:-]+:\d+$/.test(address) ? address : undefined;
}

let watching = false;

/** Starts probing the engine (once per process); exits the process when the engine no longer answers. */
export function exitWhenEngineIsGone(address = engineAddressOfHost()): void {
  if (watching || address === undefined) return;
  watching = true;
  const separator = address.lastIndexOf(":");
  const host = address.slice(0, separator).replace(/^\[|\]$/g, "");
  const port = Number(address.slice(separator + 1));
  let missed = 0;
  const timer = setInterval(() => {
    const socket = connect({ host, port, timeout: PROBE_INTERVAL_MS });
    socket.once("connect", () => {
      missed = 0;
      socket.destroy();
    });
    const fail = () => {
      socket.destroy();
      if (++missed >= MISSED_PROBES_BEFORE_EXIT) process.exit(1);
    };
    socket.once("error", fail);
    socket.once("timeout", fail);
  }, PROBE_INTERVAL_MS);
  timer.unref();
}
