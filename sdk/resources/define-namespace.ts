/**
 * The one builder of the client's namespaces (`client.vaults`, `client.vaults.addresses`, …). A namespace is
 * declared as data (`namespaces.ts`): for each method, the endpoint of the table it calls (a key of
 * `schema/endpoints.ts`, which alone holds the HTTP method and path) and how its positional arguments map to
 * the request. The builder makes a class from that declaration whose methods call the pipeline, and its types
 * come from the table's schemas.
 */
import type { z } from "zod";
import { type ListAllOptions, type ListEndpointName, listAllOf } from "../pagination";
import type { CallOptions, EndpointResponse, RequestArgs, RequestPipeline } from "../request-pipeline";
import type { EndpointName, endpoints } from "../schema/endpoints";
import type { CreateTransactionRequest } from "../schema/transactions";
import type { CreateVaultRequest } from "../schema/vaults";
import type { ListAllQuery } from "./list-all-query";

/** Options of `transactions.create`. */
export interface CreateTransactionOptions extends CallOptions {
  /**
   * The `x-idempotence-id` (a UUID). Generated when absent. Keep and reuse it to repeat a create safely: the
   * service answers a repeated id with the original transaction (docs/api-notes.md, "Idempotency").
   */
  idempotencyId?: string;
}

/**
 * The positional arguments a method may take, by name: where each goes in the request. An id goes into a path
 * parameter, `query` is the query object (`{}` when omitted), `body` the body, and `name` is sent as the body
 * `{ name }`.
 */
const ARGUMENTS = {
  id: { pathParam: "id" },
  vaultId: { pathParam: "id" },
  assetId: { pathParam: "asset_id" },
  addressId: { pathParam: "id" },
  transactionId: { pathParam: "id" },
  auditLogId: { pathParam: "id" },
  query: { query: true },
  body: { body: true },
  name: { bodyField: "name" },
} as const satisfies Record<
  string,
  { pathParam: string } | { query: true } | { body: true } | { bodyField: string }
>;

/** The name of a positional argument (see `ARGUMENTS`). */
export type ArgumentName = keyof typeof ARGUMENTS;

/** The query type of an endpoint (what a caller passes), from its zod schema. */
type QueryOf<N extends EndpointName> = (typeof endpoints)[N] extends { query: infer Q extends z.ZodType }
  ? z.input<Q>
  : never;
/**
 * Bodies typed more precisely than their schema can say: the schema is an open union that also lets through
 * variants it does not model, and the hand-written type of `schema` gives a caller the modelled ones.
 */
interface PreciseBodies {
  createVault: CreateVaultRequest;
  createTransaction: CreateTransactionRequest;
}
/** The body type of an endpoint (what a caller passes): from its zod schema, or its precise type. */
type BodyOf<N extends EndpointName> = N extends keyof PreciseBodies
  ? PreciseBodies[N]
  : (typeof endpoints)[N] extends { body: infer B extends z.ZodType }
    ? z.input<B>
    : never;
/**
 * What a call of an endpoint returns: a promise of its parsed response (or of `Empty` too), or of nothing for an
 * endpoint without a body.
 */
type ResultOf<N extends EndpointName, Empty> = (typeof endpoints)[N] extends { response: z.ZodType }
  ? Promise<EndpointResponse<N> | Empty>
  : Promise<void>;
/** The item type of a list endpoint: an element of its envelope's items array. */
type ItemOf<N extends ListEndpointName> =
  EndpointResponse<N> extends {
    [K in (typeof endpoints)[N]["list"]["itemsKey"]]: readonly (infer T)[];
  }
    ? T
    : never;

/** The parameter(s) each argument name stands for, with its label; `Q` is the query type of the method. */
interface ArgumentParameters<N extends EndpointName, Q> {
  id: [id: string];
  vaultId: [vaultId: string];
  assetId: [assetId: string];
  addressId: [addressId: string];
  transactionId: [transactionId: string];
  auditLogId: [auditLogId: string];
  query: [query?: Q];
  body: [body: BodyOf<N>];
  name: [name: string];
}

/** The positional parameters of a method, from its argument names. */
type ParametersOf<A extends readonly ArgumentName[], N extends EndpointName, Q> = A extends readonly [
  infer H extends ArgumentName,
  ...infer R extends readonly ArgumentName[],
]
  ? [...ArgumentParameters<N, Q>[H], ...ParametersOf<R, N, Q>]
  : [];

/** A method that makes one call of an endpoint. */
export interface CallMethodSpec {
  /** The endpoint of the table it calls. */
  readonly endpoint: EndpointName;
  /** Its positional arguments before the options, in order. */
  readonly args: readonly ArgumentName[];
  /** `"idempotency"`: the options are {@link CreateTransactionOptions}, `idempotencyId` sent as a header. */
  readonly options?: "idempotency";
  /** The call resolves to `undefined` when the service answers 204 (the table's endpoint has a body else). */
  readonly emptyOn204?: true;
}

/** A `listAll` method: every item of a list endpoint of the table, as an async generator (`listAllOf`). */
export interface ListAllMethodSpec {
  /** The list endpoint it pages through. */
  readonly listAll: ListEndpointName;
  /** Its positional arguments before the options, in order (`query` without the paging). */
  readonly args: readonly ArgumentName[];
}

/** A namespace class made by {@link defineNamespace}, for a sub-namespace. */
export type NamespaceClass<S extends NamespaceSpec = NamespaceSpec> = new (
  pipeline: RequestPipeline,
) => Namespace<S>;

/** A sub-namespace in a declaration: a namespace class made by {@link defineNamespace}. */
export type SubNamespace = new (pipeline: RequestPipeline) => object;

/** The declaration of a namespace: its methods, and its sub-namespaces (classes made by `defineNamespace`). */
export type NamespaceSpec = {
  readonly [member: string]: CallMethodSpec | ListAllMethodSpec | SubNamespace;
};

/** The method a member declaration stands for. */
type MethodOf<M> = M extends ListAllMethodSpec
  ? (
      ...args: [
        ...ParametersOf<M["args"], M["listAll"], ListAllQuery<QueryOf<M["listAll"]>>>,
        options?: ListAllOptions,
      ]
    ) => AsyncGenerator<ItemOf<M["listAll"]>, void, undefined>
  : M extends CallMethodSpec
    ? (
        ...args: [
          ...ParametersOf<M["args"], M["endpoint"], QueryOf<M["endpoint"]>>,
          options?: M["options"] extends "idempotency" ? CreateTransactionOptions : CallOptions,
        ]
      ) => ResultOf<M["endpoint"], M["emptyOn204"] extends true ? undefined : never>
    : never;

/** The instance type of a namespace: a method per declared method, a read-only property per sub-namespace. */
export type Namespace<S extends NamespaceSpec> = {
  -readonly [K in keyof S as S[K] extends SubNamespace ? never : K]: MethodOf<S[K]>;
} & {
  readonly [K in keyof S as S[K] extends SubNamespace ? K : never]: S[K] extends new (
    pipeline: RequestPipeline,
  ) => infer I
    ? I
    : never;
};

/** The pipeline of each namespace instance (as a private field would hold it). */
const pipelines = new WeakMap<object, RequestPipeline>();
/** The declaration of each namespace class, for tests that walk the namespaces. */
const declarations = new WeakMap<object, NamespaceSpec>();

/** The declaration a namespace instance was built from; `undefined` for anything else. */
export function declarationOf(instance: unknown): NamespaceSpec | undefined {
  if (instance === null || typeof instance !== "object") return undefined;
  return declarations.get(instance.constructor);
}

function pipelineOf(instance: unknown, member: string): RequestPipeline {
  const pipeline = typeof instance === "object" && instance !== null ? pipelines.get(instance) : undefined;
  if (pipeline === undefined) {
    throw new TypeError(`${member} must be called on its namespace (e.g. client.vaults.${member}(…))`);
  }
  return pipeline;
}

/**
 * Makes the class of a namespace from its declaration: `new Vaults(pipeline)` has a method per declared method
 * (on the prototype, as a class declares them) and an instance of each sub-namespace.
 */
export function defineNamespace<const S extends NamespaceSpec>(
  className: string,
  spec: S,
): NamespaceClass<S> {
  const subNamespaces = Object.entries(spec).filter(
    (entry): entry is [string, SubNamespace] => typeof entry[1] === "function",
  );
  const made = {
    [className]: class {
      constructor(pipeline: RequestPipeline) {
        pipelines.set(this, pipeline);
        for (const [key, Sub] of subNamespaces) {
          (this as Record<string, unknown>)[key] = new Sub(pipeline);
        }
      }
    },
  }[className];
  for (const [key, member] of Object.entries(spec)) {
    if (typeof member === "function") continue;
    const method = "listAll" in member ? listAllMethod(key, member) : callMethod(key, member);
    Object.defineProperty(method, "name", { value: key });
    Object.defineProperty(made.prototype, key, { value: method, writable: true, configurable: true });
  }
  declarations.set(made, spec);
  return made as unknown as NamespaceClass<S>;
}

/** The path parameters, query and body of a call, from its positional arguments. */
function requestOf(names: readonly ArgumentName[], values: readonly unknown[]): RequestArgs {
  const request: RequestArgs = {};
  names.forEach((name, i) => {
    const target: { pathParam?: string; query?: true; body?: true; bodyField?: string } = ARGUMENTS[name];
    const value = values[i];
    if (target.pathParam !== undefined) {
      request.pathParams = { ...request.pathParams, [target.pathParam]: value as string };
    } else if (target.query) {
      request.query = value === undefined ? {} : (value as object);
    } else if (target.body) {
      request.body = value;
    } else if (target.bodyField !== undefined) {
      request.body = { [target.bodyField]: value };
    }
  });
  return request;
}

function callMethod(key: string, spec: CallMethodSpec) {
  return function (this: unknown, ...values: unknown[]): Promise<unknown> {
    const pipeline = pipelineOf(this, key);
    const request = requestOf(spec.args, values);
    const options = (values[spec.args.length] === undefined ? {} : values[spec.args.length]) as CallOptions;
    if (spec.options === "idempotency") {
      const { idempotencyId, ...call } = options as CreateTransactionOptions;
      return pipeline.request(spec.endpoint, {
        ...request,
        headers: idempotencyId === undefined ? undefined : { "x-idempotence-id": idempotencyId },
        ...call,
      });
    }
    return pipeline.request(spec.endpoint, { ...request, ...options });
  };
}

function listAllMethod(key: string, spec: ListAllMethodSpec) {
  return function (this: unknown, ...values: unknown[]): AsyncGenerator<unknown, void, undefined> {
    const pipeline = pipelineOf(this, key);
    const { pathParams, query } = requestOf(spec.args, values);
    const options = (
      values[spec.args.length] === undefined ? {} : values[spec.args.length]
    ) as ListAllOptions;
    return listAllOf(
      pipeline,
      spec.listAll,
      pathParams === undefined ? { query } : { pathParams, query },
      options,
    );
  };
}
