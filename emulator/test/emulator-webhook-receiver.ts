/**
 * A webhook receiver on 127.0.0.1 for the emulator's tests: records every delivery (headers and raw body)
 * and answers as told: a status, a hang (to provoke timeouts) or a dropped connection.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ReceivedDelivery {
  path: string;
  headers: IncomingMessage["headers"];
  rawBody: string;
}

/** What to do with the next request: answer a status, never answer, or drop the connection. */
export type ReceiverBehaviour = number | "hang" | "drop";

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** Behaviours for the next requests, in order; then `fallback`. */
  script: ReceiverBehaviour[];
  fallback: ReceiverBehaviour;
  /** Resolves once `count` deliveries matching `filter` have arrived (bounded wait). */
  waitFor(
    count: number,
    filter?: (d: ReceivedDelivery) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const sockets = new Set<Socket>();
  const receiver = {
    received: [] as ReceivedDelivery[],
    script: [] as ReceiverBehaviour[],
    fallback: 200 as ReceiverBehaviour,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      receiver.received.push({
        path: req.url ?? "/",
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString("utf8"),
      });
      const behaviour = receiver.script.shift() ?? receiver.fallback;
      if (behaviour === "hang") return;
      if (behaviour === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(behaviour, { "content-type": "text/plain" }).end("ok");
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks`,
    async waitFor(count: number, filter: (d: ReceivedDelivery) => boolean = () => true, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = receiver.received.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) {
          throw new Error(`expected ${count} deliveries, got ${matching.length} after ${timeoutMs} ms`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
}

/** Polls `check` until it returns a value (bounded), for state that settles asynchronously. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
