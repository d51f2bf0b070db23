/** Types shared by the route handlers of the `/api/v1` endpoints. */

import type { EndpointName, endpoints } from "@pulumi-custody/sdk/schema";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import type { EmulatorContext } from "../context";

/** The caller, as resolved from its bearer token. */
export interface Principal {
  userId: string;
  /** `trader` may write; `viewer` may only read (403 on POST and PUT). */
  role: "trader" | "viewer";
  token: string;
}

type Def<E extends EndpointName> = (typeof endpoints)[E];
type Out<S> = S extends z.ZodType ? z.output<S> : never;

/** What a handler receives: validated inputs and the emulator. */
export interface HandlerContext<E extends EndpointName = EndpointName> {
  params: Def<E> extends { pathParams: infer P } ? Out<P> : Record<string, never>;
  query: Def<E> extends { query: infer Q } ? Out<Q> : Record<string, never>;
  body: Def<E> extends { body: infer B } ? Out<B> : undefined;
  principal: Principal;
  emulator: EmulatorContext;
  request: FastifyRequest;
  requestId: string;
  /** Base of the links the emulator hands out: `publicUrl`, else the address it listens on (never the Host header). */
  baseUrl: string;
}

/** A handler's answer: status and body (absent for 204). */
export interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler<E extends EndpointName> = (
  ctx: HandlerContext<E>,
) => HandlerResult | Promise<HandlerResult>;

/** One handler per endpoint of the table; the compiler checks none is missing. */
export type Handlers = { [E in EndpointName]: Handler<E> };
