/**
 * `@pulumi-custody/sdk`: a typed client for the custody API v0.2.0. Request signing and webhook verification are
 * in `@pulumi-custody/sdk/signing`; the zod schemas and the endpoint table in `@pulumi-custody/sdk/schema`.
 *
 * @packageDocumentation
 */
export {
  CustodyClient,
  type CustodyClientAdvancedOptions,
  type CustodyClientOptions,
} from "./custody-client";
export * from "./errors";
export type { ListAllOptions } from "./pagination";
export { type AddSecretOptions, REDACTED, type Secret, SecretRedactor } from "./redact";
export type {
  AccessToken,
  CallOptions,
  CustodyLogger,
  EndpointResponse,
  RequestArgs,
  RequestEvent,
} from "./request-pipeline";
export type { CreateTransactionOptions } from "./resources/define-namespace";
export type { ListAllQuery } from "./resources/list-all-query";
export * from "./schema";
export { type Credentials, secretRedactor } from "./secret-redactor";
export {
  escapeControls,
  isShownAsIs,
  LONE_SURROGATE,
  SHOWN_VALUE_MAX,
  shownText,
  shownValue,
} from "./shown";
export type { PemKey } from "./signing/pem-keys";
export { isLoopbackHost } from "./transport/base-url";
export { DEFAULT_REQUESTS_PER_MINUTE, type RateLimitStatus } from "./transport/rate-limiter";
export type { Sleep } from "./transport/sleep";
export { SDK_VERSION } from "./version";
