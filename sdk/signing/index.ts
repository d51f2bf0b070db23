/**
 * `@pulumi-custody/sdk/signing`: request signing (ECDSA P-256, as `POST /transactions` needs it) and webhook
 * verification, apart from the client's entry point so that a client that never signs loads no signing code.
 *
 * @packageDocumentation
 */
export type { PemKey } from "./pem-keys";
export { type SignRequestInput, signingMessage, signRequest } from "./sign-request";
export { verifyWebhookSignature } from "./verify-webhook-signature";
