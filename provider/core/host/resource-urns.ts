/**
 * The URN of each resource the provider is asked about, by its id, so that a notice about a resource goes to
 * that resource's row: the engine's `Log` RPC takes a URN, and without one the CLI shows the notice on the
 * stack's row.
 *
 * The provider plugin reads the URN from each request (`plugin/server.ts` records it). Pulumi's
 * dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) passes `diff`, `update` and `delete` only the
 * id it reads from the engine's request (`req.getId()`), never the URN, and nothing in the inputs or the
 * outputs carries it. So inside that host the request types' `getId` is wrapped to record the request's URN
 * as the host reads the id: the host's own copy of the generated protocol module, found beside its main
 * module, is the one whose prototypes it uses. The host configures the provider before it reads the id of the
 * request that needs it, and {@link watchHostRequests} runs from `configure()`.
 */
import * as path from "node:path";
import { engineAddressOfHost } from "./dynamic-provider-host";

const urnById = new Map<string, string>();

/** Records that the resource with `id` has `urn` (a request about it named both). */
export function recordResourceUrn(id: string, urn: string): void {
  if (id !== "" && urn !== "") urnById.set(id, urn);
}

/** The URN of the resource with `id`, when a request about it named it. */
export function urnOfResource(id: string): string | undefined {
  return urnById.get(id);
}

/** The engine's requests whose id the dynamic-provider host passes to the provider's methods. */
const REQUESTS_WITH_ID = ["DiffRequest", "UpdateRequest", "DeleteRequest", "ReadRequest"] as const;

let watching = false;

/** Inside Pulumi's dynamic-provider host, records the URN of every request the host reads an id from. */
export function watchHostRequests(): void {
  if (watching || engineAddressOfHost() === undefined) return;
  watching = true;
  try {
    const main = require.main?.filename ?? "";
    // The host's own copy of @pulumi/pulumi (beside its main module), else the one this package resolves.
    const manifest = (() => {
      try {
        return require.resolve("@pulumi/pulumi/package.json", { paths: [path.dirname(main)] });
      } catch {
        return require.resolve("@pulumi/pulumi/package.json");
      }
    })();
    const protocol = require(path.join(path.dirname(manifest), "proto", "provider_pb.js")) as Record<
      string,
      { prototype: { getId?(): string; getUrn?(): string } } | undefined
    >;
    for (const name of REQUESTS_WITH_ID) {
      const prototype = protocol[name]?.prototype;
      const getId = prototype?.getId;
      if (!prototype || typeof getId !== "function" || typeof prototype.getUrn !== "function") continue;
      prototype.getId = function (this: { getUrn(): string }) {
        const id = getId.call(this);
        recordResourceUrn(id, this.getUrn());
        return id;
      };
    }
  } catch {
    // Not the host's layout: notices go to the stack's row, and name their vault themselves.
  }
}
