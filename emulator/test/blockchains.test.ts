// Blockchains and suggested fees through raw HTTP, and the chain catalogue (docs/api-notes.md, "Chains").
import assert from "node:assert/strict";
import {
  assertResponseShape,
  assertValidationIssue,
  type Harness,
  type Loose,
  startHarness,
} from "@pulumi-custody/testing";

// The default chain ids the API's documentation lists by name, except ripple and the three testnets the
// published schema lacks (emulator README).
const NUMERIC_EVM = [
  1, 5, 10, 14, 16, 30, 56, 100, 130, 137, 143, 146, 169, 196, 250, 324, 999, 1030, 1100, 1101, 1329, 1337,
  1666, 1672, 1729, 2222, 4200, 4217, 4663, 5000, 7000, 7700, 8453, 8818, 8819, 9745, 16661, 17000, 80001,
  80094, 42161, 43113, 43114, 57073, 59144, 81457, 421614, 534352, 660279, 747474, 810180, 11155111,
];
const NAMED_EVM =
  "ethereum_mainnet ethereum_goerli ethereum_holesky ethereum_sepolia optimism_mainnet flare_mainnet flare_testnet rootstock_mainnet bsc_mainnet gnosis_mainnet unichain_mainnet polygon_mainnet polygon_mumbai polygon_zkevm_mainnet monad_mainnet sonic_mainnet manta_pacific_mainnet x_layer_mainnet fantom_mainnet zksync_era_mainnet hyperevm_mainnet hypercore_mainnet conflux_mainnet dymension_mainnet sei_mainnet aster_mainnet pharos_mainnet reya_mainnet kava_mainnet merlin_mainnet tempo_mainnet mantle_mainnet zeta_mainnet canto_mainnet base_mainnet clink_mainnet clink_testnet plasma_mainnet zero_gravity_mainnet berachain_mainnet arbitrum_mainnet arbitrum_sepolia avalanche_fuji avalanche_chain ink_mainnet linea_mainnet blast_mainnet scroll_mainnet xai_mainnet katana_mainnet zklink_nova_mainnet".split(
    " ",
  );
const OTHER =
  "aptos_mainnet aptos_testnet aptos_movement_mainnet aptos_movement_testnet arch_mainnet arch_testnet canton_mainnet solana_mainnet solana_devnet solana_eclipse_mainnet solana_fogo_mainnet solana_fogo_testnet stacks_mainnet starknet_mainnet stellar_mainnet sui_mainnet sui_testnet ton_mainnet tron_mainnet tron_shasta bitcoin_mainnet bitcoin_testnet bitcoin_testnet_v4 dogecoin_mainnet bitcoin_cash_mainnet pearl_testnet pearl_mainnet".split(
    " ",
  );
const COSMOS =
  "agoric-3 akashnet-2 archway-1 axelar-dojo-1 bbn-1 celestia cosmoshub-4 dydx-mainnet-1 dydx-testnet-4 dymension_1100-1 injective-1 neutron-1 nillion-1 noble-1 osmosis-1 provider ssc-1 pacific-1 stride-1 thorchain-1 mantra-1".split(
    " ",
  );

describe("emulator: blockchains", () => {
  let h: Harness;
  let all: Loose[];
  before(async () => {
    h = await startHarness();
    const chains: Loose[] = [];
    for (let page = 1; ; page++) {
      const res = await h.api("GET", "/api/v1/blockchains", {
        query: { show_all: true, include_exchanges: true, size: 100, page },
      });
      chains.push(...res.body.chains);
      if (chains.length >= res.body.total) break;
    }
    all = chains;
  });
  after(() => h.close());

  it("has a realistic record for every default chain id", () => {
    const byId = new Map(all.map((c) => [c.unique_id, c]));
    const byChainId = new Map(all.filter((c) => c.chain_type === "evm").map((c) => [c.chain_id, c]));
    for (const name of NAMED_EVM) {
      const chain = byId.get(`evm_${name}`);
      assert.ok(chain, `evm_${name}`);
      assert.equal(chain.named_chain_id, name);
      assert.equal(chain.source, "default");
      // A URI, as the published schema types it: the prefix the hash or address is appended to.
      assert.match(chain.blockchain_explorer.transaction_format_url, /^https:\/\/.+\/$/);
      assert.match(chain.blockchain_explorer.address_format_url, /\/$/);
      assert.ok(chain.native_currency_symbol);
    }
    for (const n of NUMERIC_EVM) assert.ok(byChainId.get(n), `evm_${n} has a record with chain_id ${n}`);
    assert.equal(byChainId.get(42161).unique_id, "evm_arbitrum_mainnet");
    assert.equal(byChainId.get(42161).name, "Arbitrum One");
    assert.equal(byChainId.get(1).native_currency_symbol, "ETH");
    assert.equal(byChainId.get(56).native_currency_symbol, "BNB");
    assert.equal(byChainId.get(11155111).is_testnet, true);
    for (const id of OTHER) assert.ok(byId.get(id), id);
    for (const id of COSMOS) {
      const chain = byId.get(`cosmos_${id}`);
      assert.ok(chain, `cosmos_${id}`);
      assert.ok(chain.base_denom && chain.bech32_prefix);
    }
    assert.equal(all.filter((c) => c.chain_type === "exchange").length, 6);
    assertResponseShape("listBlockchains", { total: all.length, page: 1, size: 100, chains: all });
  });

  it("accepts numeric EVM aliases wherever a chain id is taken", async () => {
    const fees = await h.api("GET", "/api/v1/blockchains/suggested-fees", {
      query: { chains: NUMERIC_EVM.map((n) => `evm_${n}`) },
    });
    assert.equal(fees.status, 200);
    assert.equal(Object.keys(fees.body.suggested_fees).length, NUMERIC_EVM.length);
    assert.equal(fees.body.suggested_fees.evm_42161.chain_unique_id, "evm_arbitrum_mainnet");
  });

  it("applies the defaults: mainnets and testnets, enabled only, no exchanges", async () => {
    const res = await h.api("GET", "/api/v1/blockchains", { query: { size: 100 } });
    assertResponseShape("listBlockchains", res.body);
    assert.equal(res.body.size, 100);
    const defaults: Loose[] = [];
    for (let page = 1; defaults.length < res.body.total; page++) {
      defaults.push(
        ...(await h.api("GET", "/api/v1/blockchains", { query: { size: 100, page } })).body.chains,
      );
    }
    assert.ok(defaults.every((c) => c.is_enabled && c.chain_type !== "exchange"));
    assert.ok(defaults.some((c) => c.is_testnet) && defaults.some((c) => !c.is_testnet));
    assert.equal(defaults.length, all.filter((c) => c.is_enabled && c.chain_type !== "exchange").length);
    assert.ok(
      all.some((c) => !c.is_enabled),
      "show_all shows disabled chains",
    );
  });

  it("filters by chain_types, sources, include_mainnets, include_testnets", async () => {
    const utxo = await h.api("GET", "/api/v1/blockchains", { query: { chain_types: ["utxo", "sui"] } });
    assert.ok(utxo.body.chains.every((c: Loose) => ["utxo", "sui"].includes(c.chain_type)));
    assert.equal(utxo.body.total, 9);
    const custom = await h.api("GET", "/api/v1/blockchains", { query: { sources: "custom" } });
    assert.deepEqual(
      custom.body.chains.map((c: Loose) => c.unique_id),
      ["evm_7777777"],
    );
    assert.ok(custom.body.chains[0].rpc_url);
    const testnets = await h.api("GET", "/api/v1/blockchains", {
      query: { include_mainnets: false, size: 100 },
    });
    assert.ok(testnets.body.chains.every((c: Loose) => c.is_testnet));
    const mainnets = await h.api("GET", "/api/v1/blockchains", {
      query: { include_testnets: "false", size: 100 },
    });
    assert.ok(mainnets.body.chains.every((c: Loose) => !c.is_testnet));
    const exchanges = await h.api("GET", "/api/v1/blockchains", {
      query: { include_exchanges: true, chain_types: "exchange" },
    });
    assert.equal(exchanges.body.total, 6);
    assertValidationIssue(
      await h.api("GET", "/api/v1/blockchains", { query: { chain_types: "ripple" } }),
      ["query", "chain_types", 0],
      "enum",
    );
    assertValidationIssue(await h.api("GET", "/api/v1/blockchains", { query: { show_all: "yes" } }), [
      "query",
      "show_all",
    ]);
  });

  it("suggests fees per chain type, keyed by the asked id, and 422 for an unknown chain", async () => {
    const res = await h.api("GET", "/api/v1/blockchains/suggested-fees", {
      query: {
        chains: [
          "evm_ethereum_mainnet",
          "evm_arbitrum_mainnet",
          "bitcoin_mainnet",
          "aptos_mainnet",
          "ton_mainnet",
          "starknet_mainnet",
          "cosmos_cosmoshub-4",
          "sui_mainnet",
          "solana_mainnet",
        ],
      },
    });
    assert.equal(res.status, 200);
    assertResponseShape("getSuggestedFees", res.body);
    const f = res.body.suggested_fees;
    assert.equal(f.evm_ethereum_mainnet.fees.type, "dynamic");
    assert.match(f.evm_ethereum_mainnet.fees.medium.max_fee_per_gas, /^\d+$/);
    assert.equal(f.evm_arbitrum_mainnet.fees.type, "legacy");
    assert.match(f.bitcoin_mainnet.medium, /^\d+$/);
    assert.equal(f.aptos_mainnet.type, "aptos");
    assert.match(f.ton_mainnet.gas_price, /^\d+$/);
    assert.equal(typeof f["cosmos_cosmoshub-4"].fee_per_signature, "number");
    assert.deepEqual(f.sui_mainnet, { type: "sui", chain_unique_id: "sui_mainnet" });
    assert.equal(f.solana_mainnet, undefined, "Solana has no fee variant");
    const byType = await h.api("GET", "/api/v1/blockchains/suggested-fees", {
      query: { chain_types: "utxo" },
    });
    assert.ok(Object.values(byType.body.suggested_fees).every((x: Loose) => x.type === "utxo"));
    assert.ok(Object.keys(byType.body.suggested_fees).includes("bitcoin_mainnet"));
    const again = await h.api("GET", "/api/v1/blockchains/suggested-fees", {
      query: { chains: "bitcoin_mainnet" },
    });
    assert.deepEqual(again.body.suggested_fees.bitcoin_mainnet, f.bitcoin_mainnet, "stable values");
    assertValidationIssue(
      await h.api("GET", "/api/v1/blockchains/suggested-fees", {
        query: { chains: ["bitcoin_mainnet", "evm_nope"] },
      }),
      ["query", "chains", 1],
    );
  });
});
