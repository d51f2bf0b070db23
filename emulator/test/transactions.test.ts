// POST /transactions through raw HTTP: request signing, the timestamp window, idempotency, preconditions
// and state progression in every mode.
import assert from "node:assert/strict";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import {
  assertError,
  assertResponseShape,
  assertValidationIssue,
  type Harness,
  type Loose,
  signMessage,
  startHarness,
  uniqueName,
} from "@pulumi-custody/testing";

const MISSING = "00000000-0000-4000-8000-000000000000";

describe("emulator: transactions", () => {
  let h: Harness;
  let evm: Loose;
  before(async () => {
    h = await startHarness();
    evm = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName("tx evm"), type: "evm" } })).body;
  });
  after(() => h.close());
  afterEach(async () => {
    await h.emulator.control.setProgression("immediate");
    await h.emulator.control.resetClock();
  });

  const transfer = (vaultId = evm.id, value = "1000") => ({
    vault_id: vaultId,
    signer_type: "api_signer",
    type: "evm_transaction",
    details: {
      type: "evm_transfer",
      to: "0xB519eE1A5A8A3a7A0d1c4e8B3d1f0e2c3b4a5d6e",
      asset_identifier: { type: "evm", details: { type: "native", chain: "evm_arbitrum_mainnet" } },
      value: { type: "value", value },
      gas: { type: "priority", priority_level: "medium" },
    },
  });

  describe("request signing", () => {
    it("creates a transaction from a correctly signed request (201, approved, real shape)", async () => {
      const res = await h.createTransaction(transfer());
      assert.equal(res.status, 201, res.text);
      assertResponseShape("createTransaction", res.body);
      assert.equal(res.body.state, "approved");
      assert.equal(res.body.type, "evm_transaction");
      assert.deepEqual(
        res.body.state_changes.map((c: Loose) => c.new_state),
        ["waiting_for_approval", "approved"],
      );
      assert.equal(res.body.managed_transaction_data.vault.id, evm.id);
      assert.equal(res.body.managed_transaction_data.signer_type, "api_signer");
      assert.equal(res.body.chain.unique_id, "evm_arbitrum_mainnet");
      assert.equal(res.body.from.address, evm.address);
      assert.equal(res.body.to.address, "0xB519eE1A5A8A3a7A0d1c4e8B3d1f0e2c3b4a5d6e");
      assert.equal(res.body.value, "1000");
    });

    it("answers 401 without a signature, with a wrong key, a tampered body or a signature over another path", async () => {
      const body = JSON.stringify(transfer());
      const ts = String(Date.now());
      const unsigned = await h.api("POST", "/api/v1/transactions", { body, headers: { "x-timestamp": ts } });
      assertError(unsigned, 401);
      assert.match(unsigned.body.detail, /x-signature/);
      const noTimestamp = await h.api("POST", "/api/v1/transactions", {
        body,
        headers: {
          "x-signature": signMessage(h.emulator.apiUserPrivateKeyPem, "/api/v1/transactions", ts, body),
        },
      });
      assertError(noTimestamp, 401);
      assert.match(noTimestamp.body.detail, /x-timestamp/);
      const other = generateKeyPairSync("ec", { namedCurve: "P-256" })
        .privateKey.export({ type: "pkcs8", format: "pem" })
        .toString();
      const wrongKey = await h.createTransaction(transfer(), { signWith: other });
      assertError(wrongKey, 401);
      assert.match(wrongKey.body.detail, /Invalid x-signature/);
      const tampered = await h.api("POST", "/api/v1/transactions", {
        body: body.replace('"1000"', '"9999"'),
        headers: {
          "x-timestamp": ts,
          "x-signature": signMessage(h.emulator.apiUserPrivateKeyPem, "/api/v1/transactions", ts, body),
        },
      });
      assertError(tampered, 401);
      const otherPath = await h.api("POST", "/api/v1/transactions", {
        body,
        headers: {
          "x-timestamp": ts,
          "x-signature": signMessage(h.emulator.apiUserPrivateKeyPem, "/api/v1/vaults", ts, body),
        },
      });
      assertError(otherPath, 401);
      const garbage = await h.api("POST", "/api/v1/transactions", {
        body,
        headers: { "x-timestamp": ts, "x-signature": "%%%" },
      });
      assertError(garbage, 401);
      const txs = await h.emulator.control.listTransactions({ vaultId: evm.id });
      assert.ok(
        txs.every((t: Loose) => t.value !== "9999"),
        "nothing was created",
      );
    });

    it("accepts timestamps in milliseconds and in seconds within 120 s, rejects older or newer ones", async () => {
      const now = Date.now();
      assert.equal((await h.createTransaction(transfer(), { timestamp: now })).status, 201);
      assert.equal(
        (await h.createTransaction(transfer(), { timestamp: Math.floor(now / 1000) })).status,
        201,
      );
      assert.equal((await h.createTransaction(transfer(), { timestamp: now - 100_000 })).status, 201);
      assert.equal(
        (await h.createTransaction(transfer(), { timestamp: Math.floor(now / 1000) + 100 })).status,
        201,
      );
      for (const ts of [
        now - 130_000,
        now + 130_000,
        Math.floor(now / 1000) - 130,
        Math.floor(now / 1000) + 130,
      ]) {
        const res = await h.createTransaction(transfer(), { timestamp: ts });
        assertError(res, 401);
        assert.match(res.body.detail, /valid for 120 s/);
      }
      assertError(await h.createTransaction(transfer(), { timestamp: "yesterday" }), 401);
    });

    it("checks the timestamp against the emulator clock", async () => {
      await h.emulator.control.advanceClock(3_600_000);
      assertError(await h.createTransaction(transfer(), { timestamp: Date.now() }), 401);
      const clock = await h.emulator.control.getClock();
      assert.equal((await h.createTransaction(transfer(), { timestamp: clock.nowMs })).status, 201);
    });
  });

  describe("idempotency (x-idempotence-id)", () => {
    it("replays with 200 and the original transaction in its current state, even with another body", async () => {
      await h.emulator.control.setProgression("manual");
      const id = randomUUID();
      const first = await h.createTransaction(transfer(), { idempotenceId: id });
      assert.equal(first.status, 201);
      assert.equal(first.body.managed_transaction_data.idempotence_id, id);
      await h.emulator.control.advanceTransaction(first.body.id);
      const replay = await h.createTransaction(transfer(evm.id, "5"), { idempotenceId: id });
      assert.equal(replay.status, 200);
      assert.equal(replay.body.id, first.body.id);
      assert.equal(replay.body.value, "1000");
      assert.equal(replay.body.state, "signed");
      const txs = await h.emulator.control.listTransactions({ vaultId: evm.id });
      assert.equal(txs.filter((t: Loose) => t.managed_transaction_data?.idempotence_id === id).length, 1);
    });

    it("creates a new transaction per request without the header", async () => {
      const a = await h.createTransaction(transfer(), { idempotenceId: null });
      const b = await h.createTransaction(transfer(), { idempotenceId: null });
      assert.equal(a.status, 201);
      assert.equal(b.status, 201);
      assert.notEqual(a.body.id, b.body.id);
    });

    it("answers 422 for a non-UUID id and remembers nothing of a failed request", async () => {
      assertValidationIssue(await h.createTransaction(transfer(), { idempotenceId: "abc" }), [
        "header",
        "x-idempotence-id",
      ]);
      const id = randomUUID();
      assertError(await h.createTransaction(transfer(MISSING), { idempotenceId: id }), 400);
      const retried = await h.createTransaction(transfer(), { idempotenceId: id });
      assert.equal(retried.status, 201);
    });
  });

  describe("preconditions and validation", () => {
    it("answers 400 vault_not_found, vault_type_mismatch, and 400 for an archived vault", async () => {
      assertError(await h.createTransaction(transfer(MISSING)), 400, { error_type: "vault_not_found" });
      const sol = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "solana" } }))
        .body;
      assertError(await h.createTransaction(transfer(sol.id)), 400, { error_type: "vault_type_mismatch" });
      const archived = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } }))
        .body;
      await h.api("POST", `/api/v1/vaults/${archived.id}/archive`);
      assertError(await h.createTransaction(transfer(archived.id)), 400, { error_type: "vault_not_found" });
    });

    it("validates the body (422) after the signature, and refuses the viewer (403)", async () => {
      const bad = await h.createTransaction({
        vault_id: evm.id,
        type: "evm_transaction",
        details: { type: "evm_transfer" },
      });
      assertValidationIssue(bad, ["body", "details", "asset_identifier"], "missing");
      assertValidationIssue(await h.createTransaction({ vault_id: "x", type: "nope", details: {} }), [
        "body",
        "type",
      ]);
      assertError(await h.createTransaction(transfer(), { token: h.emulator.viewerAccessToken }), 403);
      assertError(await h.createTransaction(transfer(), { bodyText: "{not json" }), 422);
    });

    it("answers 400 chain_is_not_supported for an unknown chain and resolves vault_id recipients", async () => {
      const body = transfer();
      body.details.asset_identifier.details.chain = "evm_999999999";
      assertError(await h.createTransaction(body), 400, { error_type: "chain_is_not_supported" });
      const target = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } }))
        .body;
      const toVault = transfer();
      (toVault.details as Loose).to = { type: "vault_id", vault_id: target.id };
      const res = await h.createTransaction(toVault);
      assert.equal(res.body.to.address, target.address);
      (toVault.details as Loose).to = { type: "vault_id", vault_id: MISSING };
      assertError(await h.createTransaction(toVault), 400, { error_type: "invalid_recipient" });
    });

    it('takes an EVM transfer\'s `to` in every form the service takes (docs/api-notes.md, "Transactions")', async () => {
      const target = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "evm" } }))
        .body;
      const address = "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF";
      const forms: [string, unknown, string, string | undefined][] = [
        ["a hex object", { type: "hex", address }, address, undefined],
        ["a vault_id object", { type: "vault_id", vault_id: target.id }, target.address, target.id],
        ["a bare 0x address", address, address, undefined],
        ["a bare vault id", target.id, target.address, target.id],
        ["a bare vault id in upper case", target.id.toUpperCase(), target.address, target.id],
      ];
      for (const [form, to, expectedAddress, expectedVault] of forms) {
        const body = transfer();
        (body.details as Loose).to = to;
        const res = await h.createTransaction(body);
        assert.equal(res.status, 201, `${form}: ${res.text}`);
        assertResponseShape("createTransaction", res.body);
        assert.equal(res.body.to.address, expectedAddress, form);
        // The service names the recipient vault in `to.vault`, as it does for the sender in `from.vault`.
        assert.equal(res.body.to.vault?.id, expectedVault, form);
      }
      const toMissing = transfer();
      (toMissing.details as Loose).to = MISSING;
      assertError(await h.createTransaction(toMissing), 400, { error_type: "invalid_recipient" });
      const toNothing = transfer();
      (toNothing.details as Loose).to = "0x123";
      assertValidationIssue(await h.createTransaction(toNothing), ["body", "details", "to"]);
    });

    it("creates Solana, UTXO, raw EVM and black-box transactions", async () => {
      const sol = (await h.api("POST", "/api/v1/vaults", { json: { name: uniqueName(), type: "solana" } }))
        .body;
      const solTx = await h.createTransaction({
        vault_id: sol.id,
        type: "solana_transaction",
        details: {
          type: "solana_transfer",
          to: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
          asset_identifier: { type: "solana", details: { type: "native", chain: "solana_mainnet" } },
          value: { type: "value", value: "5000" },
        },
      });
      assert.equal(solTx.status, 201, solTx.text);
      assert.equal(solTx.body.chain.unique_id, "solana_mainnet");
      const btc = (
        await h.api("POST", "/api/v1/vaults", {
          json: { name: uniqueName(), type: "utxo", chain: "bitcoin_mainnet" },
        })
      ).body;
      const btcTx = await h.createTransaction({
        vault_id: btc.id,
        type: "utxo_transaction",
        details: {
          type: "utxo_transfer",
          outputs: [
            { to: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", value: "1500" },
            { to: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", value: "500" },
          ],
        },
      });
      assert.equal(btcTx.status, 201, btcTx.text);
      assert.equal(btcTx.body.value, "2000");
      const raw = await h.createTransaction({
        vault_id: evm.id,
        type: "evm_transaction",
        details: {
          type: "evm_raw_transaction",
          chain: 8453,
          to: "0x1111111111111111111111111111111111111111",
          value: "0",
          data: { type: "hex", hex_data: "0xdeadbeef" },
        },
      });
      assert.equal(raw.status, 201, raw.text);
      assert.equal(raw.body.chain.unique_id, "evm_base_mainnet");
      assert.equal(raw.body.data, Buffer.from("deadbeef", "hex").toString("base64"));
      const bb = (
        await h.api("POST", "/api/v1/vaults", {
          json: { name: uniqueName(), type: "black_box", key_type: "ecdsa_secp256k1" },
        })
      ).body;
      const sig = await h.createTransaction({
        vault_id: bb.id,
        type: "black_box_signature",
        details: { type: "hash_binary", hash_binary: "AAEC" },
      });
      assert.equal(sig.status, 201, sig.text);
      const final = await h.emulator.control.getTransaction<Loose>(sig.body.id);
      assert.deepEqual(
        final.state_changes.map((c: Loose) => c.new_state),
        ["waiting_for_approval", "approved", "signed", "completed"],
      );
    });
  });

  describe("state progression", () => {
    it("immediate: the response says approved, and the transaction is completed right after", async () => {
      const res = await h.createTransaction(transfer());
      assert.equal(res.body.state, "approved");
      const now = await h.emulator.control.getTransaction<Loose>(res.body.id);
      assert.equal(now.state, "completed");
      assert.deepEqual(
        now.state_changes.map((c: Loose) => c.new_state),
        ["waiting_for_approval", "approved", "signed", "pushed_to_blockchain", "mined", "completed"],
      );
      assert.equal(now.signatures.length, 1);
      assert.match(now.hash, /^0x[0-9a-f]{64}$/);
      assert.ok(now.block.number > 0);
      assert.match(now.explorer_url, /^https:\/\/arbiscan\.io\/tx\/0x/);
    });

    it("manual: stays approved until advanced one step at a time, or straight to a state", async () => {
      await h.emulator.control.setProgression("manual");
      const res = await h.createTransaction(transfer());
      const id = res.body.id;
      assert.equal((await h.emulator.control.getTransaction<Loose>(id)).state, "approved");
      assert.equal((await h.emulator.control.advanceTransaction<Loose>(id)).state, "signed");
      assert.equal((await h.emulator.control.advanceTransaction<Loose>(id, "mined")).state, "mined");
      const states = (await h.emulator.control.getTransaction<Loose>(id)).state_changes.map(
        (c: Loose) => c.new_state,
      );
      assert.deepEqual(states.slice(-3), ["signed", "pushed_to_blockchain", "mined"]);
      assert.equal((await h.emulator.control.advanceTransaction<Loose>(id)).state, "completed");
      await assert.rejects(h.emulator.control.advanceTransaction(id), /409/);
      const other = (await h.createTransaction(transfer())).body.id;
      const aborted = await h.emulator.control.advanceTransaction<Loose>(other, "aborted");
      assert.equal(aborted.state, "aborted");
      assert.deepEqual(aborted.state_changes.at(-1), {
        ...aborted.state_changes.at(-1),
        previous_state: "approved",
        new_state: "aborted",
      });
      await assert.rejects(h.emulator.control.advanceTransaction(other), /409/);
      await assert.rejects(h.emulator.control.advanceTransaction(other, "nonsense"), /422/);
      await assert.rejects(h.emulator.control.advanceTransaction(MISSING), /404/);
    });

    it("clock: one step per stepMs of emulator time; advancing the clock moves it", async () => {
      await h.emulator.control.setProgression("clock", 60_000);
      const id = (await h.createTransaction(transfer())).body.id;
      assert.equal((await h.emulator.control.getTransaction<Loose>(id)).state, "approved");
      await h.emulator.control.advanceClock(60_000);
      assert.equal((await h.emulator.control.getTransaction<Loose>(id)).state, "signed");
      await h.emulator.control.advanceClock(120_000);
      assert.equal((await h.emulator.control.getTransaction<Loose>(id)).state, "mined");
      await h.emulator.control.advanceClock(3_600_000);
      const done = await h.emulator.control.getTransaction<Loose>(id);
      assert.equal(done.state, "completed");
      const times = done.state_changes.slice(1).map((c: Loose) => Date.parse(c.changed_at));
      for (let i = 2; i < times.length; i++)
        assert.equal(times[i] - times[i - 1], 60_000, "steps are stepMs apart");
    });
  });
});
