/** Webhook `X-Signature` verification: true only for a genuine signature, never a throw. */
import { strict as assert } from "node:assert";
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { verifyWebhookSignature } from "../signing/index";
import { fixture } from "./helpers";

const vector = (
  JSON.parse(fixture("openssl-vectors.json")) as {
    webhook: { body: string; signature: string; publicKey: string };
  }
).webhook;
const publicKeyPem = fixture(vector.publicKey);

describe("sdk verifyWebhookSignature", () => {
  it("accepts OpenSSL's signature of a fixed delivery, as text or bytes", () => {
    assert.equal(verifyWebhookSignature(vector.body, vector.signature, publicKeyPem), true);
    assert.equal(verifyWebhookSignature(Buffer.from(vector.body), vector.signature, publicKeyPem), true);
    assert.equal(verifyWebhookSignature(vector.body, vector.signature, createPublicKey(publicKeyPem)), true);
  });

  it("rejects a tampered body", () => {
    const tampered = vector.body.replace('"attempt":1', '"attempt":2');
    assert.notEqual(tampered, vector.body);
    assert.equal(verifyWebhookSignature(tampered, vector.signature, publicKeyPem), false);
    assert.equal(verifyWebhookSignature(`${vector.body}\n`, vector.signature, publicKeyPem), false);
  });

  it("rejects the right signature under another key", () => {
    assert.equal(
      verifyWebhookSignature(vector.body, vector.signature, fixture("api-user-p256.pub.pem")),
      false,
    );
  });

  it("returns false, never throws, for garbage signatures", () => {
    const der = Buffer.from(vector.signature, "base64");
    const compact = Buffer.alloc(64, 7).toString("base64");
    const garbage: unknown[] = [
      "",
      "   ",
      "not base64!!",
      "QUJD", // "ABC"
      randomBytes(72).toString("base64"),
      compact,
      Buffer.concat([der, Buffer.from([0])]).toString("base64"), // trailing byte after the DER sequence
      der.subarray(0, der.length - 1).toString("base64"), // truncated
      vector.signature.replace(/=+$/, "").slice(1), // misaligned
      undefined,
      null,
      42,
    ];
    for (const sig of garbage) {
      assert.equal(verifyWebhookSignature(vector.body, sig as string, publicKeyPem), false, String(sig));
    }
  });

  it("returns false for a malformed key or body instead of throwing", () => {
    assert.equal(
      verifyWebhookSignature(vector.body, vector.signature, "-----BEGIN PUBLIC KEY-----\nAA\n"),
      false,
    );
    assert.equal(verifyWebhookSignature(vector.body, vector.signature, ""), false);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey;
    assert.equal(verifyWebhookSignature(vector.body, vector.signature, rsa), false);
    assert.equal(verifyWebhookSignature({} as unknown as string, vector.signature, publicKeyPem), false);
  });

  it("accepts what node:crypto signs over arbitrary bodies, and a private key PEM works as the verify key", () => {
    const privatePem = fixture("webhook-p256.pem");
    const privateKey = createPrivateKey(privatePem);
    for (let i = 0; i < 32; i++) {
      const body = randomBytes(1 + i * 13);
      const signature = sign("sha256", body, privateKey).toString("base64");
      assert.equal(verifyWebhookSignature(body, signature, publicKeyPem), true, `#${i}`);
      assert.equal(verifyWebhookSignature(body, signature, privatePem), true, `#${i} (private PEM)`);
    }
  });
});
