#!/usr/bin/env node
// Gives a 64-bit Mach-O executable an ad-hoc code signature, in place, on any OS: the signature `ld64` writes for
// `-adhoc_codesign` and `bun build --compile` writes for darwin-arm64 (docs/build.md, "macOS signatures"). macOS
// runs no arm64 code without a valid signature, and kills a process whose pages do not match the signature it
// carries; an ad-hoc signature is a code directory of SHA-256 page hashes, with no certificate.
//
//   node scripts/macho-adhoc-sign.js <executable> <identifier>
//
// The executable must already have a code-signature slot (an LC_CODE_SIGNATURE load command whose data ends the
// file, as every Bun runtime has): the old signature there is replaced. The code directory is version 0x20400
// (with the executable segment), flags adhoc | linker-signed, 4096-byte pages, no special slots, as Bun writes it;
// scripts/release-artifacts.sh checks that this script reproduces Bun's own darwin-arm64 signature byte for byte.

const crypto = require("node:crypto");
const fs = require("node:fs");

const MH_MAGIC_64 = 0xfeedfacf;
const MH_EXECUTE = 2;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CS_ADHOC = 0x2;
const CS_LINKER_SIGNED = 0x20000;
const CS_EXECSEG_MAIN_BINARY = 0x1;
const CS_HASHTYPE_SHA256 = 2;
const PAGE_SHIFT = 12;
const PAGE_SIZE = 1 << PAGE_SHIFT;
const HASH_SIZE = 32;
/** The size of a version 0x20400 code directory's header, up to its identifier. */
const CODE_DIRECTORY_HEADER = 88;

function fail(message) {
  process.stderr.write(`macho-adhoc-sign: ${message}\n`);
  process.exit(1);
}

/** The load commands this signer reads: the code-signature slot and the __TEXT and __LINKEDIT segments. */
function loadCommands(image) {
  if (image.length < 32 || image.readUInt32LE(0) !== MH_MAGIC_64)
    fail("not a 64-bit little-endian Mach-O file (a universal binary must be split first)");
  const found = { filetype: image.readUInt32LE(12) };
  const count = image.readUInt32LE(16);
  let offset = 32;
  for (let i = 0; i < count; i++) {
    const cmd = image.readUInt32LE(offset);
    const size = image.readUInt32LE(offset + 4);
    if (cmd === LC_CODE_SIGNATURE) found.signature = offset;
    if (cmd === LC_SEGMENT_64) {
      const name = image.toString("latin1", offset + 8, offset + 24).replace(/\0+$/, "");
      if (name === "__TEXT") found.text = offset;
      if (name === "__LINKEDIT") found.linkedit = offset;
    }
    offset += size;
  }
  if (found.signature === undefined) fail("no LC_CODE_SIGNATURE load command to hold the signature");
  if (found.text === undefined || found.linkedit === undefined) fail("no __TEXT or __LINKEDIT segment");
  return found;
}

/** The signed file: `image` with its signature slot filled by an ad-hoc signature naming `identifier`. */
function sign(image, identifier) {
  const commands = loadCommands(image);
  const codeLimit = image.readUInt32LE(commands.signature + 8);
  const oldSize = image.readUInt32LE(commands.signature + 12);
  if (codeLimit + oldSize !== image.length) fail("the code signature does not end the file");
  const linkeditFileoff = Number(image.readBigUInt64LE(commands.linkedit + 40));
  if (codeLimit < linkeditFileoff) fail("the code signature is not inside __LINKEDIT");

  const ident = Buffer.from(`${identifier}\0`, "utf8");
  const slots = Math.ceil(codeLimit / PAGE_SIZE);
  const hashOffset = CODE_DIRECTORY_HEADER + ident.length;
  const directoryLength = hashOffset + slots * HASH_SIZE;
  const blobLength = 12 + 8 + directoryLength;

  // The headers first: the page hashes cover them.
  const signed = Buffer.alloc(codeLimit + blobLength);
  image.copy(signed, 0, 0, codeLimit);
  signed.writeUInt32LE(blobLength, commands.signature + 12);
  const linkeditFilesize = codeLimit + blobLength - linkeditFileoff;
  const linkeditVmsize = Number(signed.readBigUInt64LE(commands.linkedit + 32));
  const pages = Math.ceil(linkeditFilesize / PAGE_SIZE) * PAGE_SIZE;
  signed.writeBigUInt64LE(BigInt(Math.max(linkeditVmsize, pages)), commands.linkedit + 32);
  signed.writeBigUInt64LE(BigInt(linkeditFilesize), commands.linkedit + 48);

  let at = codeLimit;
  at = signed.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, at);
  at = signed.writeUInt32BE(blobLength, at);
  at = signed.writeUInt32BE(1, at);
  at = signed.writeUInt32BE(CSSLOT_CODEDIRECTORY, at);
  at = signed.writeUInt32BE(20, at);
  const directory = at;
  at = signed.writeUInt32BE(CSMAGIC_CODEDIRECTORY, at);
  at = signed.writeUInt32BE(directoryLength, at);
  at = signed.writeUInt32BE(0x20400, at);
  at = signed.writeUInt32BE(CS_ADHOC | CS_LINKER_SIGNED, at);
  at = signed.writeUInt32BE(hashOffset, at);
  at = signed.writeUInt32BE(CODE_DIRECTORY_HEADER, at);
  at = signed.writeUInt32BE(0, at); // special slots
  at = signed.writeUInt32BE(slots, at);
  at = signed.writeUInt32BE(codeLimit, at);
  at = signed.writeUInt8(HASH_SIZE, at);
  at = signed.writeUInt8(CS_HASHTYPE_SHA256, at);
  at = signed.writeUInt8(0, at); // platform
  at = signed.writeUInt8(PAGE_SHIFT, at);
  at += 4 * 4 + 8; // spare2, scatterOffset, teamOffset, spare3, codeLimit64: zero
  at = signed.writeBigUInt64BE(signed.readBigUInt64LE(commands.text + 40), at); // execSegBase: __TEXT's fileoff
  at = signed.writeBigUInt64BE(signed.readBigUInt64LE(commands.text + 48), at); // execSegLimit: its filesize
  at = signed.writeBigUInt64BE(BigInt(commands.filetype === MH_EXECUTE ? CS_EXECSEG_MAIN_BINARY : 0), at);
  at += ident.copy(signed, at);
  if (at !== directory + hashOffset) fail("internal error: the code directory's header is mislaid");
  for (let page = 0; page < slots; page++) {
    const start = page * PAGE_SIZE;
    const digest = crypto
      .createHash("sha256")
      .update(signed.subarray(start, Math.min(start + PAGE_SIZE, codeLimit)))
      .digest();
    at += digest.copy(signed, at);
  }
  return signed;
}

const [file, identifier] = process.argv.slice(2);
if (!file || !identifier) fail("usage: macho-adhoc-sign.js <executable> <identifier>");
const signed = sign(fs.readFileSync(file), identifier);
fs.writeFileSync(`${file}.signing`, signed, { mode: fs.statSync(file).mode });
fs.renameSync(`${file}.signing`, file);
