// Data-source functions against the seeded emulator: every filter reaches the API, lists are read through
// every page, results are camelCase, and the `…Output` variants accept Inputs. Expected values come from the
// API itself (through the client), never hard-coded counts.
import * as assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { CustodyClient } from "@pulumi-custody/sdk";
import type { DataSourceOptions } from "../data-sources/options";
import {
  exportVaultBalances,
  getBlockchains,
  getSuggestedFees,
  getUser,
  getUserGroup,
  getUserGroups,
  getUserOutput,
  getUsers,
  getVault,
  getVaultAddresses,
  getVaultAsset,
  getVaultAssets,
  getVaultOutput,
  getVaults,
  getVaultsOutput,
} from "../index";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

/** No snake_case key anywhere in a result (keys of `chainAddresses` are chain ids, i.e. data). */
function assertCamelCase(value: unknown, path = "result", keysAreData = false): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      assertCamelCase(v, `${path}[${i}]`);
    });
  } else if (value !== null && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if (!keysAreData) assert.ok(!key.includes("_"), `${path}.${key} is snake_case`);
      assertCamelCase(v, `${path}.${key}`, key === "chainAddresses");
    }
  }
}

describe("data sources (emulator)", () => {
  let bed: ProviderTestbed;
  let options: DataSourceOptions;
  const savedEnv = { ...process.env };

  before(async () => {
    bed = await startProviderTestbed();
    // No client-side pacing in tests; the settings themselves come per call.
    process.env.CUSTODY_REQUESTS_PER_MINUTE = "0";
    options = { baseUrl: bed.emulator.baseUrl, accessToken: bed.emulator.accessToken };
  });
  after(async () => {
    process.env = savedEnv;
    await bed.close();
  });

  async function requestsTo(path: RegExp): Promise<number> {
    return (await bed.emulator.control.listRequests()).filter((r) => r.method === "GET" && path.test(r.path))
      .length;
  }

  describe("blockchains and fees", () => {
    it("getBlockchains reads every chain, camelCase", async () => {
      const chains = await getBlockchains({}, options);
      const total = (await bed.client.blockchains.list({ size: 1 })).total;
      assert.equal(chains.length, total);
      assertCamelCase(chains);
      const btc = chains.find((c) => c.uniqueId === "bitcoin_mainnet");
      assert.equal(btc?.chainType, "utxo");
      assert.equal(typeof btc?.nativeCurrencySymbol, "string");
      assert.equal(typeof btc?.isTestnet, "boolean");
    });

    it("getBlockchains filters by chain type and testnets", async () => {
      const utxo = await getBlockchains({ chainTypes: ["utxo"] }, options);
      assert.ok(utxo.length > 0);
      assert.ok(utxo.every((c) => c.chainType === "utxo"));
      const mainnets = await getBlockchains({ includeTestnets: false }, options);
      assert.ok(mainnets.length > 0 && mainnets.every((c) => !c.isTestnet));
      const evm = await getBlockchains({ chainTypes: ["evm"], maxItems: 3 }, options);
      assert.equal(evm.length, 3);
      assert.equal(typeof evm[0]?.chainId, "number");
    });

    it("getSuggestedFees is keyed by chain unique id", async () => {
      const fees = await getSuggestedFees({ chains: ["bitcoin_mainnet", "evm_ethereum_mainnet"] }, options);
      assert.equal(fees.bitcoin_mainnet?.type, "utxo");
      assert.equal(fees.bitcoin_mainnet?.chainUniqueId, "bitcoin_mainnet");
      assert.equal(typeof fees.bitcoin_mainnet?.medium, "string");
      assert.equal(fees.evm_ethereum_mainnet?.type, "evm");
      assert.ok(fees.evm_ethereum_mainnet?.evm?.pricing);
      assert.ok(fees.evm_ethereum_mainnet?.evm?.medium);
    });
  });

  describe("users and user groups", () => {
    before(async () => {
      await bed.reset();
      await bed.emulator.control.seedLargeDataSet({ users: 900 });
    });

    it("getUsers pages through more than one page, with the fewest requests", async () => {
      const total = (await bed.client.users.list({ size: 1 })).total;
      assert.ok(total > 400, `only ${total} users`);
      await bed.emulator.control.clearRequests();
      const users = await getUsers({}, options);
      assert.equal(users.length, total);
      assert.equal(new Set(users.map((u) => u.id)).size, total);
      assert.equal(await requestsTo(/\/api\/v1\/users$/), Math.ceil(total / 400));
      assertCamelCase(users.slice(0, 50));
    });

    it("getUsers passes its filters", async () => {
      const admins = await getUsers({ roles: ["admin"], types: ["person"] }, options);
      assert.ok(admins.length > 0);
      assert.ok(admins.every((u) => u.role === "admin" && u.userType === "person"));
      const all = await getUsers({ includeDeleted: true }, options);
      const live = await getUsers({}, options);
      assert.ok(all.length > live.length);
      assert.ok(all.some((u) => u.state === "deleted") && !live.some((u) => u.state === "deleted"));
      const alice = await getUsers({ names: ["Alice Admin"] }, options);
      assert.deepEqual(
        alice.map((u) => u.name),
        ["Alice Admin"],
      );
      const pending = await getUsers(
        {
          groupIds: [(await getUserGroups({ name: "Treasury Approvers" }, options))[0]?.id ?? ""],
          statesOnGroups: ["pending_addition"],
        },
        options,
      );
      assert.deepEqual(
        pending.map((u) => u.name),
        ["Grace Security"],
      );
      const maxed = await getUsers({ maxItems: 401 }, options);
      assert.equal(maxed.length, 401);
    });

    it("getUser and its Output variant map one user", async () => {
      const [alice] = await getUsers({ names: ["Alice Admin"] }, options);
      assert.ok(alice);
      const one = await getUser({ id: alice.id }, options);
      assert.deepEqual(one, alice);
      assert.equal(typeof one.createdAt, "string");
      assert.ok(Array.isArray(one.userGroups));
      const viaOutput = await resolved(getUserOutput({ id: pulumi.output(alice.id) }, options));
      assert.deepEqual(viaOutput, alice);
    });

    it("getUser of an unknown id fails naming the data source", async () => {
      await assert.rejects(
        getUser({ id: "99999999-9999-4999-8999-999999999999" }, options),
        /^CustodyDataSourceError: getUser: .*404/,
      );
    });

    it("getUserGroups and getUserGroup, with the pending change mapped", async () => {
      const groups = await getUserGroups({}, options);
      assert.equal(groups.length, (await bed.client.userGroups.list({ size: 1 })).total);
      assertCamelCase(groups);
      const [approvers] = await getUserGroups({ name: "Treasury Approvers" }, options);
      assert.ok(approvers);
      assert.equal(approvers.proposedChange?.addedUserIds.length, 1);
      assert.equal(approvers.proposedChange?.removedUserIds.length, 1);
      assert.deepEqual(await getUserGroup({ id: approvers.id }, options), approvers);
      const deleted = await getUserGroups({ states: ["deleted"] }, options);
      assert.ok(deleted.length > 0 && deleted.every((g) => g.state === "deleted"));
    });
  });

  describe("vaults, assets, addresses, exports", () => {
    before(async () => {
      await bed.reset();
      await bed.emulator.control.seedLargeDataSet({ vaults: 250 });
    });

    it("getVaults pages through every vault", async () => {
      const total = (await bed.client.vaults.list({ size: 1 })).total;
      assert.ok(total > 100, `only ${total} vaults`);
      await bed.emulator.control.clearRequests();
      const vaults = await getVaults({}, options);
      assert.equal(vaults.length, total);
      assert.equal(await requestsTo(/\/api\/v1\/vaults$/), Math.ceil(total / 100));
      assertCamelCase(vaults.slice(0, 30));
    });

    it("getVaults passes its filters", async () => {
      const utxo = await getVaults({ vaultTypes: ["utxo"] }, options);
      assert.ok(utxo.length > 0 && utxo.every((v) => v.type === "utxo" && typeof v.chain === "string"));
      const archived = await getVaults({ vaultStates: ["archived"] }, options);
      assert.ok(archived.length > 0 && archived.every((v) => v.state === "archived"));
      const [treasury] = await getVaults({ names: ["Treasury ETH"] }, options);
      assert.ok(treasury);
      const byGroup = await getVaults({ vaultGroupIds: treasury.vaultGroupIds }, options);
      assert.ok(byGroup.some((v) => v.id === treasury.id));
      const excluded = await getVaults({ vaultIds: [treasury.id], excludeVaultIds: [treasury.id] }, options);
      assert.deepEqual(excluded, []);
      const withNative = await getVaults(
        { vaultIds: [treasury.id], positiveNativeBalanceChainIds: ["evm_ethereum_mainnet"] },
        options,
      );
      assert.ok((withNative[0]?.nativeAssets ?? []).length > 0);
      const sorted = await getVaults({ sortBy: ["name_desc"], maxItems: 5 }, options);
      assert.equal(sorted.length, 5);
      const names = sorted.map((v) => v.name.toLowerCase());
      assert.deepEqual(names, [...names].sort().reverse());
    });

    it("getVault by id or by name, and its Output variant", async () => {
      const byName = await getVault({ name: "BTC Cold Storage" }, options);
      assert.equal(byName.type, "utxo");
      assert.equal(byName.chain, "bitcoin_mainnet");
      assert.equal(typeof byName.address, "string");
      // Group names come with the ids, since the API cannot list vault groups.
      assert.ok(byName.vaultGroups.length > 0);
      assert.deepEqual(
        byName.vaultGroups.map((g) => g.id),
        byName.vaultGroupIds,
      );
      assert.ok(byName.vaultGroups.every((g) => g.name.length > 0));
      assert.deepEqual(await getVault({ id: byName.id }, options), byName);
      assert.deepEqual(
        await resolved(getVaultOutput({ name: pulumi.output("BTC Cold Storage") }, options)),
        byName,
      );
      await assert.rejects(getVault({}, options), /getVault: give exactly one of `id` and `name`/);
      await assert.rejects(
        getVault({ name: "No Such Vault" }, options),
        /getVault: no vault named "No Such Vault"/,
      );
    });

    it("getVaultAssets and getVaultAsset", async () => {
      const treasury = await getVault({ name: "Treasury ETH" }, options);
      const assets = await getVaultAssets({ vaultId: treasury.id }, options);
      const total = (await bed.client.vaults.assets.list(treasury.id, { size: 1 })).total;
      assert.equal(assets.length, total);
      assertCamelCase(assets);
      const usdc = await getVaultAssets({ vaultId: treasury.id, search: "USDC" }, options);
      assert.ok(usdc.length > 0 && usdc.every((a) => a.symbol === "USDC"));
      const first = usdc[0];
      assert.ok(first);
      assert.match(String(first.balances.totalMined), /^\d+$/);
      assert.equal(typeof first.decimals, "number");
      const one = await getVaultAsset({ vaultId: treasury.id, assetId: first.assetId }, options);
      assert.equal(one.assetId, first.assetId);
      assert.deepEqual(one.balances, first.balances);
      const onChain = await getVaultAssets({ vaultId: treasury.id, chains: ["evm_base_mainnet"] }, options);
      assert.ok(onChain.length > 0 && onChain.length < assets.length);
    });

    it("getVaultAddresses lists a UTXO vault's addresses", async () => {
      const btc = await getVault({ name: "BTC Cold Storage" }, options);
      const addresses = await getVaultAddresses({ vaultId: btc.id }, options);
      assert.equal(addresses.length, (await bed.client.vaults.addresses.list(btc.id, { size: 1 })).total);
      assertCamelCase(addresses);
      assert.ok(addresses.every((a) => a.vaultId === btc.id && a.chain === "bitcoin_mainnet"));
      const one = addresses[0];
      assert.ok(one);
      const filtered = await getVaultAddresses({ vaultId: btc.id, addresses: [one.address] }, options);
      assert.deepEqual(filtered, [one]);
      const types = await getVaultAddresses({ vaultId: btc.id, addressTypes: [one.addressType] }, options);
      assert.ok(types.every((a) => a.addressType === one.addressType));
    });

    it("exportVaultBalances returns the export, or undefined when there is nothing to export", async () => {
      const treasury = await getVault({ name: "Treasury ETH" }, options);
      const exported = await exportVaultBalances({ vaultIds: [treasury.id] }, options);
      assert.equal(exported?.state, "ready");
      assert.ok(exported && exported.totalItemsCount > 0);
      assert.equal(typeof exported?.downloadUrl, "string");
      const bb = await getVault({ name: "Black Box Signer" }, options);
      assert.equal(await exportVaultBalances({ vaultIds: [bb.id], limit: 0 }, options), undefined);
    });

    it("the Output variant of a list accepts Inputs", async () => {
      const names = pulumi.output(["Treasury ETH", "BTC Cold Storage"]);
      const vaults = await resolved(getVaultsOutput({ names }, options));
      assert.deepEqual(vaults.map((v) => v.name).sort(), ["BTC Cold Storage", "Treasury ETH"]);
    });
  });

  describe("settings", () => {
    const saved = { ...process.env };
    afterEach(() => {
      process.env = { ...saved };
    });

    it("an injected client wins", async () => {
      const client = new CustodyClient({
        baseUrl: bed.emulator.baseUrl,
        accessToken: bed.emulator.accessToken,
        requestsPerMinute: 0,
      });
      try {
        const chains = await getBlockchains({ maxItems: 1 }, { client });
        assert.equal(chains.length, 1);
      } finally {
        await client.close();
      }
    });

    it("the environment is used when nothing is given; missing settings name the key", async () => {
      process.env.CUSTODY_BASE_URL = bed.emulator.baseUrl;
      process.env.CUSTODY_ACCESS_TOKEN = bed.emulator.accessToken;
      assert.equal((await getBlockchains({ maxItems: 2 })).length, 2);
      delete process.env.CUSTODY_BASE_URL;
      await assert.rejects(
        getBlockchains(),
        /getBlockchains: Missing setting custody:baseUrl.*CUSTODY_BASE_URL/,
      );
    });

    it("a rejected token fails clearly without echoing it", async () => {
      await assert.rejects(
        getVaults({}, { baseUrl: bed.emulator.baseUrl, accessToken: "wrong-token-xyz" }),
        (err: Error) => {
          assert.match(err.message, /^getVaults: .*401/);
          assert.ok(!err.message.includes("wrong-token-xyz"));
          return true;
        },
      );
    });
  });
});
