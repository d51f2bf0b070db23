/**
 * Deterministic key material and addresses for emulated vaults.
 *
 * Keys are not real MPC keys: a public key is a hash of the vault id, shaped like the real one (33-byte
 * SEC1-compressed for ECDSA/Schnorr, 32 bytes for EdDSA, base64 in `public_key_compressed`), and each
 * address is that key run through the chain's real encoding (bech32/bech32m, base58check, StrKey, c32check,
 * TON user-friendly form). Every address therefore has the right format and checksum, is stable for a given
 * vault id, and belongs to nobody: never send funds to one.
 */
import { createHash } from "node:crypto";
import {
  base32,
  base58,
  base58check,
  bech32,
  c32address,
  crc16xmodem,
  hash160,
  segwitAddress,
  sha256,
} from "./encoding";

function sha3(data: Uint8Array): Buffer {
  return createHash("sha3-256").update(data).digest();
}

/** 32 bytes derived from the parts (the "private" seed of an emulated key). */
export function keySeed(...parts: (string | number)[]): Buffer {
  return sha256(Buffer.from(parts.join("\u0000")));
}

/** A 33-byte SEC1-compressed-shaped public key. */
export function ecdsaPublicKey(seed: Buffer): Buffer {
  const x = sha256(Buffer.concat([seed, Buffer.from("x")]));
  return Buffer.concat([Buffer.from([seed[0]! & 1 ? 0x03 : 0x02]), x]);
}

/** A 32-byte Ed25519-shaped public key. */
export function eddsaPublicKey(seed: Buffer): Buffer {
  return sha256(Buffer.concat([seed, Buffer.from("ed")]));
}

/** A BIP-32 extended public key string (`xpub…`, base58check of 78 bytes). */
export function xpub(seed: Buffer): string {
  const chainCode = sha256(Buffer.concat([seed, Buffer.from("chain-code")]));
  const fingerprint = sha256(Buffer.concat([seed, Buffer.from("parent")])).subarray(0, 4);
  // version ‖ depth ‖ parent fingerprint ‖ child number ‖ chain code ‖ key (BIP-32 serialization).
  const body = Buffer.concat([
    Buffer.from([3]),
    fingerprint,
    Buffer.from([0x80, 0, 0, 0]),
    chainCode,
    ecdsaPublicKey(seed),
  ]);
  return base58check(Buffer.concat([Buffer.from("0488b21e", "hex"), body]));
}

/** `0x` + 40 lowercase hex (EVM). */
export function evmAddress(publicKey: Buffer): string {
  return `0x${sha3(publicKey).subarray(12).toString("hex")}`;
}

/** `0x` + 64 hex (Aptos, Sui). */
export function hex32Address(publicKey: Buffer, scheme: number): string {
  return `0x${sha3(Buffer.concat([publicKey, Buffer.from([scheme])])).toString("hex")}`;
}

/** `0x0` + 63 hex, a felt below the Starknet prime. */
export function starknetAddress(publicKey: Buffer): string {
  return `0x0${sha256(publicKey).toString("hex").slice(1)}`;
}

export function solanaAddress(publicKey: Buffer): string {
  return base58(publicKey);
}

/** Stellar StrKey account id: `G…`, 56 characters. */
export function stellarAddress(publicKey: Buffer): string {
  const payload = Buffer.concat([Buffer.from([6 << 3]), publicKey]);
  const crc = crc16xmodem(payload);
  return base32(Buffer.concat([payload, Buffer.from([crc & 0xff, crc >> 8])]));
}

/** Tron base58check address: `T…`, 34 characters. */
export function tronAddress(publicKey: Buffer): string {
  return base58check(Buffer.concat([Buffer.from([0x41]), sha3(publicKey).subarray(12)]));
}

/** Stacks mainnet single-sig address: `SP…`. */
export function stacksAddress(publicKey: Buffer): string {
  return c32address(22, hash160(publicKey));
}

/** TON raw and user-friendly (base64url, 48 characters) forms of a workchain-0 account. */
export function tonAccount(publicKey: Buffer): { raw: string; bounceable: string; nonBounceable: string } {
  const hash = sha256(Buffer.concat([publicKey, Buffer.from("ton-wallet-v4")]));
  const friendly = (flag: number) => {
    const body = Buffer.concat([Buffer.from([flag, 0x00]), hash]);
    const crc = crc16xmodem(body);
    return Buffer.concat([body, Buffer.from([crc >> 8, crc & 0xff])]).toString("base64url");
  };
  return { raw: `0:${hash.toString("hex")}`, bounceable: friendly(0x11), nonBounceable: friendly(0x51) };
}

/** A Cosmos account address with the chain's bech32 prefix. */
export function cosmosAddress(prefix: string, publicKey: Buffer): string {
  return bech32(prefix, hash160(publicKey));
}

/** Base58 of the x-only key (Arch accounts). */
export function archAddress(publicKey: Buffer): string {
  return base58(publicKey.subarray(publicKey.length - 32));
}

/** Address-format parameters of each UTXO chain. */
const UTXO_NETWORKS: Record<string, { hrp?: string; p2pkh: number; p2sh: number; coinType: number }> = {
  bitcoin_mainnet: { hrp: "bc", p2pkh: 0x00, p2sh: 0x05, coinType: 0 },
  bitcoin_testnet: { hrp: "tb", p2pkh: 0x6f, p2sh: 0xc4, coinType: 1 },
  bitcoin_testnet_v4: { hrp: "tb", p2pkh: 0x6f, p2sh: 0xc4, coinType: 1 },
  dogecoin_mainnet: { p2pkh: 0x1e, p2sh: 0x16, coinType: 3 },
  bitcoin_cash_mainnet: { p2pkh: 0x00, p2sh: 0x05, coinType: 145 },
  pearl_mainnet: { hrp: "prl", p2pkh: 0x38, p2sh: 0x3a, coinType: 1863 },
  pearl_testnet: { hrp: "tprl", p2pkh: 0x6f, p2sh: 0xc4, coinType: 1 },
};

/** The address types a UTXO chain supports; chains without SegWit support only `legacy` (and `p2sh`). */
export function utxoAddressTypes(chain: string): string[] {
  return UTXO_NETWORKS[chain]?.hrp ? ["legacy", "p2sh", "segwit", "taproot"] : ["legacy", "p2sh"];
}

/** The default address type of a chain: `segwit` where SegWit exists, else `legacy`. */
export function defaultUtxoAddressType(chain: string): string {
  return UTXO_NETWORKS[chain]?.hrp ? "segwit" : "legacy";
}

/** A UTXO address of the given type, and its BIP-32 path (`m/84/0/0/0/3`, as the real service shows). */
export function utxoAddress(
  chain: string,
  addressType: string,
  publicKey: Buffer,
  index: number,
): { address: string; derivationPath: string } {
  const net = UTXO_NETWORKS[chain] ?? UTXO_NETWORKS.bitcoin_mainnet!;
  const purpose = { legacy: 44, p2sh: 49, segwit: 84, taproot: 86 }[addressType] ?? 84;
  const derivationPath = `m/${purpose}/${net.coinType}/0/0/${index}`;
  switch (addressType) {
    case "taproot":
      return { address: segwitAddress(net.hrp!, 1, publicKey.subarray(1)), derivationPath };
    case "segwit":
      return { address: segwitAddress(net.hrp!, 0, hash160(publicKey)), derivationPath };
    case "p2sh":
      return {
        address: base58check(Buffer.concat([Buffer.from([net.p2sh]), hash160(publicKey)])),
        derivationPath,
      };
    default:
      return {
        address: base58check(Buffer.concat([Buffer.from([net.p2pkh]), hash160(publicKey)])),
        derivationPath,
      };
  }
}

/** The BIP-44 coin type used in vault derivation paths. */
export const COIN_TYPES: Record<string, number> = {
  evm: 60,
  solana: 501,
  aptos: 637,
  sui: 784,
  starknet: 9004,
  stellar: 148,
  stacks: 5757,
  tron: 195,
  ton: 607,
  cosmos: 118,
  canton: 6767,
  arch: 1,
  utxo: 0,
};
