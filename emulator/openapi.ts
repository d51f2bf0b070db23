/**
 * The emulator's OpenAPI 3.1 document (`GET /openapi.json`), generated from the endpoint table and its
 * zod schemas, so it always describes exactly what the emulator validates.
 */

import {
  BaseErrorBody,
  type EndpointSpec,
  endpoints,
  PreconditionFailedErrorBody,
  RateLimitErrorBody,
  ResourceErrorBody,
  ValidationErrorBody,
  variantsOfOpenUnion,
} from "@pulumi-custody/sdk/schema";
import { z } from "zod";

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    // An open union validates its variants itself; the document lists them (the emulator accepts no other).
    override: (ctx) => {
      const variants = variantsOfOpenUnion(ctx.zodSchema as unknown as z.ZodType);
      if (variants) ctx.jsonSchema.oneOf = variants.map(jsonSchema);
    },
  }) as Json;
  return rest;
}

/** The statuses every endpoint may return, and the error schema of each (docs/api-notes.md, "Errors"). */
const COMMON_ERRORS: Record<number, [string, string]> = {
  400: ["Bad request (precondition failed)", "PreconditionFailedError"],
  401: ["Unauthorized user", "BaseError"],
  403: ["Forbidden user", "BaseError"],
  404: ["Not found", "ResourceError"],
  408: ["Request timeout", "BaseError"],
  409: ["Already exists", "ResourceError"],
  422: ["Validation error", "ValidationError"],
  429: ["Rate limit exceeded", "RateLimitError"],
  500: ["Unexpected error", "BaseError"],
};

function operation(name: string, spec: EndpointSpec): Json {
  const parameters: Json[] = [];
  for (const [location, schema] of [
    ["path", spec.pathParams],
    ["query", spec.query],
  ] as const) {
    if (!schema) continue;
    for (const [key, field] of Object.entries(schema.shape)) {
      const fieldSchema = field as z.ZodType;
      const s = jsonSchema(fieldSchema);
      parameters.push({
        name: key,
        in: location,
        required: location === "path" || !fieldSchema.safeParse(undefined).success,
        schema: s,
        ...(s.type === "array" ? { style: "form", explode: true } : {}),
        ...(fieldSchema.description ? { description: fieldSchema.description } : {}),
      });
    }
  }
  if (spec.signed) {
    parameters.push(
      {
        name: "x-signature",
        in: "header",
        required: true,
        schema: { type: "string" },
        description: "base64 DER ECDSA P-256/SHA-256 over `<path>|<x-timestamp>|<body>`",
      },
      {
        name: "x-timestamp",
        in: "header",
        required: true,
        schema: { type: "string", pattern: "^\\d+$" },
        description: "epoch milliseconds (seconds accepted); within 120 s",
      },
      { name: "x-idempotence-id", in: "header", required: false, schema: { type: "string", format: "uuid" } },
    );
  }
  const statuses = new Set([...spec.errorStatuses, 400, 401, 403, 408, 422, 429, 500]);
  if (spec.pathParams && !["archiveVault", "restoreVault"].includes(name)) statuses.add(404);
  const responses: Json = {};
  responses[String(spec.successStatus)] =
    spec.successStatus === 204 || !spec.response
      ? { description: "No content" }
      : { description: "Success", content: { "application/json": { schema: jsonSchema(spec.response) } } };
  if (name === "exportVaultBalances") responses["204"] = { description: "Nothing to export" };
  if (name === "createTransaction")
    responses["200"] = { description: "Idempotent replay: the original transaction" };
  for (const status of [...statuses].sort()) {
    const [description, schemaName] = COMMON_ERRORS[status] ?? ["Error", "BaseError"];
    responses[String(status)] = {
      description,
      content: { "application/json": { schema: { $ref: `#/components/schemas/${schemaName}` } } },
    };
  }
  return {
    operationId: name,
    summary: spec.summary,
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body
      ? {
          requestBody: { required: true, content: { "application/json": { schema: jsonSchema(spec.body) } } },
        }
      : {}),
    responses,
  };
}

let cached: Json | undefined;

/** The document; built once, on first use. */
export function buildOpenApiDocument(): Json {
  if (cached) return cached;
  const paths: Record<string, Json> = {};
  for (const [name, spec] of Object.entries(endpoints) as [string, EndpointSpec][]) {
    paths[spec.path] = { ...(paths[spec.path] ?? {}), [spec.method.toLowerCase()]: operation(name, spec) };
  }
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Custody API (emulator)",
      version: "0.2.0",
      description:
        "The custody API v0.2.0 as served by custody-emulator, generated from its validation schemas.",
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: {
        BaseError: jsonSchema(BaseErrorBody),
        ResourceError: jsonSchema(ResourceErrorBody),
        PreconditionFailedError: jsonSchema(PreconditionFailedErrorBody),
        ValidationError: jsonSchema(ValidationErrorBody),
        RateLimitError: jsonSchema(RateLimitErrorBody),
      },
    },
  };
  return cached;
}
