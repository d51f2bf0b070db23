/**
 * A small seeded pseudo-random generator (sfc32) and deterministic identifiers.
 *
 * Everything the emulator invents (seed data, fault decisions, new ids) comes from here, so that the same
 * seed gives the same data and the same fault sequence on every run and every machine.
 */
import { createHash } from "node:crypto";

/** A deterministic random source. */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** @param seed any string or number; equal seeds give equal sequences. */
  constructor(seed: string | number) {
    const h = createHash("sha256").update(String(seed)).digest();
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12);
    // Warm up: the first outputs of sfc32 are weakly mixed.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** `n` random bytes. */
  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i += 4) {
      const v = this.nextUint32();
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (v >>> (8 * j)) & 0xff;
    }
    return out;
  }
}

/** Formats 16 bytes as an RFC 4122 version-4 UUID string. */
export function bytesToUuid(bytes: Buffer): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A UUID derived from a namespace and parts: the same inputs always give the same id. Used for seed data
 * and for new records (`<seed>/<counter>`), so that a replayed sequence of requests yields the same ids.
 */
export function deterministicUuid(...parts: (string | number)[]): string {
  return bytesToUuid(createHash("sha256").update(parts.join("\u0000")).digest());
}
