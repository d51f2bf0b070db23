/**
 * Where data sources find the API. They run in the program process (dynamic providers cannot serve
 * functions), during previews too: settings come from the stack config `custody:*` or the environment, and
 * may be overridden per call (tests, or a program that talks to several organizations).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { CustodyClient } from "@pulumi-custody/sdk";
import { clientFor } from "../client";
import { resolveSettings } from "../settings";

/** Per-call overrides of where a data source sends its requests. */
export interface DataSourceOptions {
  /** Base URL of the API; overrides `custody:baseUrl` / `CUSTODY_BASE_URL`. */
  baseUrl?: string;
  /** Access token; overrides `custody:accessToken` / `CUSTODY_ACCESS_TOKEN`. */
  accessToken?: string;
  /** A ready client to use instead (its settings win over everything else). */
  client?: CustodyClient;
}

/**
 * `@pulumi/pulumi`, loaded when a program calls a data source: the provider plugin and the command line load
 * this module for the data sources' declarations and call them with a client of their own, without Pulumi's SDK.
 */
function pulumiSdk(): typeof pulumi {
  return require("@pulumi/pulumi");
}

/** The client a data-source call uses. */
export function dataSourceClient(options: DataSourceOptions | undefined): CustodyClient {
  if (options?.client) return options.client;
  const overrides: Record<string, string | undefined> = {
    "custody:baseUrl": options?.baseUrl,
    "custody:accessToken": options?.accessToken,
  };
  return clientFor(resolveSettings((key) => overrides[key] ?? pulumiSdk().runtime.getConfig(key)));
}

/** Every property of `T` may be a Pulumi `Input`. */
export type InputsOf<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** Lifts a plain data-source function to its `…Output` variant, which accepts Inputs. */
export function liftToOutput<A extends object, R>(
  fn: (args: A, options?: DataSourceOptions) => Promise<R>,
): (args: InputsOf<A>, options?: DataSourceOptions) => pulumi.Output<R> {
  // The unwrapped Inputs of `A` are an `A`, which the compiler cannot see for a generic `A`.
  return (args, options) =>
    pulumiSdk()
      .output(args)
      .apply((plain) => fn(plain as A, options));
}

/** Prefixes an error with the data source that failed, keeping the API's message. */
export async function prefixingErrors<R>(source: string, run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`${source}: ${message}`, { cause: err });
  }
}
