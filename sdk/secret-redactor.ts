/**
 * The redactor of a set of credentials, for code outside the client that shows what a server or a tool said
 * (the `custody` command's reports): the same scrubbing the client applies to its errors (sdk/redact.ts), built
 * from access tokens and signing keys as the client builds its own.
 */

import { SecretRedactor } from "./redact";
import type { PemKey } from "./signing/pem-keys";

/** The credentials a redactor scrubs. */
export interface Credentials {
  /** Access tokens (each in every written form, encoding and piece). */
  accessTokens?: readonly string[];
  /**
   * Signing keys (P-256, PEM text, `Buffer` or `KeyObject`): each in every text it has (PKCS#8 and SEC1 PEM, LF
   * and CRLF, the base64 bodies, DER, the private scalar). A key that cannot be parsed is scrubbed as a text.
   */
  privateKeys?: readonly PemKey[];
}

/** A {@link SecretRedactor} that knows `credentials`, as the client's own does. */
export function secretRedactor(credentials: Credentials): SecretRedactor {
  const redactor = new SecretRedactor(credentials.accessTokens ?? []);
  if ((credentials.privateKeys ?? []).length === 0) return redactor;
  // Loaded only when there is a key, as the client does: a process that never signs never loads them.
  const { privateKeyForms }: typeof import("./signing/pem-keys") = require("./signing/pem-keys");
  for (const key of credentials.privateKeys ?? []) {
    let forms: ReturnType<typeof privateKeyForms>;
    try {
      forms = privateKeyForms(key);
    } catch {
      if (typeof key === "string") redactor.add(key);
      continue;
    }
    for (const form of forms.encoded) redactor.add(form, { joiners: false });
    for (const form of forms.plain) redactor.add(form, { encodings: false, joiners: false });
  }
  return redactor;
}
