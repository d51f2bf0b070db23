// Every asset the emulator can hand out, against the custody service's published OpenAPI 0.2.0 document
// (testing/fixtures/vendor-openapi): each catalogue entry (the native asset of every chain and every token) as
// an `AssetInfo`, every owned asset of every seeded vault through the API, and every other seeded record
// (vaults of every type, addresses, users, groups, chains) through every read endpoint.
import * as assert from "node:assert/strict";
import {
  checkBody,
  documentRef,
  type Harness,
  type Loose,
  responseSchemaRef,
  startHarness,
} from "@pulumi-custody/testing";
import { ASSETS } from "../seed/assets";

/** `at: message` of the first few problems, or "" when the body conforms. */
function problemsOf(ref: string, body: unknown): string {
  return checkBody(ref, body)
    .slice(0, 5)
    .map((p) => `${p.at}: ${p.message}`)
    .join("; ");
}

describe("emulator: seeded data against the published OpenAPI 0.2.0 document", function () {
  this.timeout(60_000);

  it("every catalogue asset is an AssetInfo the document allows", () => {
    const ref = documentRef("#/components/schemas/AssetInfo");
    const failures = ASSETS.map((asset) => {
      const problems = problemsOf(ref, asset.info);
      const details = asset.info.asset_identifier.details as { type?: string } | undefined;
      return problems && `${asset.chainUniqueId} ${details?.type ?? "?"} ${asset.info.symbol}: ${problems}`;
    }).filter(Boolean);
    assert.deepEqual(failures, []);
    // Every chain family with a native asset, and every kind of token, was checked.
    const families = new Set(ASSETS.map((a) => a.chainType));
    for (const family of ["evm", "utxo", "solana", "tron", "cosmos", "aptos", "sui", "ton", "stellar"])
      assert.ok(families.has(family), family);
    const tokenTypes = new Set(
      ASSETS.map((a) => (a.info.asset_identifier.details as { type?: string } | undefined)?.type),
    );
    for (const type of ["native", "erc20", "spl_token", "trc20"]) assert.ok(tokenTypes.has(type), type);
  });

  describe("through the API", () => {
    let h: Harness;
    before(async () => {
      h = await startHarness();
    });
    after(async () => h.close());

    it("every owned asset of every seeded vault, listed and read one by one, conforms", async () => {
      const vaults = (await h.api("GET", "/api/v1/vaults", { query: { size: 100 } })).body.vaults as Loose[];
      const listRef = responseSchemaRef("/api/v1/vaults/{id}/assets", "GET", 200)!;
      const oneRef = responseSchemaRef("/api/v1/vaults/{id}/assets/{asset_id}", "GET", 200)!;
      const failures: string[] = [];
      const typesWithAssets = new Set<string>();
      let checked = 0;
      for (const vault of vaults) {
        const list = await h.api("GET", `/api/v1/vaults/${vault.id}/assets`, { query: { size: 100 } });
        assert.equal(list.status, 200, list.text);
        const listProblems = problemsOf(listRef, list.body);
        if (listProblems) failures.push(`${vault.name} (${vault.type}) list: ${listProblems}`);
        for (const owned of list.body.owned_assets as Loose[]) {
          typesWithAssets.add(vault.type);
          const assetId = owned.priced_asset.asset_info.id;
          const one = await h.api("GET", `/api/v1/vaults/${vault.id}/assets/${assetId}`);
          assert.equal(one.status, 200, one.text);
          const oneProblems = problemsOf(oneRef, one.body);
          if (oneProblems)
            failures.push(
              `${vault.name} (${vault.type}) ${owned.priced_asset.asset_info.symbol}: ${oneProblems}`,
            );
          checked += 1;
        }
      }
      assert.deepEqual(failures, []);
      assert.ok(checked > 10, `only ${checked} owned assets`);
      for (const type of ["evm", "utxo", "solana", "tron", "cosmos"])
        assert.ok(typesWithAssets.has(type), `no seeded ${type} vault holds an asset`);
    });

    it("every other seeded record, read through every read endpoint, conforms", async () => {
      const failures: string[] = [];
      const read = async (template: string, path: string, query: Record<string, string | number> = {}) => {
        const res = await h.api("GET", path, { query });
        assert.equal(res.status, 200, `${path}: ${res.text}`);
        const problems = problemsOf(responseSchemaRef(template, "GET", 200)!, res.body);
        if (problems) failures.push(`${path}: ${problems}`);
        return res.body as Loose;
      };
      const listed = await read("/api/v1/vaults", "/api/v1/vaults", { size: 100 });
      const vaults = listed.vaults as Loose[];
      assert.equal(vaults.length, listed.total, "every seeded vault on one page");
      const types = new Set<string>();
      for (const vault of vaults) {
        types.add(vault.type);
        await read("/api/v1/vaults/{id}", `/api/v1/vaults/${vault.id}`);
        if (vault.type === "utxo")
          await read("/api/v1/vaults/{id}/addresses", `/api/v1/vaults/${vault.id}/addresses`, { size: 100 });
      }
      const users = (await read("/api/v1/users", "/api/v1/users", { size: 400, include_deleted: "true" }))
        .users as Loose[];
      for (const user of users) await read("/api/v1/users/{id}", `/api/v1/users/${user.id}`);
      const groups = (await read("/api/v1/user-groups", "/api/v1/user-groups", { size: 100 }))
        .user_groups as Loose[];
      for (const group of groups) await read("/api/v1/user-groups/{id}", `/api/v1/user-groups/${group.id}`);
      await read("/api/v1/blockchains", "/api/v1/blockchains", { size: 100, show_all: "true" });
      await read("/api/v1/blockchains", "/api/v1/blockchains", { size: 100, include_exchanges: "true" });
      await read("/api/v1/blockchains/suggested-fees", "/api/v1/blockchains/suggested-fees");
      assert.deepEqual(failures, []);
      // Every vault type the document names is among the seeded vaults.
      for (const type of [
        "aptos",
        "arch",
        "black_box",
        "canton",
        "cosmos",
        "evm",
        "safe",
        "solana",
        "stacks",
      ])
        assert.ok(types.has(type), type);
      for (const type of ["starknet", "stellar", "sui", "ton", "tron", "utxo", "exchange"])
        assert.ok(types.has(type), type);
    });
  });
});
