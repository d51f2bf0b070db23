/** Error bodies (docs/api-notes.md, "Errors"). Optional fields are left out, never null. */
import { z } from "zod";
import { ResourceKind } from "./enums";

/**
 * `BaseError`: the body of a 401, 403, 408 or 500. `request_id` equals the `x-request-id` response
 * header.
 */
export const BaseErrorBody = z.looseObject({
  title: z.string(),
  detail: z.string(),
  full_detail: z.string().optional(),
  request_id: z.string().optional(),
});
/** An error body: `title`, `detail`, optional `full_detail` and `request_id`. */
export type BaseErrorBody = z.infer<typeof BaseErrorBody>;

/**
 * `ResourceError`: the body of a 404 or 409; `resource` names what was missing or already existed.
 */
export const ResourceErrorBody = BaseErrorBody.extend({ resource: ResourceKind.or(z.string()).optional() });
/** A 404/409 error body. */
export type ResourceErrorBody = z.infer<typeof ResourceErrorBody>;

/**
 * `PreconditionFailedError` and the typed `DefinedPreconditionError`: the body of a 400.
 * `error_type` is set on typed errors, e.g. a `CreateVaultErrorType` value.
 */
export const PreconditionFailedErrorBody = BaseErrorBody.extend({
  system_error_code: z.string().optional(),
  error_type: z.string().optional(),
});
/** A 400 error body. */
export type PreconditionFailedErrorBody = z.infer<typeof PreconditionFailedErrorBody>;

/** One entry of a 422 `detail` list (FastAPI / pydantic style). */
export const ValidationIssue = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** `ValidationError`: the body of a 422, one issue per broken rule in `detail`. */
export const ValidationErrorBody = z.looseObject({
  title: z.string(),
  detail: z.array(ValidationIssue),
  full_detail: z.string().optional(),
  request_id: z.string().optional(),
});
/** A 422 error body. */
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;

/** The real schema is `{}`; the emulator adds `title`/`detail` like every other error. */
export const RateLimitErrorBody = z.looseObject({
  title: z.string().optional(),
  detail: z.string().optional(),
});
