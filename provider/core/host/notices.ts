/**
 * Messages for the person running `pulumi`: consequences a preview must show (a replace archives the old
 * vault) and facts about an operation (an address cannot be deleted, only forgotten).
 *
 * Inside the Pulumi provider process they go to the engine's log as warnings (the `Log` RPC of the engine
 * whose address the process receives as its argument), which the CLI prints as `warning: …` in the preview
 * and in `up`, and counts in its summary. A notice about one resource carries that resource's URN
 * (./resource-urns.ts), so the CLI shows it on the resource's row; the others go to the stack's row. Tried with
 * the real engine: stdout and stderr of the provider process reach the CLI too, but as plain messages; they
 * are the fallback. Outside the provider process (tests, the program) notices go to stderr.
 */
import * as path from "node:path";
import { shownMessage } from "../api-errors";
import { engineAddressOfHost } from "./dynamic-provider-host";
import { urnOfResource } from "./resource-urns";

/**
 * Receives every notice, with the URN of the resource it is about (`undefined` for the stack's row); tests
 * replace it to assert what users would see.
 */
export type NoticeSink = (message: string, urn?: string) => void | Promise<void>;

type EngineLog = (message: string, urn: string | undefined) => Promise<void>;
/** How long a notice may take to reach the engine before it goes to stderr instead. */
const ENGINE_LOG_TIMEOUT_MS = 5000;
let engineLog: EngineLog | null | undefined;

/** The engine's `Log` RPC, when this process is Pulumi's dynamic-provider host; else `null`. */
function connectEngineLog(): EngineLog | null {
  const main = require.main?.filename ?? "";
  const address = engineAddressOfHost();
  if (address === undefined) return null;
  try {
    // The host's own copy of @pulumi/pulumi (beside its main module), else the one this package resolves.
    const manifest = (() => {
      try {
        return require.resolve("@pulumi/pulumi/package.json", { paths: [path.dirname(main)] });
      } catch {
        return require.resolve("@pulumi/pulumi/package.json");
      }
    })();
    const pulumiDir = path.dirname(manifest);
    const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
    const engineRpc = require(path.join(pulumiDir, "proto", "engine_grpc_pb.js"));
    const engineProto = require(path.join(pulumiDir, "proto", "engine_pb.js"));
    const client = new engineRpc.EngineClient(address, grpc.credentials.createInsecure());
    return (message, urn) =>
      new Promise<void>((resolve, reject) => {
        const request = new engineProto.LogRequest();
        request.setSeverity(engineProto.LogSeverity.WARNING);
        request.setMessage(message);
        request.setUrn(urn ?? "");
        const deadline = Date.now() + ENGINE_LOG_TIMEOUT_MS;
        client.log(request, new grpc.Metadata(), { deadline }, (err: unknown) =>
          err ? reject(err) : resolve(),
        );
      });
  } catch {
    return null;
  }
}

/** Notices already shown by this process: one operation shows each once (refresh and update both diff). */
const shown = new Set<string>();

const defaultSink: NoticeSink = async (message, urn) => {
  const key = `${urn ?? ""} ${message}`;
  if (shown.has(key)) return;
  shown.add(key);
  if (engineLog === undefined) engineLog = connectEngineLog();
  if (engineLog) {
    try {
      await engineLog(message, urn);
      return;
    } catch {
      // Fall through: stderr reaches the CLI as well.
    }
  }
  console.warn(`warning: ${message}`);
};

let sink: NoticeSink = defaultSink;

/** What a notice is about: the id of the resource it concerns, if it concerns one. */
export interface NoticeSubject {
  /** The id of the resource (a vault id, an address id): the notice is shown on that resource's row. */
  resourceId?: string;
}

/** Rewrites applied to every notice before it is shown, in the order they were added. */
const masks = new Set<(message: string) => string>();

/**
 * Shows a warning to the user; resolves once it is delivered. Whatever it quotes (a name the service holds, a
 * value of the program) is shown by the one rule: escaped and bounded (../api-errors.ts, `shownMessage`).
 */
export async function notifyUser(message: string, about: NoticeSubject = {}): Promise<void> {
  let shown = message;
  for (const mask of masks) shown = mask(shown);
  await sink(
    shownMessage(shown),
    about.resourceId === undefined ? undefined : urnOfResource(about.resourceId),
  );
}

/**
 * Rewrites every notice before any sink sees it: the provider plugin masks the secret values it was given
 * (a vault's secret name in a replace notice). Returns a function that removes the rewrite.
 */
export function maskNotices(mask: (message: string) => string): () => void {
  const own = (message: string) => mask(message);
  masks.add(own);
  return () => {
    masks.delete(own);
  };
}

/** Replaces where notices go; returns a function that restores the previous sink. */
export function setNoticeSink(next: NoticeSink): () => void {
  const previous = sink;
  sink = next;
  return () => {
    sink = previous;
  };
}
