/**
 * Checking the `X-Signature` of a webhook delivery (docs/api-notes.md, "Webhooks"): base64 of a DER ECDSA
 * P-256/SHA-256 signature over the raw request body, verified with the service's published public key.
 */
import { verifyP256 } from "./ecdsa-p256";
import { type PemKey, p256PublicPoint } from "./pem-keys";

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Whether `signatureB64` is a valid signature of `rawBody` under `publicKeyPem`.
 *
 * Pass the body exactly as received (before any JSON parsing). Never throws: a malformed signature, key or body
 * simply gives `false`.
 *
 * @param rawBody - The request body bytes or text as received.
 * @param signatureB64 - The `X-Signature` header value (standard base64).
 * @param publicKeyPem - The service's P-256 public key (SPKI PEM) or a KeyObject.
 * @returns true only for a genuine signature.
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  signatureB64: string,
  publicKeyPem: PemKey,
): boolean {
  try {
    if (typeof signatureB64 !== "string") return false;
    const sig = signatureB64.trim();
    if (sig.length === 0 || sig.length % 4 !== 0 || !BASE64.test(sig)) return false;
    const body =
      typeof rawBody === "string"
        ? new TextEncoder().encode(rawBody)
        : rawBody instanceof Uint8Array
          ? rawBody
          : undefined;
    if (body === undefined) return false;
    return verifyP256(body, Buffer.from(sig, "base64"), p256PublicPoint(publicKeyPem));
  } catch {
    return false;
  }
}
