/** Error bodies (spec §7; field names from api-fields.md §9). Optional fields are left out, never null. */
import { z } from "zod";
import { ResourceKind } from "./enums";

export const BaseErrorBody = z.looseObject({
  title: z.string(),
  detail: z.string(),
  full_detail: z.string().optional(),
  request_id: z.string().optional(),
});
export type BaseErrorBody = z.infer<typeof BaseErrorBody>;

export const ResourceErrorBody = BaseErrorBody.extend({ resource: ResourceKind.or(z.string()).optional() });
export type ResourceErrorBody = z.infer<typeof ResourceErrorBody>;

export const PreconditionFailedErrorBody = BaseErrorBody.extend({
  system_error_code: z.string().optional(),
  error_type: z.string().optional(),
});
export type PreconditionFailedErrorBody = z.infer<typeof PreconditionFailedErrorBody>;

/** One entry of a 422 `detail` list (FastAPI / pydantic style). */
export const ValidationIssue = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

export const ValidationErrorBody = z.looseObject({
  title: z.string(),
  detail: z.array(ValidationIssue),
  full_detail: z.string().optional(),
  request_id: z.string().optional(),
});
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;

/** The real schema is `{}`; the emulator adds `title`/`detail` like every other error. */
export const RateLimitErrorBody = z.looseObject({
  title: z.string().optional(),
  detail: z.string().optional(),
});
