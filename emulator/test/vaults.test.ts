// Vault endpoints through raw HTTP: list (filters, sorting, paging), create per type, rename, archive,
// restore, change proposals and the balance export.
import assert from "node:assert/strict";
import { CREATABLE_VAULT_TYPES } from "@pulumi-custody/sdk/schema";
import {
  assertError,
  assertResponseShape,
  assertValidationIssue,
  type Harness,
  type Loose,
  startHarness,
  uniqueName,
} from "@pulumi-custody/testing";
import { request } from "undici";

const MISSING = "00000000-0000-4000-8000-000000000000";

describe("emulator: vaults", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  async function vaultNamed(name: string) {
    const res = await h.api("GET", "/api/v1/vaults", { query: { names: name } });
    assert.equal(res.body.total, 1, `vault ${name}`);
    return res.body.vaults[0];
  }
  async function create(body: Record<string, unknown>) {
    const res = await h.api("POST", "/api/v1/vaults", { json: body });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  describe("GET /vaults", () => {
    it("lists the seeded vaults in the list envelope, created_at ascending, every item a valid Vault", async () => {
      const res = await h.api("GET", "/api/v1/vaults", { query: { size: 100 } });
      assert.equal(res.status, 200);
      assertResponseShape("listVaults", res.body);
      assert.equal(res.body.page, 1);
      assert.equal(res.body.size, 100);
      assert.ok(res.body.total >= 20);
      const created = res.body.vaults.map((v: { created_at: string }) => v.created_at);
      assert.deepEqual(created, [...created].sort());
      const types = new Set(res.body.vaults.map((v: { type: string }) => v.type));
      for (const t of [
        "evm",
        "solana",
        "utxo",
        "cosmos",
        "tron",
        "aptos",
        "sui",
        "ton",
        "stellar",
        "starknet",
        "stacks",
        "canton",
        "arch",
        "black_box",
        "safe",
        "exchange",
      ]) {
        assert.ok(types.has(t), `seeded type ${t}`);
      }
    });

    it("pages with page and size, and skip_count reports the count seen so far", async () => {
      const all = (await h.api("GET", "/api/v1/vaults", { query: { size: 100 } })).body;
      const p2 = (await h.api("GET", "/api/v1/vaults", { query: { size: 5, page: 2 } })).body;
      assert.deepEqual(
        p2.vaults.map((v: { id: string }) => v.id),
        all.vaults.slice(5, 10).map((v: { id: string }) => v.id),
      );
      assert.equal(p2.total, all.total);
      const skip = (await h.api("GET", "/api/v1/vaults", { query: { size: 5, page: 2, skip_count: true } }))
        .body;
      assert.equal(skip.total, 10);
      const zero = (await h.api("GET", "/api/v1/vaults", { query: { size: 0 } })).body;
      assert.equal(zero.vaults.length, 0);
      assert.equal(zero.total, all.total);
      const beyond = (await h.api("GET", "/api/v1/vaults", { query: { page: 1000 } })).body;
      assert.deepEqual(beyond.vaults, []);
      assertValidationIssue(await h.api("GET", "/api/v1/vaults", { query: { size: -1 } }), ["query", "size"]);
      assertValidationIssue(await h.api("GET", "/api/v1/vaults", { query: { page: "x" } }), [
        "query",
        "page",
      ]);
      assert.equal((await h.api("GET", "/api/v1/vaults", { query: { size: 100 } })).status, 200);
    });

    it("filters by ids, names, types, states, origin, account addresses and exclusions (repeated params)", async () => {
      const treasury = await vaultNamed("Treasury ETH");
      const sol = await vaultNamed("Solana Operations");
      const ids = await h.api("GET", "/api/v1/vaults", { query: { vault_ids: [treasury.id, sol.id] } });
      assert.deepEqual(ids.body.vaults.map((v: { id: string }) => v.id).sort(), [treasury.id, sol.id].sort());
      const names = await h.api("GET", "/api/v1/vaults", {
        query: { names: ["Treasury ETH", "Solana Operations", "nope"] },
      });
      assert.equal(names.body.total, 2);
      const types = await h.api("GET", "/api/v1/vaults", { query: { vault_types: ["utxo"], size: 100 } });
      assert.ok(types.body.total >= 3);
      assert.ok(types.body.vaults.every((v: { type: string }) => v.type === "utxo"));
      const archived = await h.api("GET", "/api/v1/vaults", { query: { vault_states: "archived" } });
      assert.ok(archived.body.vaults.some((v: { name: string }) => v.name === "Old Payroll"));
      assert.ok(archived.body.vaults.every((v: { state: string }) => v.state === "archived"));
      const imported = await h.api("GET", "/api/v1/vaults", { query: { origin_type: "imported" } });
      assert.deepEqual(
        imported.body.vaults.map((v: { name: string }) => v.name),
        ["Imported Legacy EVM"],
      );
      const byAddress = await h.api("GET", "/api/v1/vaults", { query: { account_addresses: sol.address } });
      assert.deepEqual(
        byAddress.body.vaults.map((v: { id: string }) => v.id),
        [sol.id],
      );
      const excluded = await h.api("GET", "/api/v1/vaults", {
        query: { exclude_vault_ids: treasury.id, size: 100 },
      });
      assert.ok(!excluded.body.vaults.some((v: { id: string }) => v.id === treasury.id));
      const everything = await h.api("GET", "/api/v1/vaults", { query: { size: 0 } });
      assert.equal(excluded.body.total, everything.body.total - 1);
      const endUser = await vaultNamed("Customer Wallet 0001");
      const byHolder = await h.api("GET", "/api/v1/vaults", {
        query: { key_holder_ids: endUser.key_holder.id },
      });
      assert.deepEqual(
        byHolder.body.vaults.map((v: { id: string }) => v.id),
        [endUser.id],
      );
      assertValidationIssue(
        await h.api("GET", "/api/v1/vaults", { query: { vault_types: "nope" } }),
        ["query", "vault_types", 0],
        "enum",
      );
    });

    it("filters by vault groups (current and pending) and excludes groups", async () => {
      const treasury = await vaultNamed("Treasury ETH");
      const groupId = treasury.vault_groups[0].id;
      const inGroup = await h.api("GET", "/api/v1/vaults", {
        query: { vault_group_ids: groupId, size: 100 },
      });
      assert.ok(
        inGroup.body.vaults.every((v: { vault_groups: { id: string }[] }) =>
          v.vault_groups.some((g) => g.id === groupId),
        ),
      );
      const outGroup = await h.api("GET", "/api/v1/vaults", {
        query: { exclude_vault_group_ids: groupId, size: 100 },
      });
      const all = await h.api("GET", "/api/v1/vaults", { query: { size: 100 } });
      assert.equal(inGroup.body.total + outGroup.body.total, all.body.total);
    });

    it("fills native_assets with positive native balances of the asked chains", async () => {
      const res = await h.api("GET", "/api/v1/vaults", {
        query: {
          names: ["Treasury ETH", "Old Payroll"],
          positive_native_balance_chain_ids: "evm_ethereum_mainnet",
        },
      });
      const byName = Object.fromEntries(res.body.vaults.map((v: { name: string }) => [v.name, v]));
      const natives = byName["Treasury ETH"].native_assets;
      assert.equal(natives.length, 1);
      assert.equal(natives[0].priced_asset.asset_info.symbol, "ETH");
      assert.ok(BigInt(natives[0].balances.total_mined) > 0n);
      assert.deepEqual(byName["Old Payroll"].native_assets, []);
      const plain = await h.api("GET", "/api/v1/vaults", { query: { names: "Treasury ETH" } });
      assert.equal(plain.body.vaults[0].native_assets, undefined);
    });

    it("sorts by every sort_by value, ascending and descending, with several keys", async () => {
      const keys: Record<string, (v: Loose) => string | number> = {
        created_at: (v) => v.created_at,
        name: (v) => v.name.toLowerCase(),
        vault_type: (v) => v.type,
      };
      for (const [field, key] of Object.entries(keys)) {
        for (const dir of ["asc", "desc"]) {
          const res = await h.api("GET", "/api/v1/vaults", {
            query: { sort_by: `${field}_${dir}`, size: 100 },
          });
          assert.equal(res.status, 200);
          const values = res.body.vaults.map(key);
          const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          assert.deepEqual(values, dir === "asc" ? sorted : sorted.reverse(), `${field}_${dir}`);
        }
      }
      const fav = await h.api("GET", "/api/v1/vaults", { query: { sort_by: "is_favorite_desc", size: 100 } });
      assert.equal(fav.body.vaults[0].name, "Treasury ETH");
      const favAsc = await h.api("GET", "/api/v1/vaults", {
        query: { sort_by: "is_favorite_asc", size: 100 },
      });
      assert.equal(favAsc.body.vaults.at(-1).name, "Treasury ETH");
      const multi = await h.api("GET", "/api/v1/vaults", {
        query: { sort_by: ["vault_type_asc", "name_desc"], size: 100 },
      });
      const pairs = multi.body.vaults.map((v: { type: string; name: string }) => [
        v.type,
        v.name.toLowerCase(),
      ]);
      for (let i = 1; i < pairs.length; i++) {
        const [t0, n0] = pairs[i - 1];
        const [t1, n1] = pairs[i];
        assert.ok(t0 < t1 || (t0 === t1 && n0 >= n1), `order at ${i}: ${pairs[i - 1]} / ${pairs[i]}`);
      }
    });
  });

  describe("POST /vaults", () => {
    const bodies: Record<string, Record<string, unknown>> = {
      utxo: { chain: "bitcoin_mainnet" },
      black_box: { key_type: "eddsa_ed25519" },
      safe: { address: "0x1234567890abcdef1234567890abcdef12345678" },
    };
    const formats: Record<string, (v: Loose) => void> = {
      evm: (v) => assert.match(v.address, /^0x[0-9a-f]{40}$/),
      solana: (v) => assert.match(v.address, /^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
      aptos: (v) => assert.match(v.address, /^0x[0-9a-f]{64}$/),
      sui: (v) => assert.match(v.address, /^0x[0-9a-f]{64}$/),
      starknet: (v) => assert.match(v.address, /^0x[0-9a-f]{64}$/),
      stellar: (v) => assert.match(v.address, /^[GCL][A-Z2-7]{55}$/),
      stacks: (v) => assert.match(v.address, /^SP[0-9A-Z]+$/),
      tron: (v) => assert.match(v.address, /^T[1-9A-HJ-NP-Za-km-z]{33}$/),
      ton: (v) => {
        assert.match(v.raw_account, /^0:[0-9a-f]{64}$/);
        assert.equal(v.base64_url_bounceable_account.length, 48);
        assert.equal(v.base64_url_non_bounceable_account.length, 48);
      },
      cosmos: (v) => {
        assert.match(v.main_address, /^[0-9a-f]{40}$/);
        assert.ok(
          v.chains_addresses.some((c: { address: string }) =>
            /^cosmos1[02-9ac-hj-np-z]{38}$/.test(c.address),
          ),
        );
      },
      canton: (v) => assert.ok(v.address.length >= 70 && v.address.length <= 251),
      arch: (v) => assert.match(v.arch_address, /^[1-9A-HJ-NP-Za-km-z]+$/),
      utxo: (v) => {
        assert.match(v.default_address.address.address, /^bc1q[02-9ac-hj-np-z]{38}$/);
        assert.equal(v.default_address.name, "Address 1");
        assert.equal(v.default_next_address_name, "Address 2");
        assert.equal(v.chain.unique_id, "bitcoin_mainnet");
      },
      black_box: (v) => assert.deepEqual(v.details, { type: "eddsa_ed25519" }),
      safe: (v) => assert.equal(v.address, "0x1234567890abcdef1234567890abcdef12345678"),
    };

    for (const type of CREATABLE_VAULT_TYPES) {
      it(`creates a ${type} vault with realistic fields`, async () => {
        const name = uniqueName(type);
        const vault = await create({ name, type, ...(bodies[type] ?? {}) });
        assertResponseShape("createVault", vault);
        assert.equal(vault.name, name);
        assert.equal(vault.type, type);
        assert.equal(vault.state, "active");
        assert.equal(vault.created_by.user_type, "api_user");
        assert.equal(vault.created_by.name, "Emulator API User");
        assert.deepEqual(
          vault.vault_groups.map((g: { name: string }) => g.name),
          ["Default"],
        );
        if (type !== "safe") {
          assert.equal(vault.origin_type, "native");
          assert.match(vault.derivation_info.derivation_path, /^(m\/44\/\d+\/\d+\/\d+\/\d+|m)$/);
          assert.match(vault.derivation_info.master_public_key.xpub, /^xpub/);
          const key = Buffer.from(vault.public_key_compressed, "base64");
          assert.ok(key.length === 32 || key.length === 33);
        }
        formats[type]?.(vault);
        const got = await h.api("GET", `/api/v1/vaults/${vault.id}`);
        assert.deepEqual(got.body, vault);
      });
    }

    it("derives addresses deterministically from the vault id (same address on every read)", async () => {
      const vault = await create({ name: uniqueName(), type: "evm" });
      const again = await h.api("GET", `/api/v1/vaults/${vault.id}`);
      assert.equal(again.body.address, vault.address);
      const other = await create({ name: uniqueName(), type: "evm" });
      assert.notEqual(other.address, vault.address);
    });

    it("creates UTXO vaults on testnet and dogecoin with the right address formats", async () => {
      const testnet = await create({ name: uniqueName(), type: "utxo", chain: "bitcoin_testnet" });
      assert.match(testnet.default_address.address.address, /^tb1q/);
      const doge = await create({ name: uniqueName(), type: "utxo", chain: "dogecoin_mainnet" });
      assert.match(doge.default_address.address.address, /^D[1-9A-HJ-NP-Za-km-z]{33}$/);
      assert.equal(doge.default_address.address.address_type, "legacy");
    });

    it("creates in a given vault group, and answers 404 vault_group for an unknown one", async () => {
      const group = (await vaultNamed("Treasury ETH")).vault_groups[0];
      const vault = await create({ name: uniqueName(), type: "evm", vault_group_id: group.id });
      assert.deepEqual(
        vault.vault_groups.map((g: { id: string }) => g.id),
        [group.id],
      );
      const res = await h.api("POST", "/api/v1/vaults", {
        json: { name: uniqueName(), type: "evm", vault_group_id: MISSING },
      });
      assertError(res, 404, { resource: "vault_group" });
    });

    it("imports an external-signer key, and rejects a malformed one with 422", async () => {
      const key = Buffer.alloc(33, 7);
      key[0] = 2;
      const vault = await create({
        name: uniqueName(),
        type: "evm",
        import_options: { origin: "external_signer", public_key_compressed: key.toString("base64") },
      });
      assert.equal(vault.is_external_signer, true);
      assert.equal(vault.origin_type, "imported");
      assert.equal(vault.public_key_compressed, key.toString("base64"));
      const bad = await h.api("POST", "/api/v1/vaults", {
        json: {
          name: uniqueName(),
          type: "evm",
          import_options: { origin: "external_signer", public_key_compressed: "!!" },
        },
      });
      assertValidationIssue(bad, ["body", "import_options", "public_key_compressed"]);
    });

    it("answers 409 ResourceError for a duplicate name, archived vaults included", async () => {
      const name = uniqueName();
      await create({ name, type: "evm" });
      const dup = await h.api("POST", "/api/v1/vaults", { json: { name, type: "solana" } });
      assertError(dup, 409, {
        title: "Already exists",
        resource: "vault",
        detail: `A vault named '${name}' already exists`,
      });
      const seededArchived = await h.api("POST", "/api/v1/vaults", {
        json: { name: "Old Payroll", type: "evm" },
      });
      assertError(seededArchived, 409, { resource: "vault" });
      const count = await h.api("GET", "/api/v1/vaults", { query: { names: name } });
      assert.equal(count.body.total, 1);
    });

    it("validates the body: missing name, unknown type, exchange, utxo without chain, bad safe address", async () => {
      assertValidationIssue(
        await h.api("POST", "/api/v1/vaults", { json: { type: "evm" } }),
        ["body", "name"],
        "missing",
      );
      assertValidationIssue(await h.api("POST", "/api/v1/vaults", { json: { name: "x", type: "nope" } }), [
        "body",
        "type",
      ]);
      assertValidationIssue(
        await h.api("POST", "/api/v1/vaults", { json: { name: "x", type: "exchange" } }),
        ["body", "type"],
      );
      assertValidationIssue(await h.api("POST", "/api/v1/vaults", { json: { name: "x", type: "utxo" } }), [
        "body",
        "chain",
      ]);
      assertValidationIssue(
        await h.api("POST", "/api/v1/vaults", { json: { name: "x", type: "safe", address: "0x12" } }),
        ["body", "address"],
      );
      assertValidationIssue(await h.api("POST", "/api/v1/vaults", { json: [1, 2] }), ["body"]);
    });
  });

  describe("GET /vaults/{id}", () => {
    it("answers 404 ResourceError (resource vault) for an unknown id and 422 for a malformed one", async () => {
      assertError(await h.api("GET", `/api/v1/vaults/${MISSING}`), 404, {
        resource: "vault",
        title: "Not found",
      });
      assertValidationIssue(await h.api("GET", "/api/v1/vaults/123"), ["path", "id"], "uuid_parsing");
    });
  });

  describe("PUT /vaults/{id}/name", () => {
    it("renames (204), accepts the same name (204), answers 409 for a taken name and 404 for an unknown vault", async () => {
      const vault = await create({ name: uniqueName(), type: "evm" });
      const newName = uniqueName("renamed");
      const res = await h.api("PUT", `/api/v1/vaults/${vault.id}/name`, { json: { name: newName } });
      assert.equal(res.status, 204);
      assert.equal(res.text, "");
      const got = (await h.api("GET", `/api/v1/vaults/${vault.id}`)).body;
      assert.equal(got.name, newName);
      assert.ok(got.modified_at >= vault.modified_at);
      assert.equal(
        (await h.api("PUT", `/api/v1/vaults/${vault.id}/name`, { json: { name: newName } })).status,
        204,
      );
      const taken = await h.api("PUT", `/api/v1/vaults/${vault.id}/name`, { json: { name: "Treasury ETH" } });
      assertError(taken, 409, { resource: "vault", detail: "A vault named 'Treasury ETH' already exists" });
      assertError(await h.api("PUT", `/api/v1/vaults/${MISSING}/name`, { json: { name: "x" } }), 404, {
        resource: "vault",
      });
      // The old name is free again.
      assert.equal(
        (await h.api("POST", "/api/v1/vaults", { json: { name: vault.name, type: "evm" } })).status,
        201,
      );
    });
  });

  describe("names (create and rename of vaults and addresses)", () => {
    let utxo: Loose;
    let address: Loose;
    let vault: Loose;
    before(async () => {
      utxo = await create({ name: uniqueName("names utxo"), type: "utxo", chain: "bitcoin_mainnet" });
      vault = await create({ name: uniqueName("names evm"), type: "evm" });
      address = (await h.api("POST", `/api/v1/vaults/${utxo.id}/addresses`, { json: { name: uniqueName() } }))
        .body;
    });

    /** The four ways a name reaches the emulator. */
    const calls = (name: string): Array<[string, string, unknown]> => [
      ["POST", "/api/v1/vaults", { name, type: "evm" }],
      ["PUT", `/api/v1/vaults/${vault.id}/name`, { name }],
      ["POST", `/api/v1/vaults/${utxo.id}/addresses`, { name }],
      ["PUT", `/api/v1/vaults/addresses/${address.id}/name`, { name }],
    ];

    const refused: Array<{ title: string; name: string; msg: string | RegExp; type?: string }> = [
      {
        title: "longer than 1024 bytes in UTF-8",
        name: "é".repeat(10_000),
        msg: "must be at most 1024 bytes in UTF-8 (got 20000)",
        type: "string_too_long",
      },
      {
        title: "with a lone surrogate",
        name: "bad\uD800",
        msg: /^must be well-formed Unicode text: position 4 /,
      },
      {
        title: "not in NFC",
        name: "Cafe\u0301",
        msg: /^must be in Unicode normalization form NFC: U\+0065 U\+0301 at position 4 is U\+00E9 in NFC/,
      },
      {
        title: "with a C1 control",
        name: "a\u0085b",
        msg: "contains U+0085 NEXT LINE at position 2; control characters are not allowed",
      },
      {
        title: "with a bidirectional override",
        name: "Trea\u202esury",
        msg: "contains U+202E RIGHT-TO-LEFT OVERRIDE at position 5; bidirectional control characters are not allowed",
      },
      {
        title: "with a zero-width space",
        name: "Trea\u200bsury",
        msg: /^contains U\+200B ZERO WIDTH SPACE at position 5;/,
      },
      {
        title: "with a no-break space",
        name: "Treasury\u00a0ETH",
        msg: /^contains U\+00A0 NO-BREAK SPACE at position 9;/,
      },
      {
        title: "with two spaces in a row",
        name: "Treasury  ETH",
        msg: /^contains two spaces in a row at position 9;/,
      },
      { title: "of only whitespace", name: "   ", msg: "must not be empty or only whitespace" },
      {
        title: "with surrounding whitespace",
        name: " Treasury ETH",
        msg: "must not start or end with whitespace",
      },
    ];
    for (const { title, name, msg, type } of refused) {
      it(`refuses a name ${title}: a 422 at body.name on create and rename of vaults and addresses`, async () => {
        const total = async () => (await h.api("GET", "/api/v1/vaults", { query: { size: 1 } })).body.total;
        const vaultsBefore = await total();
        for (const [method, path, json] of calls(name)) {
          const res = await h.api(method, path, { json });
          assertValidationIssue(res, ["body", "name"], type ?? "value_error");
          const issue = res.body.detail.find((i: Loose) => i.loc.join(".") === "body.name");
          if (typeof msg === "string") assert.equal(issue.msg, msg, `${method} ${path}`);
          else assert.match(issue.msg, msg, `${method} ${path}`);
        }
        assert.equal(await total(), vaultsBefore);
        assert.equal((await h.api("GET", `/api/v1/vaults/${vault.id}`)).body.name, vault.name);
        const addresses = await h.api("GET", `/api/v1/vaults/${utxo.id}/addresses`, { query: { size: 100 } });
        assert.deepEqual(
          addresses.body.addresses.map((a: Loose) => a.name).sort(),
          [utxo.default_address.name, address.name].sort(),
        );
      });
    }

    it("takes names up to 1024 bytes, each one found again by name; a bad name is a 422 before a 404", async () => {
      const longest = `${"é".repeat(511)}ab`;
      assert.equal(Buffer.byteLength(longest), 1024);
      await create({ name: longest, type: "evm" });
      assert.equal((await vaultNamed(longest)).name, longest);
      assert.equal(
        (await h.api("POST", "/api/v1/vaults", { json: { name: `${longest}c`, type: "evm" } })).status,
        422,
      );
      // Every rule at once: one issue each.
      const res = await h.api("PUT", `/api/v1/vaults/${MISSING}/name`, {
        json: { name: "\u202e\u200b  x\u00a0" },
      });
      assertValidationIssue(res, ["body", "name"]);
      assert.equal(res.body.detail.length, 5, res.text);
    });
  });

  describe("archive and restore", () => {
    it("moves active → archived → active, idempotently; archived vaults stay listed and readable", async () => {
      const vault = await create({ name: uniqueName(), type: "evm" });
      assert.equal((await h.api("POST", `/api/v1/vaults/${vault.id}/archive`)).status, 204);
      assert.equal((await h.api("GET", `/api/v1/vaults/${vault.id}`)).body.state, "archived");
      assert.equal((await h.api("POST", `/api/v1/vaults/${vault.id}/archive`)).status, 204);
      const byName = await h.api("GET", "/api/v1/vaults", { query: { names: vault.name } });
      assert.equal(byName.body.vaults[0].state, "archived");
      const dup = await h.api("POST", "/api/v1/vaults", { json: { name: vault.name, type: "evm" } });
      assertError(dup, 409);
      assert.equal((await h.api("POST", `/api/v1/vaults/${vault.id}/restore`)).status, 204);
      assert.equal((await h.api("GET", `/api/v1/vaults/${vault.id}`)).body.state, "active");
      assert.equal((await h.api("POST", `/api/v1/vaults/${vault.id}/restore`)).status, 204);
    });

    it("answers 400 vault_not_found for an unknown vault (the API lists no 404 here)", async () => {
      assertError(await h.api("POST", `/api/v1/vaults/${MISSING}/archive`), 400, {
        error_type: "vault_not_found",
      });
      assertError(await h.api("POST", `/api/v1/vaults/${MISSING}/restore`), 400, {
        error_type: "vault_not_found",
      });
    });
  });

  describe("change proposals", () => {
    it("records a pending proposal (seen through the list filter and the control API), applied only when approved", async () => {
      const vault = await create({ name: uniqueName(), type: "evm" });
      const treasury = (await vaultNamed("Treasury ETH")).vault_groups[0];
      const res = await h.api("POST", `/api/v1/vaults/${vault.id}/proposals`, {
        json: { diff: { added_vault_group_ids: [treasury.id] } },
      });
      assert.equal(res.status, 204);
      const pending = (await h.api("GET", `/api/v1/vaults/${vault.id}`)).body;
      assert.deepEqual(
        pending.vault_groups.map((g: { name: string }) => g.name),
        ["Default"],
      );
      // The published schema has no pending-proposal property: the control API shows it.
      assert.equal(pending.proposed_change, undefined);
      const [waiting] = await h.emulator.control.listProposals({ vaultId: vault.id, state: "pending" });
      assert.deepEqual(waiting?.added_vault_group_ids, [treasury.id]);
      const filtered = await h.api("GET", "/api/v1/vaults", {
        query: { vault_group_ids: treasury.id, vault_ids: vault.id },
      });
      assert.equal(filtered.body.total, 1, "vault_group_ids matches pending groups");
      const [proposal] = await h.emulator.control.listProposals({ vaultId: vault.id, state: "pending" });
      assert.ok(proposal);
      await h.emulator.control.approveProposal(proposal.id);
      const applied = (await h.api("GET", `/api/v1/vaults/${vault.id}`)).body;
      assert.deepEqual(applied.vault_groups.map((g: { name: string }) => g.name).sort(), [
        "Default",
        "Treasury",
      ]);
      assert.equal(applied.proposed_change, undefined);
      await assert.rejects(h.emulator.control.approveProposal(proposal.id), /409/);
    });

    it("aborting leaves the vault as it was; a new proposal supersedes the pending one", async () => {
      const vault = await create({ name: uniqueName(), type: "evm" });
      const groups = (await vaultNamed("Trading Hot Wallet")).vault_groups;
      const trading = groups.find((g: { name: string }) => g.name === "Trading");
      const def = groups.find((g: { name: string }) => g.name === "Default");
      await h.api("POST", `/api/v1/vaults/${vault.id}/proposals`, {
        json: { diff: { added_vault_group_ids: [trading.id] } },
      });
      await h.api("POST", `/api/v1/vaults/${vault.id}/proposals`, {
        json: { diff: { added_vault_group_ids: [trading.id], removed_vault_group_ids: [def.id] } },
      });
      const all = await h.emulator.control.listProposals({ vaultId: vault.id });
      assert.deepEqual(
        all.map((p) => p.state),
        ["superseded", "pending"],
      );
      await h.emulator.control.abortProposal(all[1]!.id);
      const after = (await h.api("GET", `/api/v1/vaults/${vault.id}`)).body;
      assert.deepEqual(
        after.vault_groups.map((g: { name: string }) => g.name),
        ["Default"],
      );
      assert.equal(after.proposed_change, undefined);
    });

    it("validates: unknown vault 404, unknown group 404 vault_group, empty diff 422, no group left 400", async () => {
      const vault = await create({ name: uniqueName(), type: "evm" });
      const def = vault.vault_groups[0].id;
      assertError(await h.api("POST", `/api/v1/vaults/${MISSING}/proposals`, { json: { diff: {} } }), 404, {
        resource: "vault",
      });
      assertError(
        await h.api("POST", `/api/v1/vaults/${vault.id}/proposals`, {
          json: { diff: { added_vault_group_ids: [MISSING] } },
        }),
        404,
        { resource: "vault_group" },
      );
      assertValidationIssue(
        await h.api("POST", `/api/v1/vaults/${vault.id}/proposals`, { json: { diff: {} } }),
        ["body", "diff"],
      );
      assertValidationIssue(
        await h.api("POST", `/api/v1/vaults/${vault.id}/proposals`, { json: {} }),
        ["body", "diff"],
        "missing",
      );
      assertError(
        await h.api("POST", `/api/v1/vaults/${vault.id}/proposals`, {
          json: { diff: { removed_vault_group_ids: [def] } },
        }),
        400,
      );
    });
  });

  describe("GET /vaults/export_async", () => {
    it("returns a ready Export whose download_url serves the CSV; 204 when nothing matches", async () => {
      const treasury = await vaultNamed("Treasury ETH");
      const res = await h.api("GET", "/api/v1/vaults/export_async", { query: { vaults_ids: treasury.id } });
      assert.equal(res.status, 200);
      assertResponseShape("exportVaultBalances", res.body);
      assert.equal(res.body.state, "ready");
      assert.equal(res.body.type, "csv");
      assert.equal(res.body.request_id, res.headers["x-request-id"]);
      assert.equal(res.body.total_items_count, 9);
      const csv = await request(res.body.download_url);
      assert.equal(csv.statusCode, 200);
      assert.match(String(csv.headers["content-type"]), /text\/csv/);
      const lines = (await csv.body.text()).trim().split("\r\n");
      assert.equal(lines.length, 10);
      assert.match(lines[0]!, /^vault_id,vault_name,vault_type/);
      assert.ok(lines.slice(1).every((l) => l.startsWith(`${treasury.id},Treasury ETH,evm`)));
      const limited = await h.api("GET", "/api/v1/vaults/export_async", {
        query: { vaults_ids: treasury.id, limit: 2 },
      });
      assert.equal(limited.body.total_items_count, 2);
      const byType = await h.api("GET", "/api/v1/vaults/export_async", { query: { vault_types: "solana" } });
      assert.ok(byType.body.total_items_count >= 2);
      const none = await h.api("GET", "/api/v1/vaults/export_async", { query: { vaults_ids: MISSING } });
      assert.equal(none.status, 204);
      assert.equal(none.text, "");
    });
  });
});
