/**
 * ECDSA over NIST P-256 with SHA-256, DER-encoded (as request signing needs), through @noble/curves.
 *
 * Signatures are produced in low-S form (RFC 6979 deterministic nonces), which every verifier accepts.
 * Verification accepts both S forms: node:crypto / OpenSSL, and the service's own signer, produce high-S half the
 * time, and a webhook signed that way is genuine.
 */
import type { p256 as P256Curve } from "@noble/curves/p256";

let curve: typeof P256Curve | undefined;
/**
 * Loaded on first use: only signed calls and webhook checks need it, and loading it costs every process that
 * imports the sdk (the Pulumi provider process among them) about 0.25 s of CPU (BENCHMARKS.md, figure 1).
 */
function p256(): typeof P256Curve {
  curve ??= (require("@noble/curves/p256") as { p256: typeof P256Curve }).p256;
  return curve;
}

/** DER signature bytes of `message` (hashed with SHA-256) under the 32-byte private scalar. */
export function signP256(message: Uint8Array, privateScalar: Uint8Array): Uint8Array {
  return p256().sign(message, privateScalar, { prehash: true, lowS: true }).toDERRawBytes();
}

/** Whether `derSignature` is a valid DER P-256/SHA-256 signature of `message`; false for any malformed input. */
export function verifyP256(message: Uint8Array, derSignature: Uint8Array, publicPoint: Uint8Array): boolean {
  try {
    return p256().verify(derSignature, message, publicPoint, { prehash: true, lowS: false, format: "der" });
  } catch {
    return false;
  }
}
