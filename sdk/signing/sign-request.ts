/**
 * Request signing for sensitive calls (docs/api-notes.md, "Request signing"): the message is
 * `<path>|<timestamp>|<exact body text>`, signed with ECDSA P-256/SHA-256, DER-encoded, then base64.
 */
import { signP256 } from "./ecdsa-p256";
import { type PemKey, p256PrivateScalar } from "./pem-keys";

/** What {@link signRequest} signs. */
export interface SignRequestInput {
  /** The endpoint path including `/api/v1` (e.g. `/api/v1/transactions`), with no host and no query. */
  path: string;
  /** The `x-timestamp` value, in milliseconds since the epoch. */
  timestamp: number | string;
  /** The exact body text that is sent (`""` for none). */
  body: string;
  /** The API user's P-256 private key: PEM text (PKCS#8 or SEC1 "EC PRIVATE KEY") or a KeyObject. */
  privateKey: PemKey;
}

/** The string that is signed: `<path>|<timestamp>|<body>`. */
export function signingMessage(path: string, timestamp: number | string, body: string): string {
  return `${path}|${timestamp}|${body}`;
}

/**
 * The `x-signature` header value: base64 of the DER-encoded ECDSA P-256/SHA-256 signature of
 * `<path>|<timestamp>|<body>`.
 *
 * @throws {Error} when `privateKey` is not a P-256 private key (the message never contains the key).
 */
export function signRequest(input: SignRequestInput): string {
  return signWithScalar(input.path, input.timestamp, input.body, p256PrivateScalar(input.privateKey));
}

/** {@link signRequest} with a key already parsed (the client parses its key once, at construction). */
export function signWithScalar(
  path: string,
  timestamp: number | string,
  body: string,
  privateScalar: Uint8Array,
): string {
  const message = new TextEncoder().encode(signingMessage(path, timestamp, body));
  return Buffer.from(signP256(message, privateScalar)).toString("base64");
}
