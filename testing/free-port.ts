/** A loopback TCP port that nothing listens on (it was free a moment ago). */
import { createServer } from "node:net";

/** Binds port 0 on 127.0.0.1, reads the port the kernel chose, and releases it. */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
