/**
 * Reading P-256 keys from PEM with node:crypto, which understands every PEM flavour (PKCS#8 `PRIVATE KEY`,
 * SEC1 `EC PRIVATE KEY`, SPKI `PUBLIC KEY`), and handing the raw key material to @noble/curves.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { MIN_ANYWHERE_LENGTH, type Secret } from "../redact";

/** A key given as PEM text (string or bytes) or as a node:crypto `KeyObject`. */
export type PemKey = string | Buffer | KeyObject;

/** The curve name as node:crypto's JWK export reports it. */
const P256 = "P-256";

/**
 * The 32-byte private scalar of a P-256 private key.
 *
 * @throws {Error} when the input is not a private key, or not on P-256. The message never includes the key.
 */
export function p256PrivateScalar(key: PemKey): Uint8Array {
  let jwk: { kty?: string; crv?: string; d?: string };
  try {
    const object = isKeyObject(key) ? key : createPrivateKey({ key, format: "pem" });
    if (object.type !== "private") throw new Error("not a private key");
    jwk = object.export({ format: "jwk" });
  } catch {
    throw new Error(
      'not a PEM private key (expected "-----BEGIN PRIVATE KEY-----" PKCS#8 or "-----BEGIN EC PRIVATE KEY-----" SEC1)',
    );
  }
  if (jwk.kty !== "EC" || jwk.crv !== P256 || typeof jwk.d !== "string") {
    throw new Error(`the key is ${describeJwk(jwk)}; request signing needs an EC P-256 (prime256v1) key`);
  }
  return fixedLength(Buffer.from(jwk.d, "base64url"), 32);
}

/**
 * The 65-byte uncompressed point (`04 ‖ x ‖ y`) of a P-256 public key. A private key is accepted too (its
 * public half is used).
 *
 * @throws {Error} when the input is not a P-256 key.
 */
export function p256PublicPoint(key: PemKey): Uint8Array {
  const object = isKeyObject(key) ? key : createPublicKey({ key, format: "pem" });
  const jwk = object.export({ format: "jwk" }) as { kty?: string; crv?: string; x?: string; y?: string };
  if (jwk.kty !== "EC" || jwk.crv !== P256 || typeof jwk.x !== "string" || typeof jwk.y !== "string") {
    throw new Error(`the key is ${describeJwk(jwk)}, not EC P-256`);
  }
  const x = fixedLength(Buffer.from(jwk.x, "base64url"), 32);
  const y = fixedLength(Buffer.from(jwk.y, "base64url"), 32);
  const point = new Uint8Array(65);
  point[0] = 0x04;
  point.set(x, 1);
  point.set(y, 33);
  return point;
}

/** The forms of a private key that a server could echo, for the client's redaction (sdk/redact.ts). */
export interface PrivateKeyForms {
  /** Searched for as written and in their byte encodings: the PEM texts (LF), the DER bytes, the scalar. */
  encoded: Secret[];
  /** Searched for as written only: the PEM texts with CRLF line ends, their base64 bodies and body lines. */
  plain: string[];
}

/**
 * Every form in which a private key can be written: the PEM text it was given as (if it was), its PKCS#8 and SEC1
 * PEM texts with LF and CRLF line ends, the base64 body of each PEM alone (joined, and line by line), its DER
 * bytes and its private scalar. Expects a key {@link p256PrivateScalar} accepted.
 */
export function privateKeyForms(key: PemKey): PrivateKeyForms {
  const object = isKeyObject(key) ? key : createPrivateKey({ key, format: "pem" });
  const pems: string[] = isKeyObject(key) ? [] : [typeof key === "string" ? key : key.toString("utf8")];
  const encoded: Secret[] = [];
  for (const type of ["pkcs8", "sec1"] as const) {
    pems.push(object.export({ type, format: "pem" }) as string);
    encoded.push(object.export({ type, format: "der" }));
  }
  const { d } = object.export({ format: "jwk" }) as { d?: string };
  if (d !== undefined) encoded.push(Buffer.from(d, "base64url"));
  const plain: string[] = [];
  for (const pem of pems) {
    const lf = pem.trim().replace(/\r\n?/g, "\n");
    encoded.push(lf);
    // A key file written on Windows is echoed (and encoded) with its CRLF line ends.
    if (pem.trim() !== lf) encoded.push(pem.trim());
    plain.push(lf.replace(/\n/g, "\r\n"));
    for (const lines of pemBodies(lf)) {
      plain.push(lines.join(""), ...lines.filter((line) => line.length >= MIN_ANYWHERE_LENGTH));
    }
  }
  return { encoded, plain };
}

/** The base64 lines of each `-----BEGIN …-----` block of a PEM text (header lines such as `Proc-Type:` left out). */
function pemBodies(pem: string): string[][] {
  const bodies: string[][] = [];
  let lines: string[] | undefined;
  for (const line of pem.split("\n").map((l) => l.trim())) {
    if (line.startsWith("-----BEGIN ")) lines = [];
    else if (line.startsWith("-----END ")) {
      if (lines !== undefined && lines.length > 0) bodies.push(lines);
      lines = undefined;
    } else if (lines !== undefined && line !== "" && !line.includes(":")) lines.push(line);
  }
  return bodies;
}

function isKeyObject(key: PemKey): key is KeyObject {
  return typeof key === "object" && !Buffer.isBuffer(key) && typeof (key as KeyObject).export === "function";
}

/** Left-pads to `length` bytes (JWK coordinates are minimal big-endian, so may be shorter). */
function fixedLength(bytes: Uint8Array, length: number): Uint8Array {
  if (bytes.length === length) return bytes;
  if (bytes.length > length) throw new Error("key material is longer than the curve allows");
  const out = new Uint8Array(length);
  out.set(bytes, length - bytes.length);
  return out;
}

function describeJwk(jwk: { kty?: string; crv?: string }): string {
  if (jwk.kty === "EC") return `an EC key on ${jwk.crv ?? "an unknown curve"}`;
  return `a${jwk.kty === "RSA" ? "n" : ""} ${jwk.kty ?? "unknown"} key`;
}
