// Owned assets of a vault through raw HTTP.
import assert from "node:assert/strict";
import {
  assertError,
  assertResponseShape,
  assertValidationIssue,
  type Harness,
  type Loose,
  startHarness,
} from "@pulumi-custody/testing";

const MISSING = "00000000-0000-4000-8000-000000000000";

describe("emulator: vault assets", () => {
  let h: Harness;
  let treasury: { id: string };
  before(async () => {
    h = await startHarness();
    treasury = (await h.api("GET", "/api/v1/vaults", { query: { names: "Treasury ETH" } })).body.vaults[0];
  });
  after(() => h.close());

  const list = (query: Record<string, string | number | boolean | string[]> = {}) =>
    h.api("GET", `/api/v1/vaults/${treasury.id}/assets`, { query });

  it("lists owned assets with six-field balances and prices", async () => {
    const res = await list();
    assert.equal(res.status, 200);
    assertResponseShape("listVaultAssets", res.body);
    assert.equal(res.body.total, 9);
    for (const owned of res.body.owned_assets) {
      for (const f of [
        "total_mined",
        "total_pending_incoming",
        "available_mined",
        "available_pending_incoming",
        "frozen_mined",
        "frozen_pending_incoming",
      ]) {
        assert.match(owned.balances[f], /^\d+$/, f);
      }
      assert.equal(owned.balance, owned.balances.total_mined);
      const b = owned.balances;
      assert.equal(BigInt(b.available_mined) + BigInt(b.frozen_mined), BigInt(b.total_mined));
    }
    const eth = res.body.owned_assets[0];
    assert.equal(eth.priced_asset.asset_info.symbol, "ETH");
    assert.equal(eth.balances.total_mined, "12500000000000000000");
    assert.equal(eth.priced_asset.price.fiat_currency.currency_symbol, "usd");
  });

  it("filters by chains (numeric EVM aliases too), asset_ids, is_hidden and search", async () => {
    const arb = await list({ chains: "evm_arbitrum_mainnet" });
    assert.equal(arb.body.total, 2);
    const alias = await list({ chains: "evm_42161" });
    assert.equal(alias.body.total, 2);
    const two = await list({ chains: ["evm_arbitrum_mainnet", "evm_base_mainnet"] });
    assert.equal(two.body.total, 4);
    const hidden = await list({ is_hidden: true });
    assert.deepEqual(
      hidden.body.owned_assets.map((o: Loose) => o.priced_asset.asset_info.symbol),
      ["CLAIM"],
    );
    assert.equal((await list({ is_hidden: false })).body.total, 8);
    const usd = await list({ search: "usd" });
    assert.ok(
      usd.body.owned_assets.every((o: Loose) =>
        /usd/i.test(o.priced_asset.asset_info.name + o.priced_asset.asset_info.symbol),
      ),
    );
    assert.equal(usd.body.total, 4);
    const id = arb.body.owned_assets[0].priced_asset.asset_info.id;
    assert.equal((await list({ asset_ids: id })).body.total, 1);
    assertValidationIssue(await list({ is_hidden: "maybe" } as never), ["query", "is_hidden"]);
  });

  it("sorts by every OwnedAssetsSortableFields value", async () => {
    const name = (await list({ sort_by: "asset_name_asc" })).body.owned_assets.map((o: Loose) =>
      o.priced_asset.asset_info.name.toLowerCase(),
    );
    assert.deepEqual(name, [...name].sort());
    const balance = (await list({ sort_by: "balance_desc" })).body.owned_assets.map((o: Loose) =>
      BigInt(o.balances.total_mined),
    );
    for (let i = 1; i < balance.length; i++) assert.ok(balance[i - 1] >= balance[i]);
    const chain = (await list({ sort_by: "chain_identifier_asc" })).body.owned_assets.map(
      (o: Loose) => o.priced_asset.asset_info.asset_identifier.chain.unique_id,
    );
    assert.deepEqual(chain, [...chain].sort());
    const value = (await list({ sort_by: "market_value_desc" })).body.owned_assets;
    assert.equal(
      value[0].priced_asset.asset_info.symbol,
      "CLAIM",
      "no price sorts first descending (largest)",
    );
    assert.equal(value[1].priced_asset.asset_info.symbol, "USDC");
    const price = (await list({ sort_by: "price_asc" })).body.owned_assets.map(
      (o: Loose) => o.priced_asset.price?.price_float,
    );
    assert.equal(price.at(-1), undefined);
    const numeric = price.slice(0, -1).map(Number);
    assert.deepEqual(
      numeric,
      [...numeric].sort((a: number, b: number) => a - b),
    );
  });

  it("gets one owned asset; 404 asset for one the vault does not hold, 404 vault for an unknown vault", async () => {
    const first = (await list()).body.owned_assets[0];
    const id = first.priced_asset.asset_info.id;
    const one = await h.api("GET", `/api/v1/vaults/${treasury.id}/assets/${id}`, {
      query: { page: 1, size: 10 },
    });
    assert.equal(one.status, 200);
    assertResponseShape("getVaultAsset", one.body);
    assert.deepEqual(one.body, first);
    assertError(await h.api("GET", `/api/v1/vaults/${treasury.id}/assets/${MISSING}`), 404, {
      resource: "asset",
    });
    assertError(await h.api("GET", `/api/v1/vaults/${MISSING}/assets/${id}`), 404, { resource: "vault" });
    assertError(await h.api("GET", `/api/v1/vaults/${MISSING}/assets`), 404, { resource: "vault" });
  });
});
