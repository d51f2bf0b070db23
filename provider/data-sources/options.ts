/**
 * Where data sources find the API. They run in the program process (dynamic providers cannot serve
 * functions), during previews too: settings come from the stack config `custody:*` or the environment, and
 * may be overridden per call (tests, or a program that talks to several organizations).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { CustodyClient } from "@pulumi-custody/sdk";
import { shownMessage } from "../core/api-errors";
import { type CustodyConnection, connect, settingsErrorOf } from "../core/settings/connect";
import { CustodySettingsError } from "../core/settings/sources";

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

/**
 * The connection of a call: the client given in the options (whose settings are its owner's), or the one door's
 * connection for the options, the stack config or the environment.
 */
async function connectionOf(
  options: DataSourceOptions | undefined,
): Promise<Pick<CustodyConnection, "client"> & Partial<CustodyConnection>> {
  const given = options?.client;
  if (given) return { client: given };
  return connect({
    overrides: { baseUrl: options?.baseUrl, accessToken: options?.accessToken },
    config: (key) => pulumiSdk().runtime.getConfig(key),
  });
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

/**
 * The error of a data source: one line that names it and says what went wrong, `getVaults: …`, without a stack
 * trace. `cause` is the sdk's typed error (`CustodyNotFoundError`, …) when the API answered.
 *
 * Pulumi's program runner prints only the message of an error that its `RunError.isInstance` accepts, and the
 * whole `util.inspect` of any other (every frame, the cause's frames and fields, ANSI colours, paths of
 * sources the package does not ship); the marker it looks for is set on the prototype below.
 */
export class CustodyDataSourceError extends Error {
  /** The data source that failed (`getVaults`). */
  readonly dataSource: string;
  constructor(dataSource: string, message: string, cause?: unknown) {
    // Whatever the message quotes (the service's text) is shown escaped and bounded, as every message is.
    super(shownMessage(`${dataSource}: ${message}`), cause === undefined ? undefined : { cause });
    this.name = "CustodyDataSourceError";
    this.dataSource = dataSource;
    // The message says everything; a trace of this package's frames would only hide it.
    this.stack = `${this.name}: ${this.message}`;
  }
}
Object.defineProperty(CustodyDataSourceError.prototype, "__pulumiRunError", { value: true });

/**
 * Runs one call of a data source with the client for `options` (through the one door, `connect`): the arguments
 * are checked by `prepare` before any setting is read; a failure becomes a {@link CustodyDataSourceError}, which for settings that do not work
 * names the setting, where it came from and how to change it.
 */
export async function runDataSource<R>(
  source: string,
  options: DataSourceOptions | undefined,
  prepare: () => (client: CustodyClient) => Promise<R>,
): Promise<R> {
  let connection: Partial<CustodyConnection> | undefined;
  try {
    const call = prepare();
    const connected = await connectionOf(options);
    connection = connected;
    return await call(connected.client);
  } catch (err) {
    throw dataSourceError(source, err, connection);
  }
}

function dataSourceError(
  source: string,
  err: unknown,
  connection: Partial<CustodyConnection> | undefined,
): CustodyDataSourceError {
  quietLateHandlingOfDataSourceErrors();
  if (err instanceof CustodySettingsError) return new CustodyDataSourceError(source, err.message, err.cause);
  const settingsError =
    connection?.settings && connection.origins
      ? settingsErrorOf(err, connection.settings, connection.origins)
      : undefined;
  if (settingsError) return new CustodyDataSourceError(source, settingsError.message, err);
  return new CustodyDataSourceError(source, err instanceof Error ? err.message : String(err), err);
}

let lateHandlingQuieted = false;

/**
 * Pulumi's program runner reports a rejected promise as soon as Node finds it unhandled (once per error, as its
 * message for a {@link CustodyDataSourceError}); the stack attaches its own handlers to the program's outputs
 * only after the program has loaded. A data source that fails before any request (plain http to a remote host,
 * a missing setting) fails before that, and Node would add a `PromiseRejectionHandledWarning` for every output
 * that holds it, printed on the stack's row after the error. Node prints none while a `rejectionHandled`
 * listener exists: this one stays silent for data-source errors and gives Node's warning for any other.
 */
function quietLateHandlingOfDataSourceErrors(): void {
  if (lateHandlingQuieted) return;
  lateHandlingQuieted = true;
  process.on("rejectionHandled", (promise: Promise<unknown>) => {
    promise.catch((reason: unknown) => {
      const ours =
        reason instanceof CustodyDataSourceError ||
        (reason instanceof Error && reason.name === "CustodyDataSourceError");
      if (!ours) {
        process.emitWarning("Promise rejection was handled asynchronously", "PromiseRejectionHandledWarning");
      }
    });
  });
}
