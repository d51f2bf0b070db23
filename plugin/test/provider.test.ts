// The plugin's methods on plain values, against the emulator: configuration and its checks, secrets kept
// secret in every result, the import path of `read` (an id and nothing else), and functions.
import * as assert from "node:assert/strict";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodyClient } from "@pulumi-custody/sdk";
import { configure, disconnect, setNoticeSink } from "pulumi-custody/core";
import { invoke } from "../functions";
import { protect, SECRET_SIG, SIG_KEY, unwrap } from "../properties";
import * as plugin from "../provider";
import { VAULT_ADDRESS_TOKEN, VAULT_TOKEN } from "../tokens";

const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });
const isSecret = (value: unknown) => (value as Record<string, unknown> | undefined)?.[SIG_KEY] === SECRET_SIG;

describe("plugin provider methods (emulator)", () => {
  let emulator: RunningEmulator;
  let client: CustodyClient;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
    client = new CustodyClient({
      baseUrl: emulator.baseUrl,
      accessToken: emulator.accessToken,
      requestsPerMinute: 0,
    });
    await disconnect();
    plugin.configure({
      baseUrl: emulator.baseUrl,
      accessToken: secret(emulator.accessToken),
      requestsPerMinute: "0",
      version: "0.1.0",
    });
  });
  after(async () => {
    configure(undefined);
    await client.close();
    await emulator.close();
  });

  describe("configuration", () => {
    it("accepts the four settings, with the token as a secret", () => {
      const result = plugin.checkConfig({
        baseUrl: "https://api.example-custody.com",
        accessToken: secret("t"),
        maxRetries: "3",
        requestsPerMinute: 120,
      });
      assert.deepEqual(result.failures, []);
    });

    it("refuses a malformed value, naming the setting and the rule", () => {
      const { failures } = plugin.checkConfig({ maxRetries: "many", baseUrl: "not a url" });
      assert.deepEqual(
        failures.map((f) => f.property),
        ["baseUrl", "maxRetries"],
      );
      assert.match(failures[1].reason, /custody:maxRetries: must be a non-negative integer, got "many"/);
      assert.match(failures[0].reason, /custody:baseUrl: must be an absolute URL/);
    });

    it("refuses a key the provider does not know (a misspelt baseUrl)", () => {
      const { failures } = plugin.checkConfig({ baseURL: "https://api.example-custody.com" });
      assert.equal(failures.length, 1);
      assert.equal(failures[0].property, "baseURL");
      assert.match(
        failures[0].reason,
        /is not a setting of the custody provider \(settings: custody:baseUrl,/,
      );
    });

    it("diffConfig names the settings that changed, secrets compared by value", () => {
      const olds = { baseUrl: "https://a.example", accessToken: secret("one") };
      assert.deepEqual(plugin.diffConfig(olds, { ...olds }), []);
      assert.deepEqual(plugin.diffConfig(olds, { ...olds, accessToken: secret("two") }), ["accessToken"]);
    });
  });

  describe("secrets", () => {
    it("a secret input stays secret in the outputs of the same name and in those that carry its value", async () => {
      const { outputs } = await plugin.create(VAULT_TOKEN, { name: secret("Secret Vault 1"), type: "evm" });
      assert.ok(isSecret(outputs.name), "name");
      assert.ok(!isSecret(outputs.type), "type is not secret");
      assert.ok(
        !JSON.stringify(Object.values(outputs).filter((v) => !isSecret(v))).includes("Secret Vault 1"),
      );
    });

    for (const name of ["Secret Replace 2", "S2"]) {
      it(`a replace's warning about a vault with a secret name writes [secret] (${name.length} characters)`, async () => {
        const { id } = await plugin.create(VAULT_TOKEN, { name: secret(name), type: "evm" });
        const notices: string[] = [];
        const restore = setNoticeSink((message) => {
          notices.push(message);
        });
        try {
          const answer = await plugin.diff(
            VAULT_TOKEN,
            id,
            { name: secret(name), type: "evm", state: "active" },
            { name: secret(name), type: "solana" },
          );
          assert.deepEqual(answer.replaces, ["type"]);
        } finally {
          restore();
        }
        assert.equal(notices.length, 1, notices.join("\n"));
        assert.match(notices[0] ?? "", /^vault "\[secret\]" .* must be replaced/);
        // The `<name> (archived …)` a replace may give the old vault: a short name is masked there too.
        assert.match(notices[0] ?? "", /renamed to "\[secret\] \(archived [0-9a-f]{8}\)"/);
        assert.ok(!(notices[0] ?? "").includes(`"${name}`), notices[0]);
      });
    }

    it("a secret list marks the outputs derived from it (the engine's fallback would match names only)", () => {
      const groups = ["7d2b1b35-1c1a-4c7e-9a51-0a9a3c1d2e3f"];
      const inputs = unwrap({ vaultGroupIds: secret(groups), name: "plain" });
      assert.deepEqual([...inputs.secretKeys], ["vaultGroupIds"]);
      const outputs = {
        vaultGroupIds: groups,
        declaredVaultGroupIds: groups,
        pendingVaultGroupIds: [],
        name: "plain",
      };
      const wrapped = protect(outputs, inputs);
      assert.ok(isSecret(wrapped.vaultGroupIds));
      assert.ok(isSecret(wrapped.declaredVaultGroupIds), "derived under another name, still secret");
      assert.ok(!isSecret(wrapped.pendingVaultGroupIds));
      assert.equal(wrapped.name, "plain");
    });

    it("check keeps the secret and the preview placeholder as they were", async () => {
      const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
      const result = await plugin.check(VAULT_TOKEN, {}, { name: secret("Secret Vault 2"), type: unknown });
      assert.deepEqual(result.failures, []);
      assert.deepEqual(result.inputs.name, secret("Secret Vault 2"));
      assert.equal(result.inputs.type, unknown);
    });
    it("an error about a vault whose name is secret does not print the name", async () => {
      const name = "Secret Vault 3";
      await client.vaults.create({ name, type: "evm" });
      await assert.rejects(plugin.create(VAULT_TOKEN, { name: secret(name), type: "evm" }), (err: Error) => {
        assert.match(err.message, /A vault named "\[secret\]"/);
        assert.ok(!err.message.includes(name), err.message);
        assert.match(err.message, /\[secret\]/);
        return true;
      });
      const { id, outputs } = await plugin.create(VAULT_TOKEN, {
        name: secret("Secret Vault 4"),
        type: "evm",
      });
      const olds = { ...outputs, name: secret("Secret Vault 4") };
      await assert.rejects(
        plugin.update(VAULT_TOKEN, id, olds, { name: secret(name), type: "evm" }),
        (err: Error) => {
          assert.match(err.message, /Cannot rename vault/);
          assert.ok(!err.message.includes(name) && !err.message.includes("Secret Vault 4"), err.message);
          return true;
        },
      );
    });

    it("a notice about a vault whose name is secret (a replace) does not print the name", async () => {
      const name = "Secret Vault 5";
      const { id, outputs } = await plugin.create(VAULT_TOKEN, {
        name: secret(name),
        type: "utxo",
        chain: "bitcoin_testnet",
      });
      const notices: string[] = [];
      const restore = setNoticeSink((message) => {
        notices.push(message);
      });
      try {
        const olds = { ...outputs, name: secret(name) };
        const answer = await plugin.diff(VAULT_TOKEN, id, olds, {
          name: secret(name),
          type: "utxo",
          chain: "dogecoin_mainnet",
        });
        assert.deepEqual(answer.replaces, ["chain"]);
      } finally {
        restore();
      }
      assert.equal(notices.length, 1, notices.join("\n"));
      assert.match(notices[0], /\[secret\]/);
      assert.ok(!notices[0].includes(name), notices[0]);
    });

    it("a check failure about a secret value does not print the value", async () => {
      const tooLong = `Secret ${"x".repeat(300)}`;
      const result = await plugin.check(VAULT_TOKEN, {}, { name: secret(tooLong), type: "evm" });
      assert.equal(result.failures.length, 1);
      assert.ok(!result.failures[0].reason.includes(tooLong.slice(0, 40)), result.failures[0].reason);
    });
  });

  describe("import: read with an id alone", () => {
    it("Vault: outputs of an adopted vault, and its live inputs", async () => {
      const made = await client.vaults.create({ name: "Imported Vault", type: "evm" });
      const result = await plugin.read(VAULT_TOKEN, made.id, {}, {});
      assert.equal(result.id, made.id);
      // The groups it is in, as the API reports them, so that the code generated from these inputs declares them.
      assert.deepEqual(result.inputs, {
        name: "Imported Vault",
        type: "evm",
        vaultGroupIds: made.vault_groups?.map((g) => g.id),
      });
      assert.ok(((result.inputs?.vaultGroupIds ?? []) as string[]).length > 0);
      assert.equal(result.outputs?.acquisition, "adopted");
      assert.equal(result.outputs?.state, "active");
    });

    it("Vault: an id that does not exist reads as gone", async () => {
      assert.deepEqual(await plugin.read(VAULT_TOKEN, "00000000-0000-4000-8000-000000000000", {}, {}), {});
    });

    it("VaultAddress: the import id is <vault id>/<address id>", async () => {
      const vault = await client.vaults.create({
        name: "Imported UTXO",
        type: "utxo",
        chain: "bitcoin_testnet",
      } as never);
      const address = await client.vaults.addresses.create(vault.id, { name: "imported address" });
      const result = await plugin.read(VAULT_ADDRESS_TOKEN, `${vault.id}/${address.id}`, {}, {});
      assert.equal(result.id, address.id);
      assert.equal(result.outputs?.acquisition, "adopted");
      assert.deepEqual(result.inputs, {
        vaultId: vault.id,
        name: "imported address",
        addressType: address.address.address_type,
      });
      await assert.rejects(
        plugin.read(VAULT_ADDRESS_TOKEN, address.id, {}, {}),
        /the import id of a custody:index:VaultAddress must be <vault id>\/<address id>/,
      );
    });

    it("an unknown type is refused with the types the provider has", async () => {
      await assert.rejects(
        plugin.read("custody:index:Wallet", "x", {}, {}),
        /unknown resource type custody:index:Wallet: the custody provider has custody:index:Vault and custody:index:VaultAddress/,
      );
    });
  });

  describe("functions", () => {
    it("custody:index:getVaults lists vaults through the configured client", async () => {
      await client.vaults.create({ name: "Function Vault", type: "solana" });
      const { value } = await invoke("custody:index:getVaults", { names: ["Function Vault"] });
      const items = value.items as { name: string; type: string }[];
      assert.deepEqual(
        items.map((v) => [v.name, v.type]),
        [["Function Vault", "solana"]],
      );
    });

    it("an unknown function is refused, listing the functions", async () => {
      await assert.rejects(
        invoke("custody:index:getWallets", {}),
        /unknown function custody:index:getWallets: .*custody:index:getVaults/,
      );
    });
  });
});
