/**
 * Blockchains and suggested fees (docs/api-notes.md, "Chains"). Lists keep the
 * catalogue's order. Suggested fees are keyed by the chain id the client asked for (inferred; no source
 * confirms the key); chain types without a fee variant (Solana, Tron, Stellar, …) are left out, as in the
 * published schema.
 */
import { createHash } from "node:crypto";
import { invalidField } from "../api-error";
import { CHAINS, type ChainRecord, findChain } from "../seed/chains";
import { matches } from "../state/list-query";
import { listResult } from "./list-result";
import type { Handlers } from "./types";

function feeSeed(chainId: string): number {
  return createHash("sha256").update(chainId).digest().readUInt16BE(0);
}

/** Plausible, stable fee levels for one chain; undefined when its type has no fee variant. */
function suggestedFees(chain: ChainRecord): Record<string, unknown> | undefined {
  const s = feeSeed(chain.unique_id);
  const id = chain.unique_id;
  switch (chain.chain_type) {
    case "evm": {
      const base = BigInt(1 + (s % 40)) * 1_000_000_000n;
      if ((chain as { gas_type?: string }).gas_type === "legacy") {
        return {
          type: "evm",
          chain_unique_id: id,
          fees: {
            type: "legacy",
            low: { price: base.toString() },
            medium: { price: ((base * 12n) / 10n).toString() },
            high: { price: ((base * 15n) / 10n).toString() },
          },
        };
      }
      const level = (tip: bigint) => ({
        max_priority_fee_per_gas: tip.toString(),
        max_fee_per_gas: (base * 2n + tip).toString(),
      });
      return {
        type: "evm",
        chain_unique_id: id,
        fees: {
          type: "dynamic",
          low: level(100_000_000n),
          medium: level(1_500_000_000n),
          high: level(3_000_000_000n),
        },
      };
    }
    case "utxo":
      return {
        type: "utxo",
        chain_unique_id: id,
        low: String(2 + (s % 5)),
        medium: String(8 + (s % 7)),
        high: String(20 + (s % 11)),
      };
    case "aptos":
      return { type: "aptos", chain_unique_id: id, low: "100", medium: "150", high: "300" };
    case "ton":
    case "starknet":
      return { type: chain.chain_type, chain_unique_id: id, gas_price: String(400 + (s % 600)) };
    case "cosmos":
      return { type: "cosmos", chain_unique_id: id, fee_per_signature: 2_500 + (s % 1_000) };
    case "sui":
      return { type: "sui", chain_unique_id: id };
    default:
      return undefined;
  }
}

export const blockchainHandlers: Pick<Handlers, "listBlockchains" | "getSuggestedFees"> = {
  listBlockchains(ctx) {
    const q = ctx.query;
    const chains = CHAINS.filter(
      (c) =>
        (q.show_all === true || c.is_enabled) &&
        (q.include_mainnets !== false || c.is_testnet) &&
        (q.include_testnets !== false || !c.is_testnet) &&
        (q.include_exchanges === true || c.chain_type !== "exchange") &&
        matches(q.chain_types, c.chain_type as never) &&
        matches(q.sources, ((c as { source?: string }).source ?? "default") as never),
    );
    return listResult("chains", chains, q, (c) => c);
  },

  getSuggestedFees(ctx) {
    const q = ctx.query;
    const requested: [string, ChainRecord][] = [];
    if (q.chains) {
      q.chains.forEach((id, i) => {
        const chain = findChain(id);
        if (!chain) throw invalidField(["query", "chains", i], `Unknown chain unique id '${id}'`, "enum");
        requested.push([id, chain]);
      });
    } else {
      for (const chain of CHAINS)
        if (chain.is_enabled && chain.chain_type !== "exchange") requested.push([chain.unique_id, chain]);
    }
    const out: Record<string, unknown> = {};
    for (const [key, chain] of requested) {
      if (!matches(q.chain_types, chain.chain_type as never)) continue;
      const fees = suggestedFees(chain);
      if (fees) out[key] = fees;
    }
    return { status: 200, body: { suggested_fees: out } };
  },
};
