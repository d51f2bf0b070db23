/**
 * Run inside a network namespace that has only loopback (./webhook-targets-netns.test.ts): starts an emulator,
 * asks it for a webhook test of each URL given as JSON on the command line, and prints, as one JSON line, each
 * answer's status, error type and message, every connection this process attempted (a spy on
 * `net.Socket.prototype.connect`), and the deliveries the emulator recorded. With `--allow-private`, the
 * emulator allows every target: the probe then shows that a connection is attempted, and fails (nothing but
 * loopback is reachable here).
 */
import { Socket } from "node:net";
import { startEmulator } from "@pulumi-custody/emulator";

/** Every connection attempted, as `host:port` (or a path). */
const attempts: string[] = [];
const connect = Socket.prototype.connect;
Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
  const list = Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
  const [first, second] = list;
  const options =
    typeof first === "object" && first !== null
      ? (first as { host?: string; port?: number; path?: string })
      : undefined;
  attempts.push(
    options
      ? (options.path ?? `${options.host ?? "localhost"}:${options.port}`)
      : `${String(second ?? "localhost")}:${String(first)}`,
  );
  return connect.apply(this, args as never);
} as typeof Socket.prototype.connect;

async function main(): Promise<void> {
  const urls = JSON.parse(process.argv[2] ?? "[]") as string[];
  const allowPrivate = process.argv.includes("--allow-private");
  const emulator = await startEmulator({ port: 0, seed: "empty", allowPrivateWebhookTargets: allowPrivate });
  await emulator.control.setWebhookSettings({
    timeoutMs: 2_000,
    maxAttempts: 1,
    baseDelayMs: 10,
    maxDelayMs: 10,
  });
  const own = new URL(emulator.baseUrl).host;
  const answers: { url: string; status: number; type?: string; msg?: string; errorType?: string }[] = [];
  for (const url of urls) {
    const res = await fetch(`${emulator.baseUrl}/api/v1/webhooks/test`, {
      method: "POST",
      headers: { authorization: `Bearer ${emulator.accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({ url }),
    });
    const body = (await res.json().catch(() => ({}))) as {
      detail?: { loc: unknown[]; msg: string; type: string }[] | string;
      error_type?: string;
    };
    const issue = Array.isArray(body.detail) ? body.detail.find((i) => i.loc[1] === "url") : undefined;
    answers.push({ url, status: res.status, type: issue?.type, msg: issue?.msg, errorType: body.error_type });
  }
  const deliveries = (await emulator.control.listDeliveries()).length;
  await emulator.close();
  // The client's own connections to the emulator are not attempts of the emulator's.
  const elsewhere = attempts.filter((a) => a !== own && a !== own.replace("127.0.0.1", "localhost"));
  process.stdout.write(`${JSON.stringify({ answers, attempts: elsewhere, deliveries })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
