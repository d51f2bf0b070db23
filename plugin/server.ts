/**
 * The gRPC `ResourceProvider` service of the `custody` plugin, built on `@grpc/grpc-js` and the generated
 * protos that `@pulumi/pulumi` ships (`proto/provider_grpc_pb.js`).
 *
 * It does not reuse `@pulumi/pulumi/provider`'s server, which cannot serve this provider (measured with CLI
 * 3.248.0): its `Read` reads request properties that `pulumi import` does not send and fails with
 * "Cannot read properties of undefined (reading 'toJavaScript')"; it drops the configuration that `Configure`
 * carries; and it claims to accept secrets while handing `check` and `create` the raw wire wrappers. Here every
 * request goes through `properties.ts`, which removes the wrappers and puts them back on what was secret.
 *
 * Only `Handshake`, `Parameterize`, `Construct`, `Call`, `List` and `GetMapping(s)` are left unimplemented:
 * grpc-js answers UNIMPLEMENTED, which the engine takes as "not supported" (it then sends `Configure`).
 */
import type * as grpcTypes from "@grpc/grpc-js";
import { exitWhenEngineIsGone, recordResourceUrn, setNoticeSink, typeOfUrn } from "pulumi-custody/core";
import * as functions from "./functions";
import * as provider from "./provider";
import { PLUGIN_VERSION, packageSchema } from "./schema";

// biome-ignore lint/suspicious/noExplicitAny: the generated protos are plain CommonJS without usable types here.
type Proto = any;

/**
 * The generated protos that `@pulumi/pulumi` ships, and the gRPC and protobuf libraries they use. Each is a plain
 * `require` of a fixed name, so that the plugin archive's bundler (scripts/build-plugin-artifacts.sh) takes them
 * in; `@grpc/grpc-js` and `google-protobuf` are the plugin's own dependencies, in the ranges `@pulumi/pulumi`
 * asks for, so that npm installs one copy that both use.
 */
function load(): {
  grpc: typeof grpcTypes;
  proto: Proto;
  rpc: Proto;
  plugin: Proto;
  struct: Proto;
  empty: Proto;
  status: Proto;
  any: Proto;
  engineRpc: Proto;
  engine: Proto;
} {
  return {
    grpc: require("@grpc/grpc-js"),
    proto: require("@pulumi/pulumi/proto/provider_pb.js"),
    rpc: require("@pulumi/pulumi/proto/provider_grpc_pb.js"),
    plugin: require("@pulumi/pulumi/proto/plugin_pb.js"),
    engineRpc: require("@pulumi/pulumi/proto/engine_grpc_pb.js"),
    engine: require("@pulumi/pulumi/proto/engine_pb.js"),
    status: require("@pulumi/pulumi/proto/status_pb.js"),
    struct: require("google-protobuf/google/protobuf/struct_pb"),
    empty: require("google-protobuf/google/protobuf/empty_pb"),
    any: require("google-protobuf/google/protobuf/any_pb"),
  };
}

type Callback = (err: unknown, value?: unknown) => void;
type Handler = (call: { request: Proto }, callback: Callback) => void;

/**
 * The engine's `Log` RPC as a notice sink: warnings show in the preview and in `up`, on the row of the resource
 * they are about (its URN, recorded from the requests that name it), else on the stack's.
 */
function engineNotices(m: ReturnType<typeof load>, address: string) {
  const client = new m.engineRpc.EngineClient(address, m.grpc.credentials.createInsecure());
  return (message: string, urn?: string) =>
    new Promise<void>((resolve) => {
      const request = new m.engine.LogRequest();
      request.setSeverity(m.engine.LogSeverity.WARNING);
      request.setMessage(message);
      request.setUrn(urn ?? "");
      client.log(request, (err: unknown) => {
        // A lost notice must not fail the operation: stderr reaches the CLI as well.
        if (err) console.error(`warning: ${message}`);
        resolve();
      });
    });
}

/** Starts the service on a free loopback port and returns the port (the engine reads it from stdout). */
export async function serve(engineAddress: string | undefined): Promise<number> {
  const m = load();
  const toJs = (s: Proto): Record<string, unknown> => (s ? s.toJavaScript() : {});
  const toStruct = (o: Record<string, unknown>) => m.struct.Struct.fromJavaScript(o);

  if (engineAddress) {
    exitWhenEngineIsGone(engineAddress);
    setNoticeSink(engineNotices(m, engineAddress));
  }

  /** Turns a thrown error into a gRPC error; a partial create carries its id and outputs (ErrorResourceInitFailed). */
  function grpcError(err: unknown): Partial<grpcTypes.ServiceError> {
    const message = err instanceof Error ? err.message : String(err);
    const partial = err as { id?: unknown; properties?: Record<string, unknown>; reasons?: string[] };
    const metadata = new m.grpc.Metadata();
    if (typeof partial.id === "string" && partial.id !== "") {
      const detail = new m.proto.ErrorResourceInitFailed();
      detail.setId(partial.id);
      detail.setProperties(toStruct(partial.properties ?? {}));
      detail.setReasonsList(partial.reasons ?? [message]);
      const packed = new m.any.Any();
      packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
      const status = new m.status.Status();
      status.setCode(m.grpc.status.UNKNOWN);
      status.setMessage(message);
      status.addDetails(packed);
      metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
    }
    return { code: m.grpc.status.UNKNOWN, details: message, metadata };
  }

  const handle =
    (fn: (request: Proto) => Promise<unknown> | unknown): Handler =>
    (call, callback) => {
      Promise.resolve()
        .then(() => fn(call.request))
        .then(
          (value) => callback(null, value),
          (err) => callback(grpcError(err)),
        );
    };

  const typeOf = (request: Proto): string => request.getType?.() || typeOfUrn(request.getUrn());
  /** The resource a request is about, so that a notice about it lands on its row. */
  const about = (request: Proto): string => {
    const id: string = request.getId();
    recordResourceUrn(id, request.getUrn());
    return id;
  };
  const failuresOf = (failures: provider.Failure[]) =>
    failures.map((f) => {
      const failure = new m.proto.CheckFailure();
      failure.setProperty(f.property);
      failure.setReason(f.reason);
      return failure;
    });

  const service: Record<string, Handler> = {
    getPluginInfo: handle(() => new m.plugin.PluginInfo().setVersion(PLUGIN_VERSION)),
    getSchema: handle((request) => {
      if (request.getVersion() !== 0) throw new Error(`unsupported schema version ${request.getVersion()}`);
      return new m.proto.GetSchemaResponse().setSchema(JSON.stringify(packageSchema()));
    }),
    attach: handle((request) => {
      const address = request.getAddress();
      exitWhenEngineIsGone(address);
      setNoticeSink(engineNotices(m, address));
      return new m.empty.Empty();
    }),
    cancel: handle(() => new m.empty.Empty()),
    checkConfig: handle((request) => {
      const result = provider.checkConfig(toJs(request.getNews()));
      return new m.proto.CheckResponse()
        .setInputs(toStruct(result.inputs))
        .setFailuresList(failuresOf(result.failures));
    }),
    diffConfig: handle((request) => {
      const changed = provider.diffConfig(toJs(request.getOlds()), toJs(request.getNews()));
      return new m.proto.DiffResponse()
        .setChanges(
          changed.length > 0
            ? m.proto.DiffResponse.DiffChanges.DIFF_SOME
            : m.proto.DiffResponse.DiffChanges.DIFF_NONE,
        )
        .setDiffsList(changed);
    }),
    configure: handle((request) => {
      provider.configure(toJs(request.getArgs()));
      // Secrets are handled here (properties.ts), so the engine keeps them wrapped; previews never create.
      return new m.proto.ConfigureResponse()
        .setAcceptsecrets(true)
        .setSupportspreview(false)
        .setAcceptresources(false)
        .setAcceptoutputs(false);
    }),
    invoke: handle(async (request) => {
      const result = await functions.invoke(request.getTok(), toJs(request.getArgs()));
      const response = new m.proto.InvokeResponse();
      if (result.failures.length > 0) return response.setFailuresList(failuresOf(result.failures));
      return response.setReturn(toStruct(result.value));
    }),
    check: handle(async (request) => {
      const result = await provider.check(typeOf(request), toJs(request.getOlds()), toJs(request.getNews()));
      return new m.proto.CheckResponse()
        .setInputs(toStruct(result.inputs))
        .setFailuresList(failuresOf(result.failures));
    }),
    diff: handle(async (request) => {
      const result = await provider.diff(
        typeOf(request),
        about(request),
        toJs(request.getOlds()),
        toJs(request.getNews()),
      );
      const changes = m.proto.DiffResponse.DiffChanges;
      return new m.proto.DiffResponse()
        .setChanges(result.changes ? changes.DIFF_SOME : changes.DIFF_NONE)
        .setReplacesList(result.replaces)
        .setDeletebeforereplace(result.deleteBeforeReplace);
    }),
    create: handle(async (request) => {
      if (request.getPreview()) {
        // Not reached while Configure says previews are unsupported; answer without side effects anyway.
        return new m.proto.CreateResponse().setId("").setProperties(request.getProperties());
      }
      const result = await provider.create(typeOf(request), toJs(request.getProperties()));
      return new m.proto.CreateResponse().setId(result.id).setProperties(toStruct(result.outputs));
    }),
    read: handle(async (request) => {
      const result = await provider.read(
        typeOf(request),
        about(request),
        toJs(request.getProperties()),
        toJs(request.getInputs()),
      );
      const response = new m.proto.ReadResponse();
      // No id: the object is gone, and the engine drops it from the state.
      if (!result.id) return response;
      response.setId(result.id).setProperties(toStruct(result.outputs ?? {}));
      if (result.inputs) response.setInputs(toStruct(result.inputs));
      return response;
    }),
    update: handle(async (request) => {
      if (request.getPreview()) return new m.proto.UpdateResponse().setProperties(request.getNews());
      const outputs = await provider.update(
        typeOf(request),
        about(request),
        toJs(request.getOlds()),
        toJs(request.getNews()),
      );
      return new m.proto.UpdateResponse().setProperties(toStruct(outputs));
    }),
    delete: handle(async (request) => {
      await provider.remove(typeOf(request), about(request), toJs(request.getProperties()));
      return new m.empty.Empty();
    }),
  };

  const server = new m.grpc.Server({
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    "grpc.max_send_message_length": 400 * 1024 * 1024,
  });
  server.addService(
    m.rpc.ResourceProviderService,
    service as unknown as grpcTypes.UntypedServiceImplementation,
  );
  return new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", m.grpc.ServerCredentials.createInsecure(), (err, port) =>
      err ? reject(err) : resolve(port),
    );
  });
}
