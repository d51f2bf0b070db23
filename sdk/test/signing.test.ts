/**
 * Request signing cross-checked against node:crypto in both directions, plus two vectors this
 * package did not produce: RFC 6979 §A.2.5 (P-256, SHA-256, "sample") and a signature made with OpenSSL.
 */
import { strict as assert } from "node:assert";
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  verify,
} from "node:crypto";
import { signP256, verifyP256 } from "../signing/ecdsa-p256";
import { signingMessage, signRequest } from "../signing/index";
import { p256PrivateScalar, p256PublicPoint } from "../signing/pem-keys";
import { fixture } from "./helpers";

/** Order of the P-256 group. */
const N = BigInt("0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551");

/** Minimal DER reader for `SEQUENCE { INTEGER r, INTEGER s }`. */
function decodeDer(der: Uint8Array): { r: bigint; s: bigint } {
  assert.equal(der[0], 0x30, "SEQUENCE");
  assert.equal(der[1], der.length - 2, "sequence length covers the rest");
  let at = 2;
  const int = () => {
    assert.equal(der[at], 0x02, "INTEGER");
    const len = der[at + 1];
    const bytes = der.subarray(at + 2, at + 2 + len);
    at += 2 + len;
    return BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
  };
  const r = int();
  const s = int();
  assert.equal(at, der.length, "no trailing bytes");
  return { r, s };
}

const vectors = JSON.parse(fixture("openssl-vectors.json")) as {
  request: {
    privateKey: string;
    publicKey: string;
    path: string;
    timestamp: string;
    body: string;
    signature: string;
  };
  webhook: { privateKey: string; publicKey: string; body: string; signature: string };
};

describe("sdk request signing", () => {
  it('matches RFC 6979 §A.2.5 (P-256, SHA-256, message "sample"), in low-S form', () => {
    const key = fixture("rfc6979-a25-p256.pem");
    const scalar = p256PrivateScalar(key);
    assert.equal(
      Buffer.from(scalar).toString("hex").toUpperCase(),
      "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721",
    );
    const der = signP256(new TextEncoder().encode("sample"), scalar);
    const { r, s } = decodeDer(der);
    assert.equal(r, BigInt("0xEFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716"));
    // The RFC's s is in the upper half of the group; low-S signing publishes n − s instead (same validity).
    const rfcS = BigInt("0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8");
    assert.equal(s, N - rfcS);
    assert.ok(verify("sha256", Buffer.from("sample"), createPublicKey(key), der), "node verifies it");
  });

  it("verifies OpenSSL's signature of a fixed create-transaction request (a high-S one)", () => {
    const v = vectors.request;
    const message = signingMessage(v.path, v.timestamp, v.body);
    const der = Buffer.from(v.signature, "base64");
    assert.ok(decodeDer(der).s > N / 2n, "the fixture exercises a high-S signature");
    assert.ok(verifyP256(Buffer.from(message), der, p256PublicPoint(fixture(v.publicKey))));
    assert.ok(verify("sha256", Buffer.from(message), createPublicKey(fixture(v.publicKey)), der));
  });

  it("signs the fixed request so that node:crypto verifies it, identically from PKCS#8 and SEC1", () => {
    const v = vectors.request;
    const input = { path: v.path, timestamp: v.timestamp, body: v.body };
    const fromPkcs8 = signRequest({ ...input, privateKey: fixture("api-user-p256.pem") });
    const fromSec1 = signRequest({ ...input, privateKey: fixture("api-user-p256.sec1.pem") });
    const fromKeyObject = signRequest({
      ...input,
      privateKey: createPrivateKey(fixture("api-user-p256.pem")),
    });
    assert.equal(fromPkcs8, fromSec1, "RFC 6979: the same key and message give the same signature");
    assert.equal(fromPkcs8, fromKeyObject);
    assert.match(fromPkcs8, /^[A-Za-z0-9+/]+={0,2}$/, "standard base64");
    const ok = verify(
      "sha256",
      Buffer.from(`${v.path}|${v.timestamp}|${v.body}`),
      createPublicKey(fixture(v.publicKey)),
      Buffer.from(fromPkcs8, "base64"),
    );
    assert.ok(ok);
  });

  it("noble signs → node verifies, and node signs → noble verifies, over random messages", () => {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const scalar = p256PrivateScalar(privateKey);
    const point = p256PublicPoint(publicKey);
    let nodeHighS = 0;
    for (let i = 0; i < 64; i++) {
      const body = JSON.stringify({
        i,
        note: randomBytes(1 + (i % 40)).toString("base64"),
        memo: "ünïcødé ✓",
      });
      const timestamp = 1_739_459_236_186 + i;
      const message = Buffer.from(signingMessage("/api/v1/transactions", timestamp, body), "utf8");

      const ours = Buffer.from(
        signRequest({ path: "/api/v1/transactions", timestamp, body, privateKey }),
        "base64",
      );
      assert.ok(verify("sha256", message, publicKey, ours), `node verifies ours #${i}`);
      assert.ok(decodeDer(ours).s <= N / 2n, "ours is always low-S");

      const theirs = sign("sha256", message, privateKey);
      if (decodeDer(theirs).s > N / 2n) nodeHighS++;
      assert.ok(verifyP256(message, theirs, point), `we verify node's #${i}`);
      assert.ok(
        !verifyP256(Buffer.concat([message, Buffer.from(" ")]), theirs, point),
        "and reject a changed message",
      );
    }
    assert.ok(scalar.length === 32);
    assert.ok(nodeHighS > 0, "some of node's signatures were high-S, and they were accepted");
  });

  it("the signed message is <path>|<timestamp>|<body>", () => {
    assert.equal(
      signingMessage("/api/v1/transactions", 1700000000000, '{"a":1}'),
      '/api/v1/transactions|1700000000000|{"a":1}',
    );
    assert.equal(signingMessage("/api/v1/transactions", "17", ""), "/api/v1/transactions|17|");
  });

  it("refuses a key that is not P-256, without quoting it", () => {
    const k1 = generateKeyPairSync("ec", { namedCurve: "secp256k1" }).privateKey.export({
      type: "pkcs8",
      format: "pem",
    });
    assert.throws(
      () => signRequest({ path: "/p", timestamp: 1, body: "", privateKey: k1 }),
      (err: Error) => /secp256k1/.test(err.message) && !err.message.includes(String(k1).split("\n")[1]),
    );
    assert.throws(
      () => signRequest({ path: "/p", timestamp: 1, body: "", privateKey: "not a key" }),
      /not a PEM private key/,
    );
  });
});
