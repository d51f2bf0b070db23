/**
 * What the release tests read of an executable without running it: its format and CPU from its header (ELF, PE,
 * Mach-O), and a Mach-O file's code signature, checked as macOS checks it when it maps the pages: each page's
 * SHA-256 must be the one its code directory records.
 *
 * @module
 */
import { createHash } from "node:crypto";

/** An executable's format and CPU, as its header says. */
export interface ExecutableKind {
  /** The operating system whose format it is. */
  os: "linux" | "darwin" | "windows";
  /** The CPU, in Pulumi's words. */
  arch: "amd64" | "arm64";
}

/** The format and CPU of `image`; undefined for anything else than a 64-bit ELF, PE or Mach-O of x86-64 or arm64. */
export function executableKind(image: Buffer): ExecutableKind | undefined {
  if (image.length >= 20 && image.readUInt32BE(0) === 0x7f454c46 && image[4] === 2) {
    const machine = image.readUInt16LE(18);
    if (machine === 0x3e) return { os: "linux", arch: "amd64" };
    if (machine === 0xb7) return { os: "linux", arch: "arm64" };
    return undefined;
  }
  if (image.length >= 8 && image.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = image.readUInt32LE(4);
    if (cpu === 0x01000007) return { os: "darwin", arch: "amd64" };
    if (cpu === 0x0100000c) return { os: "darwin", arch: "arm64" };
    return undefined;
  }
  if (image.length >= 0x40 && image.toString("latin1", 0, 2) === "MZ") {
    const pe = image.readUInt32LE(0x3c);
    if (image.toString("latin1", pe, pe + 4) !== "PE\0\0") return undefined;
    const machine = image.readUInt16LE(pe + 4);
    if (machine === 0x8664) return { os: "windows", arch: "amd64" };
    if (machine === 0xaa64) return { os: "windows", arch: "arm64" };
  }
  return undefined;
}

/** A Mach-O file's code directory, as {@link machoSignature} reads it. */
export interface MachoSignature {
  /** The signing identifier. */
  identifier: string;
  /** The code directory's flags (0x2: ad hoc). */
  flags: number;
  /** Whether it is an ad-hoc signature (no certificate). */
  adhoc: boolean;
  /** Blobs of the signature other than the code directory (requirements, entitlements, a CMS signature). */
  otherBlobs: number;
  /** How many pages the code directory hashes, and how many of them differ from the file. */
  pages: number;
  /** The pages whose SHA-256 is not the one recorded. */
  mismatchedPages: number;
  /** Whether the hashed range is the whole file up to the signature. */
  coversAllCode: boolean;
}

/**
 * The code signature of a 64-bit Mach-O file (the LC_CODE_SIGNATURE blob), with each page's hash checked against
 * the file; undefined when the file has none.
 *
 * @throws if the signature is not a SuperBlob with one SHA-256 code directory
 */
export function machoSignature(image: Buffer): MachoSignature | undefined {
  if (image.readUInt32LE(0) !== 0xfeedfacf) throw new Error("not a 64-bit Mach-O file");
  let offset = 32;
  let dataoff: number | undefined;
  for (let i = 0, count = image.readUInt32LE(16); i < count; i++) {
    if (image.readUInt32LE(offset) === 0x1d) dataoff = image.readUInt32LE(offset + 8);
    offset += image.readUInt32LE(offset + 4);
  }
  if (dataoff === undefined) return undefined;
  if (image.readUInt32BE(dataoff) !== 0xfade0cc0) throw new Error("the signature is not a SuperBlob");
  const blobs = image.readUInt32BE(dataoff + 8);
  let directory: number | undefined;
  for (let i = 0; i < blobs; i++) {
    const at = dataoff + image.readUInt32BE(dataoff + 12 + 8 * i + 4);
    if (image.readUInt32BE(at) === 0xfade0c02) directory = at;
  }
  if (directory === undefined) throw new Error("the signature has no code directory");
  const flags = image.readUInt32BE(directory + 12);
  const hashOffset = image.readUInt32BE(directory + 16);
  const identOffset = image.readUInt32BE(directory + 20);
  const pages = image.readUInt32BE(directory + 28);
  const codeLimit = image.readUInt32BE(directory + 32);
  const hashSize = image.readUInt8(directory + 36);
  const hashType = image.readUInt8(directory + 37);
  const pageSize = 2 ** image.readUInt8(directory + 39);
  if (hashType !== 2 || hashSize !== 32) throw new Error(`hash type ${hashType} is not SHA-256`);
  const identEnd = image.indexOf(0, directory + identOffset);
  let mismatchedPages = 0;
  for (let page = 0; page < pages; page++) {
    const start = page * pageSize;
    const digest = createHash("sha256")
      .update(image.subarray(start, Math.min(start + pageSize, codeLimit)))
      .digest();
    const recorded = image.subarray(
      directory + hashOffset + page * 32,
      directory + hashOffset + (page + 1) * 32,
    );
    if (!digest.equals(recorded)) mismatchedPages++;
  }
  return {
    identifier: image.toString("utf8", directory + identOffset, identEnd),
    flags,
    adhoc: (flags & 0x2) !== 0,
    otherBlobs: blobs - 1,
    pages,
    mismatchedPages,
    coversAllCode: codeLimit === dataoff && pages === Math.ceil(codeLimit / pageSize),
  };
}
