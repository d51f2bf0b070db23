/**
 * A stand-in for the Pulumi engine's gRPC `Engine` service that records what its `Log` RPC receives: the
 * notices a provider sends, with their severity and the URN of the row they are shown on.
 *
 * ```ts
 * const engine = await startFakeEngine();
 * // … run a provider with engine.address …
 * assert.equal(engine.logs[0]?.urn, "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/custody:Vault::treasury");
 * await engine.stop();
 * ```
 *
 * @module
 */
import * as path from "node:path";

const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
// The gRPC library and protocol stubs the real host uses, from @pulumi/pulumi's own dependencies.
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
const engineRpc = require(path.join(pulumiDir, "proto", "engine_grpc_pb.js"));
const emptyProto = require(
  require.resolve("google-protobuf/google/protobuf/empty_pb", { paths: [pulumiDir] }),
);

/** The `LogSeverity` values of the engine's protocol. */
export const LOG_SEVERITY: { DEBUG: number; INFO: number; WARNING: number; ERROR: number } = require(
  path.join(pulumiDir, "proto", "engine_pb.js"),
).LogSeverity;

/** One `Log` request. */
export interface LoggedMessage {
  /** A {@link LOG_SEVERITY} value. */
  severity: number;
  /** The text. */
  message: string;
  /** The resource the CLI shows it on; empty for the stack's row. */
  urn: string;
}

/** A running stand-in engine. */
export interface FakeEngine {
  /** `127.0.0.1:<port>`, as the engine passes it to the processes it starts. */
  address: string;
  /** Every `Log` request so far. */
  logs: LoggedMessage[];
  /** Stops the server. */
  stop(): Promise<void>;
}

/** Starts a gRPC server answering the engine's `Log` RPC on a free loopback port. */
export async function startFakeEngine(): Promise<FakeEngine> {
  const logs: LoggedMessage[] = [];
  const server = new grpc.Server();
  server.addService(engineRpc.EngineService, {
    log(
      call: { request: { getSeverity(): number; getMessage(): string; getUrn(): string } },
      callback: (e: null, r: unknown) => void,
    ) {
      const { request } = call;
      logs.push({ severity: request.getSeverity(), message: request.getMessage(), urn: request.getUrn() });
      callback(null, new emptyProto.Empty());
    },
  });
  const port: number = await new Promise((resolve, reject) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (err: Error | null, p: number) => (err ? reject(err) : resolve(p)),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    logs,
    stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}
