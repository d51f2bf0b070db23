/**
 * The error a route handler throws to answer with one of the service's error bodies (docs/api-notes.md,
 * "Errors"). The server adds `request_id` (equal to the `x-request-id` header) when it sends the body.
 */
import type { ValidationIssue } from "@pulumi-custody/sdk/schema";

/** An error body before `request_id` is added. Optional fields are left out, never null. */
export type ErrorBody =
  | { title: string; detail: string; resource?: string; error_type?: string; system_error_code?: string }
  | { title: string; detail: ValidationIssue[] };

export class ApiError extends Error {
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The body, without `request_id`. */
    readonly body: ErrorBody,
    /** Extra response headers, e.g. `Retry-After` on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === "string" ? body.detail : body.title);
    this.name = "ApiError";
  }
}

/** 400 `PreconditionFailedError` / `DefinedPreconditionError_*`. */
export function preconditionFailed(title: string, detail: string, errorType?: string): ApiError {
  return new ApiError(400, errorType ? { title, detail, error_type: errorType } : { title, detail });
}

/** 401 `BaseError`. */
export function unauthorized(detail: string): ApiError {
  return new ApiError(401, { title: "Unauthorized", detail });
}

/** 403 `BaseError`. */
export function forbidden(detail: string): ApiError {
  return new ApiError(403, { title: "Forbidden", detail });
}

/** 404 `ResourceError` for a missing record, e.g. `notFound("vault", id)`. */
export function notFound(resource: string, id: string): ApiError {
  const noun = resource.replace(/_/g, " ");
  return new ApiError(404, {
    title: "Not found",
    detail: `${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${id} not found`,
    resource,
  });
}

/** 404 `ResourceError` with `resource: "path"`, as the real service answers an unknown route. */
export function pathNotFound(path: string): ApiError {
  return new ApiError(404, { title: "Not found", detail: `Path ${path} not found`, resource: "path" });
}

/** 409 `ResourceError` (create and rename of vaults; duplicate address names). */
export function alreadyExists(resource: string, detail: string): ApiError {
  return new ApiError(409, { title: "Already exists", detail, resource });
}

/** 422 `ValidationError` with its `{loc, msg, type}` list. */
export function validationFailed(issues: ValidationIssue[]): ApiError {
  return new ApiError(422, { title: "Cannot process data due to validation error", detail: issues });
}

/** A one-issue 422, e.g. `invalidField(["header", "x-idempotence-id"], "must be a UUID", "uuid_parsing")`. */
export function invalidField(loc: (string | number)[], msg: string, type = "value_error"): ApiError {
  return validationFailed([{ loc, msg, type }]);
}
