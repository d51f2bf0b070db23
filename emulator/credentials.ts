/**
 * Credentials of a running emulator: access tokens shaped like the real service's JWTs (opaque to
 * clients; never verified as JWTs), a control token, and two P-256 key pairs: the API user's signing key
 * (its public key is "registered" with the signer) and the webhook signing key.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import type { Credentials } from "./state/types";

/** Credentials the caller wants fixed; everything left out is generated. */
export interface CredentialOptions {
  accessToken?: string;
  viewerAccessToken?: string;
  controlToken?: string;
  /** PKCS#8 PEM of a P-256 key: the API user's request-signing key. */
  apiUserPrivateKeyPem?: string;
  /** PKCS#8 PEM of a P-256 key: the emulator's webhook-signing key. */
  webhookPrivateKeyPem?: string;
}

/** A fresh bearer token for `subject`, shaped like the real service's (a JWT). */
export function jwtShapedToken(subject: string): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: "EdDSA", kid: "custody-emulator", typ: "JWT" };
  const payload = {
    iss: "https://custody-emulator.invalid/",
    sub: `${subject}@custody-emulator`,
    aud: ["https://custody-emulator.invalid/api/"],
    iat: now,
    exp: now + 10 * 365 * 24 * 3600,
    jti: randomUUID(),
  };
  return `${b64(header)}.${b64(payload)}.${randomBytes(64).toString("base64url")}`;
}

/** A PEM pair for a P-256 private key: the given one (checked) or a new one. */
export function p256KeyPair(privateKeyPem?: string): { privateKeyPem: string; publicKeyPem: string } {
  if (privateKeyPem) {
    const key = createPrivateKey(privateKeyPem);
    const details = key.asymmetricKeyDetails;
    if (key.asymmetricKeyType !== "ec" || details?.namedCurve !== "prime256v1") {
      throw new Error("custody-emulator: a fixed signing key must be an EC P-256 (prime256v1) private key");
    }
    return {
      privateKeyPem: key.export({ type: "pkcs8", format: "pem" }).toString(),
      publicKeyPem: createPublicKey(key).export({ type: "spki", format: "pem" }).toString(),
    };
  }
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

/** Credentials: `existing` (from a state file) first, then `fixed`, then generated values. */
export function makeCredentials(
  apiUserId: string,
  viewerUserId: string,
  fixed: CredentialOptions = {},
  existing?: Credentials,
): Credentials {
  const apiKey = p256KeyPair(fixed.apiUserPrivateKeyPem ?? existing?.apiUserPrivateKeyPem);
  const webhookKey = p256KeyPair(fixed.webhookPrivateKeyPem ?? existing?.webhookPrivateKeyPem);
  const accessToken = fixed.accessToken ?? existing?.accessToken ?? jwtShapedToken(apiUserId);
  const viewerAccessToken =
    fixed.viewerAccessToken ?? existing?.viewerAccessToken ?? jwtShapedToken(viewerUserId);
  // One token for both users would make the viewer a trader (the access token is matched first).
  if (accessToken === viewerAccessToken)
    throw new Error("credentials: accessToken and viewerAccessToken must differ");
  return {
    accessToken,
    viewerAccessToken,
    controlToken:
      fixed.controlToken ?? existing?.controlToken ?? `emu-control-${randomBytes(24).toString("base64url")}`,
    apiUserPrivateKeyPem: apiKey.privateKeyPem,
    apiUserPublicKeyPem: apiKey.publicKeyPem,
    webhookPrivateKeyPem: webhookKey.privateKeyPem,
    webhookPublicKeyPem: webhookKey.publicKeyPem,
  };
}
