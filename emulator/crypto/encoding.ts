/**
 * The address encodings the seed data and new vaults need (base58, base58check, bech32/bech32m, RFC 4648
 * base32, Stacks c32check, CRC16). Small, dependency-free implementations: the emulator only encodes.
 */
import { createHash } from "node:crypto";

export function sha256(data: Uint8Array): Buffer {
  return createHash("sha256").update(data).digest();
}

/** RIPEMD-160 of SHA-256, the Bitcoin "hash160". */
export function hash160(data: Uint8Array): Buffer {
  return createHash("ripemd160").update(sha256(data)).digest();
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function base58(data: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(data).toString("hex") || "0"}`);
  let out = "";
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const byte of data) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** base58 with a 4-byte double-SHA-256 checksum (Bitcoin legacy, Tron). */
export function base58check(payload: Uint8Array): string {
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return base58(Buffer.concat([payload, checksum]));
}

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

function polymod(values: number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= gen[i]!;
  }
  return chk >>> 0;
}

function toWords(data: Uint8Array): number[] {
  const words: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const byte of data) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31);
  return words;
}

function bech32Encode(hrp: string, words: number[], variant: "bech32" | "bech32m"): string {
  const constant = variant === "bech32" ? 1 : 0x2bc830a3;
  const expanded = [...hrp].map((c) => c.charCodeAt(0) >> 5);
  expanded.push(0, ...[...hrp].map((c) => c.charCodeAt(0) & 31));
  const mod = polymod([...expanded, ...words, 0, 0, 0, 0, 0, 0]) ^ constant;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((w) => BECH32[w]).join("")}`;
}

/** A bech32 string of arbitrary data (Cosmos addresses). */
export function bech32(hrp: string, data: Uint8Array): string {
  return bech32Encode(hrp, toWords(data), "bech32");
}

/** A SegWit address: bech32 for version 0, bech32m for version 1 (taproot), BIP-173/350. */
export function segwitAddress(hrp: string, version: number, program: Uint8Array): string {
  return bech32Encode(hrp, [version, ...toWords(program)], version === 0 ? "bech32" : "bech32m");
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding (Stellar StrKey). */
export function base32(data: Uint8Array): string {
  return toWords(data)
    .map((w) => BASE32[w])
    .join("");
}

/** CRC16-XModem (Stellar StrKey, TON user-friendly addresses). */
export function crc16xmodem(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

const C32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A Stacks c32check address: `S` + version character + c32(hash160 + checksum). */
export function c32address(version: number, hash: Uint8Array): string {
  const checksum = sha256(sha256(Buffer.concat([Buffer.from([version]), hash]))).subarray(0, 4);
  const data = Buffer.concat([hash, checksum]);
  let n = BigInt(`0x${data.toString("hex")}`);
  let out = "";
  while (n > 0n) {
    out = C32[Number(n % 32n)] + out;
    n /= 32n;
  }
  for (const byte of data) {
    if (byte !== 0) break;
    out = `0${out}`;
  }
  return `S${C32[version]}${out}`;
}
