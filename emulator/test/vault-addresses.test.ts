// UTXO vault addresses through raw HTTP: create, list (filters, sort, paging), rename.
import assert from "node:assert/strict";
import {
  assertError,
  assertResponseShape,
  assertValidationIssue,
  type Harness,
  startHarness,
  uniqueName,
} from "@pulumi-custody/testing";

const MISSING = "00000000-0000-4000-8000-000000000000";

describe("emulator: vault addresses", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  async function utxoVault(chain = "bitcoin_mainnet") {
    const res = await h.api("POST", "/api/v1/vaults", {
      json: { name: uniqueName("btc"), type: "utxo", chain },
    });
    assert.equal(res.status, 201);
    return res.body;
  }

  it("creates addresses named from default_next_address_name, counting up", async () => {
    const vault = await utxoVault();
    const first = await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, { json: {} });
    assert.equal(first.status, 201);
    assertResponseShape("createVaultAddress", first.body);
    assert.equal(first.body.name, "Address 2");
    assert.equal(first.body.address.address_type, "segwit");
    assert.match(first.body.address.address, /^bc1q[02-9ac-hj-np-z]{38}$/);
    assert.equal(first.body.address.chain.unique_id, "bitcoin_mainnet");
    assert.match(first.body.derivation_path, /^m\/84\/0\/0\/0\/\d+$/);
    assert.equal(first.body.vault.id, vault.id);
    assert.equal(
      (await h.api("GET", `/api/v1/vaults/${vault.id}`)).body.default_next_address_name,
      "Address 3",
    );
    const named = await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, {
      json: { name: "Address 3" },
    });
    assert.equal(named.body.name, "Address 3");
    const next = await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, { json: {} });
    assert.equal(next.body.name, "Address 4", "a taken default name is skipped");
    const addresses = new Set([first, named, next].map((r) => r.body.address.address));
    assert.equal(addresses.size, 3);
  });

  it("creates taproot and legacy addresses and imports a derivation path", async () => {
    const vault = await utxoVault();
    const taproot = await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, {
      json: { address_type: "taproot" },
    });
    assert.match(taproot.body.address.address, /^bc1p[02-9ac-hj-np-z]{58}$/);
    const legacy = await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, {
      json: { address_type: "legacy" },
    });
    assert.match(legacy.body.address.address, /^1[1-9A-HJ-NP-Za-km-z]{25,34}$/);
    const imported = await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, {
      json: { name: "Imported", import_address: { derivation_path: "m/84/0/0/0/99" } },
    });
    assert.equal(imported.body.derivation_path, "m/84/0/0/0/99");
  });

  it("answers 409 for a duplicate name in the same vault, allows it in another vault", async () => {
    const a = await utxoVault();
    const b = await utxoVault();
    await h.api("POST", `/api/v1/vaults/${a.id}/addresses`, { json: { name: "Payouts" } });
    const dup = await h.api("POST", `/api/v1/vaults/${a.id}/addresses`, { json: { name: "Payouts" } });
    assertError(dup, 409, { title: "Already exists", resource: "vault_address" });
    assert.match(dup.body.detail, /Payouts/);
    assert.equal(
      (await h.api("POST", `/api/v1/vaults/${b.id}/addresses`, { json: { name: "Payouts" } })).status,
      201,
    );
    const defaultName = await h.api("POST", `/api/v1/vaults/${a.id}/addresses`, {
      json: { name: "Address 1" },
    });
    assertError(defaultName, 409);
  });

  it("answers 400 invalid_vault_type with the real body on a non-UTXO vault", async () => {
    const evm = await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "aptos" } });
    const res = await h.api("POST", `/api/v1/vaults/${evm.body.id}/addresses`, { json: {} });
    assertError(res, 400, {
      title: "Invalid vault type",
      detail: "Invalid vault type for vault creation.",
      error_type: "invalid_vault_type",
    });
    assertError(await h.api("GET", `/api/v1/vaults/${evm.body.id}/addresses`), 400, {
      error_type: "invalid_vault_type",
    });
  });

  it("answers 404 for an unknown vault, 422 for p2sh and a missing body, 400 for SegWit on Dogecoin", async () => {
    assertError(await h.api("POST", `/api/v1/vaults/${MISSING}/addresses`, { json: {} }), 404, {
      resource: "vault",
    });
    assertError(await h.api("GET", `/api/v1/vaults/${MISSING}/addresses`), 404, { resource: "vault" });
    const vault = await utxoVault();
    assertValidationIssue(
      await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, { json: { address_type: "p2sh" } }),
      ["body", "address_type"],
    );
    assertValidationIssue(await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`), ["body"], "missing");
    assertValidationIssue(
      await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, { json: { name: "" } }),
      ["body", "name"],
    );
    const doge = await utxoVault("dogecoin_mainnet");
    assertError(
      await h.api("POST", `/api/v1/vaults/${doge.id}/addresses`, { json: { address_type: "segwit" } }),
      400,
    );
  });

  it("refuses new addresses on an archived vault with 400", async () => {
    const vault = await utxoVault();
    await h.api("POST", `/api/v1/vaults/${vault.id}/archive`);
    assertError(await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, { json: {} }), 400, {
      title: "Vault is archived",
    });
  });

  it("lists with search, addresses, address_types, sort and paging", async () => {
    const seeded = await h.api("GET", "/api/v1/vaults", { query: { names: "BTC Cold Storage" } });
    const id = seeded.body.vaults[0].id;
    const all = await h.api("GET", `/api/v1/vaults/${id}/addresses`);
    assertResponseShape("listVaultAddresses", all.body);
    assert.deepEqual(
      all.body.addresses.map((a: { name: string }) => a.name),
      ["Address 1", "Deposits", "Taproot Savings", "Legacy Payouts"],
    );
    const search = await h.api("GET", `/api/v1/vaults/${id}/addresses`, { query: { search: "savings" } });
    assert.deepEqual(
      search.body.addresses.map((a: { name: string }) => a.name),
      ["Taproot Savings"],
    );
    const bySubstring = await h.api("GET", `/api/v1/vaults/${id}/addresses`, {
      query: { search: all.body.addresses[1].address.address.slice(4, 14) },
    });
    assert.equal(bySubstring.body.addresses[0].name, "Deposits");
    const types = await h.api("GET", `/api/v1/vaults/${id}/addresses`, {
      query: { address_types: ["taproot", "legacy"] },
    });
    assert.deepEqual(
      types.body.addresses.map((a: { name: string }) => a.name),
      ["Taproot Savings", "Legacy Payouts"],
    );
    const exact = await h.api("GET", `/api/v1/vaults/${id}/addresses`, {
      query: { addresses: all.body.addresses[0].address.address },
    });
    assert.equal(exact.body.total, 1);
    const byName = await h.api("GET", `/api/v1/vaults/${id}/addresses`, { query: { sort_by: "name_desc" } });
    assert.deepEqual(
      byName.body.addresses.map((a: { name: string }) => a.name),
      ["Taproot Savings", "Legacy Payouts", "Deposits", "Address 1"],
    );
    const newest = await h.api("GET", `/api/v1/vaults/${id}/addresses`, {
      query: { sort_by: "created_at_desc", size: 1 },
    });
    assert.equal(newest.body.addresses[0].name, "Legacy Payouts");
    assert.equal(newest.body.total, 4);
    const page = await h.api("GET", `/api/v1/vaults/${id}/addresses`, { query: { size: 2, page: 2 } });
    assert.deepEqual(
      page.body.addresses.map((a: { name: string }) => a.name),
      ["Taproot Savings", "Legacy Payouts"],
    );
    assertValidationIssue(
      await h.api("GET", `/api/v1/vaults/${id}/addresses`, { query: { address_types: "p3" } }),
      ["query", "address_types", 0],
    );
  });

  it("renames: 204, same name 204, 409 for a name taken in the vault, 404 unknown address", async () => {
    const vault = await utxoVault();
    const a = (await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, { json: { name: "A" } })).body;
    await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, { json: { name: "B" } });
    assert.equal(
      (await h.api("PUT", `/api/v1/vaults/addresses/${a.id}/name`, { json: { name: "C" } })).status,
      204,
    );
    assert.equal(
      (await h.api("PUT", `/api/v1/vaults/addresses/${a.id}/name`, { json: { name: "C" } })).status,
      204,
    );
    assertError(await h.api("PUT", `/api/v1/vaults/addresses/${a.id}/name`, { json: { name: "B" } }), 409, {
      resource: "vault_address",
    });
    assertError(
      await h.api("PUT", `/api/v1/vaults/addresses/${MISSING}/name`, { json: { name: "x" } }),
      404,
      {
        resource: "vault_address",
      },
    );
    const names = (await h.api("GET", `/api/v1/vaults/${vault.id}/addresses`)).body.addresses.map(
      (x: { name: string }) => x.name,
    );
    assert.deepEqual(names, ["Address 1", "C", "B"]);
    assert.equal(
      (await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, { json: { name: "A" } })).status,
      201,
    );
  });

  it("keeps creation order for addresses created in the same instant, renamed or not", async () => {
    await h.emulator.control.setClock({ frozen: true });
    try {
      const vault = await utxoVault();
      const ids: string[] = [];
      for (const name of ["X", "Y", "Z"]) {
        ids.push((await h.api("POST", `/api/v1/vaults/${vault.id}/addresses`, { json: { name } })).body.id);
      }
      await h.api("PUT", `/api/v1/vaults/addresses/${ids[0]}/name`, { json: { name: "W" } });
      const list = await h.api("GET", `/api/v1/vaults/${vault.id}/addresses`);
      assert.deepEqual(
        list.body.addresses.map((a: { name: string }) => a.name),
        ["Address 1", "W", "Y", "Z"],
      );
      assert.equal(new Set(list.body.addresses.map((a: { created_at: string }) => a.created_at)).size, 1);
    } finally {
      await h.emulator.control.setClock({ frozen: false });
    }
  });
});
