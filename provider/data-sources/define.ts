/**
 * Data sources as tables. Each declares its name, the query key of each of its arguments (checked by the
 * compiler against the endpoint's query schema), the sdk call, and the mapper from the sdk's typed record to
 * its result; {@link listDataSource} and {@link getDataSource} make the plain function and its `…Output`
 * variant from that.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { CustodyClient, ListAllQuery } from "@pulumi-custody/sdk";
import { z } from "zod";
import type { FieldReader } from "../core/field-tables";
import { type DataSourceOptions, type InputsOf, liftToOutput, runDataSource } from "./options";

/**
 * The typed form of an endpoint's query: its sdk schema's output, where a list is always a list and a number a
 * number (the sdk's `…Query` input types also take one value alone and URL string forms).
 */
export type QueryOf<S extends z.ZodType> = z.output<S>;

/** The keys of the query `Q` whose values accept an argument of type `V` (every filter is optional). */
type KeysAccepting<Q, V> = {
  [P in keyof Q]-?: [Exclude<V, undefined>] extends [Exclude<Q[P], undefined>] ? P : never;
}[keyof Q];

/**
 * The query key of every argument of `A`. A key that `Q` lacks, a key whose values are of another type, or an
 * argument without a key does not compile.
 */
export type QueryKeys<A, Q> = { readonly [K in keyof A]-?: KeysAccepting<Q, A[K]> };

/** Every key of every member of the union `U`. */
type KeysOfUnion<U> = U extends unknown ? keyof U : never;

/** The call arguments of a data source that has none. */
export type NoCallArgs = Record<never, never>;

/** What the sdk call of a data source receives: its query, and its call arguments. */
export type CallRequest<C, Q> = C & { readonly query: Q };

/** What every data source declares. */
interface Declaration<A, C, Q> {
  /** Name of the data source; it prefixes each of its errors (`getVaults: …`). */
  readonly name: string;
  /**
   * The arguments that are not query parameters (path parameters), picked before settings are read or any
   * request is made; it may reject the arguments. Annotate its parameter (`({ id }: Args) => ({ id })`): the
   * compiler infers the call's request from it only then.
   */
  readonly callArgs?: (args: A) => C;
  /** The query key of every other argument (`maxItems` aside). */
  readonly query: QueryKeys<Omit<A, KeysOfUnion<C> | "maxItems">, Q>;
  /** The arguments to use when none are given; only for data sources whose arguments are all optional. */
  readonly whenNoArgs?: A;
  /**
   * The zod type of each argument `callArgs` takes (path parameters have no sdk schema to read it from); the
   * plugin's schema declares them, required unless the type accepts `undefined`. Checked against the
   * argument's type.
   */
  readonly callArgTypes?: { readonly [K in KeysOfUnion<NoInfer<C>> & keyof A]-?: z.ZodType<A[K]> };
  /** The field table `map` projects with, when it projects with one: the plugin's schema lists its fields. */
  readonly fields?: Readonly<Record<string, FieldReader>>;
}

/**
 * What the plugin's schema reads of a data source (`plugin/schema.ts`): its arguments with their zod types,
 * and the fields of its result.
 */
export interface DataSourceSpec {
  /** Name of the data source (`getVaults`). */
  readonly name: string;
  /**
   * `list`: the result is a list of items; `get`: one object; `keyed`: an object of results by an id
   * (`getSuggestedFees`: by chain unique id).
   */
  readonly kind: "list" | "get" | "keyed";
  /** Every argument and its zod type: a query argument's is its query key's in the sdk's query schema. */
  readonly args: Readonly<Record<string, z.ZodType>>;
  /** The field table of the result (of each item of a list, each value of a keyed result), if it has one. */
  readonly fields?: Readonly<Record<string, FieldReader>>;
}

/**
 * A data source as the registry holds it (`./index.ts`): its spec, and its plain function on plain values. The
 * provider plugin serves each one as a function with these.
 */
export interface DataSourceEntry {
  /** Its arguments and result fields. */
  readonly spec: DataSourceSpec;
  /** The plain function; `options.client` is the client to use. */
  // biome-ignore lint/suspicious/noExplicitAny: each entry takes its own argument type; the registry only forwards
  readonly run: (args: any, options?: DataSourceOptions) => Promise<unknown>;
}

/** A data source that reads every page of a list (or its first `maxItems`). */
export interface ListDeclaration<A, C, Q, T, R> extends Declaration<A, C, Q> {
  /** The sdk's `listAll` call. */
  readonly list: (client: CustodyClient, request: CallRequest<C, Q>) => AsyncIterable<T>;
  /** Maps one item of the list to the result. */
  readonly map: (item: T) => R;
}

/** A data source that makes one request. */
export interface GetDeclaration<A, C, Q, T, R> extends Declaration<A, C, Q> {
  /** The sdk call. */
  readonly get: (client: CustodyClient, request: CallRequest<C, Q>) => Promise<T>;
  /** Maps the sdk's answer to the result. */
  readonly map: (record: T) => R;
  /** The result is an object of results keyed by an id, each projected with `fields`. */
  readonly keyed?: true;
}

/** The functions of a data source whose arguments are required. */
export interface DataSource<A, R> {
  /** The plain function; export it with `@function` in its comment, so the API reference lists a function. */
  readonly run: (args: A, options?: DataSourceOptions) => Promise<R>;
  /** The `…Output` variant, taking Inputs and returning an Output. */
  readonly output: (args: InputsOf<A>, options?: DataSourceOptions) => pulumi.Output<R>;
  /** Its arguments and result fields, for the plugin's schema. */
  readonly spec: DataSourceSpec;
}

/** The functions of a data source whose arguments are all optional. */
export interface OptionalArgsDataSource<A, R> {
  /** The plain function (export it with `@function` in its comment, as {@link DataSource.run}). */
  readonly run: (args?: A, options?: DataSourceOptions) => Promise<R>;
  /** The `…Output` variant, taking Inputs and returning an Output. */
  readonly output: (args?: InputsOf<A>, options?: DataSourceOptions) => pulumi.Output<R>;
  /** Its arguments and result fields, for the plugin's schema. */
  readonly spec: DataSourceSpec;
}

/** The arguments of a list data source: its filters, and how many items to read at most. */
interface ListArgs {
  /** Stop after this many items; all of them when unset. */
  maxItems?: number;
}

/**
 * The items of a `listAll` iteration (which pages with the largest size and fetches the pages after the first
 * in parallel), or its first `maxItems`; stopping early cancels the pages still in flight.
 */
async function collect<T>(items: AsyncIterable<T>, maxItems: number | undefined): Promise<T[]> {
  const out: T[] = [];
  if (maxItems !== undefined && maxItems <= 0) return out;
  for await (const item of items) {
    out.push(item);
    if (maxItems !== undefined && out.length >= maxItems) break;
  }
  return out;
}

/** The query of `args`: each argument that is set, under its query key. */
function toQuery<A, C, Q>(args: A, keys: QueryKeys<Omit<A, KeysOfUnion<C> | "maxItems">, Q>): Q {
  const query: Partial<Record<keyof Q, unknown>> = {};
  for (const [arg, key] of Object.entries(keys) as [keyof A & string, keyof Q][]) {
    if (args[arg] !== undefined) query[key] = args[arg];
  }
  // Each value is an argument whose key `QueryKeys` checked against the type of the key's values.
  return query as Q;
}

/** The plain function and its `…Output` variant, of arguments optional when `whenNoArgs` is declared. */
function functionsOf<A extends object, C, Q, R>(
  declaration: Declaration<A, C, Q>,
  shape: { kind: DataSourceSpec["kind"]; querySchema: z.ZodType | undefined },
  fetch: (client: CustodyClient, request: CallRequest<C, Q>, args: A) => Promise<R>,
): DataSource<A, R> | OptionalArgsDataSource<A, R> {
  const spec = specOf(declaration, shape.kind, shape.querySchema);
  const run = (args: A, options?: DataSourceOptions): Promise<R> =>
    runDataSource(declaration.name, options, () => {
      // Without `callArgs`, `C` is its default `NoCallArgs`: the empty object spreading `undefined` makes.
      const callArgs = declaration.callArgs?.(args) as C;
      const query = toQuery(args, declaration.query);
      return (client) => fetch(client, { ...callArgs, query }, args);
    });
  const output = liftToOutput(run);
  const whenNoArgs = declaration.whenNoArgs;
  if (whenNoArgs === undefined) return { run, output, spec };
  return {
    run: (args: A = whenNoArgs, options?: DataSourceOptions) => run(args, options),
    output: (args: InputsOf<A> = whenNoArgs, options?: DataSourceOptions) => output(args, options),
    spec,
  };
}

/** The {@link DataSourceSpec} of a declaration; `querySchema` is the sdk's query schema of its endpoint. */
function specOf<A, C, Q>(
  declaration: Declaration<A, C, Q>,
  kind: DataSourceSpec["kind"],
  querySchema: z.ZodType | undefined,
): DataSourceSpec {
  const args: Record<string, z.ZodType> = { ...declaration.callArgTypes };
  const shape = querySchema instanceof z.ZodObject ? (querySchema.shape as Record<string, z.ZodType>) : {};
  for (const [arg, key] of Object.entries(declaration.query) as [string, string][]) {
    const type = shape[key];
    if (!type) throw new Error(`${declaration.name}: the query schema has no key "${key}" for \`${arg}\``);
    args[arg] = type;
  }
  // `maxItems` is the one argument of every list that is no query parameter (`ListArgs`).
  if (kind === "list")
    args.maxItems = z
      .number()
      .int()
      .optional()
      .describe("Stop after this many items; all of them when unset.");
  return { name: declaration.name, kind, args, fields: declaration.fields };
}

/**
 * Declares a data source that reads every page of a list, `listDataSource<Args, typeof QuerySchema>(QuerySchema)({…})`
 * where `QuerySchema` is the sdk's query schema of the list endpoint.
 */
export function listDataSource<A extends ListArgs, S extends z.ZodType>(querySchema: S) {
  type Q = ListAllQuery<QueryOf<S>>;
  function define<T, R, C = NoCallArgs>(
    declaration: ListDeclaration<A, C, Q, T, R> & { readonly whenNoArgs: A },
  ): OptionalArgsDataSource<A, R[]>;
  function define<T, R, C = NoCallArgs>(declaration: ListDeclaration<A, C, Q, T, R>): DataSource<A, R[]>;
  function define<T, R, C = NoCallArgs>(
    declaration: ListDeclaration<A, C, Q, T, R>,
  ): DataSource<A, R[]> | OptionalArgsDataSource<A, R[]> {
    return functionsOf(declaration, { kind: "list", querySchema }, async (client, request, args) =>
      (await collect(declaration.list(client, request), args.maxItems)).map((item) => declaration.map(item)),
    );
  }
  return define;
}

/**
 * Declares a data source that makes one request: `getDataSource<Args, typeof QuerySchema>(QuerySchema)({…})`, where
 * `QuerySchema` is the sdk's query schema of the endpoint (leave it out for an endpoint without a query).
 */
export function getDataSource<A extends object, S extends z.ZodType | undefined = undefined>(
  querySchema?: S,
) {
  type Q = S extends z.ZodType ? QueryOf<S> : NoCallArgs;
  function define<T, R, C = NoCallArgs>(
    declaration: GetDeclaration<A, C, Q, T, R> & { readonly whenNoArgs: A },
  ): OptionalArgsDataSource<A, R>;
  function define<T, R, C = NoCallArgs>(declaration: GetDeclaration<A, C, Q, T, R>): DataSource<A, R>;
  function define<T, R, C = NoCallArgs>(
    declaration: GetDeclaration<A, C, Q, T, R>,
  ): DataSource<A, R> | OptionalArgsDataSource<A, R> {
    const kind = declaration.keyed ? "keyed" : "get";
    return functionsOf(declaration, { kind, querySchema }, async (client, request) =>
      declaration.map(await declaration.get(client, request)),
    );
  }
  return define;
}
