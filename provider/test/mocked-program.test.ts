// A program under `pulumi.runtime.setMocks`: constructing the resources registers the right type tokens and
// inputs (with a serialized provider that holds no credential), and exposes their outputs.
import * as assert from "node:assert/strict";
import type * as pulumiPackage from "@pulumi/pulumi";
import type * as providerPackage from "../index";
import { installedPackage } from "./installed-package";

// The package as a program installs it, with the program's own @pulumi/pulumi (./installed-package.ts): the
// serialized provider of a resource is a bare `require` only for a provider loaded from node_modules.
const program = installedPackage();
const { Vault, VaultAddress }: typeof providerPackage = program.require("pulumi-custody");
const pulumi: typeof pulumiPackage = program.require("@pulumi/pulumi");

interface Registration {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

function resolvedValue<T>(output: pulumiPackage.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

const GROUP = "11111111-1111-4111-8111-111111111111";

describe("resources in a mocked program", () => {
  const registrations: Registration[] = [];

  before(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource(args) {
          registrations.push({ type: args.type, name: args.name, inputs: args.inputs });
          // What the provider would return: the inputs plus a few outputs.
          const outputs =
            args.type === "pulumi-nodejs:dynamic/custody:Vault"
              ? { ...args.inputs, state: "active", address: "bc1qmockedaddress", vaultGroupIds: [GROUP] }
              : {
                  ...args.inputs,
                  address: "bc1qmockedchild",
                  addressType: "segwit",
                  chain: "bitcoin_mainnet",
                };
          return { id: `${args.name}-id`, state: outputs };
        },
        call: (args) => args.inputs,
      },
      "custody-mocks",
      "test",
      false,
    );
  });

  it("registers Vault and VaultAddress with their type tokens and inputs", async () => {
    const vault = new Vault("btc", {
      name: "BTC cold",
      type: "utxo",
      chain: "bitcoin_mainnet",
      vaultGroupIds: [GROUP],
    });
    const address = new VaultAddress("deposits", {
      vaultId: vault.id,
      name: "Deposits",
      addressType: "segwit",
    });

    assert.equal(await resolvedValue(vault.id), "btc-id");
    assert.equal(await resolvedValue(vault.state), "active");
    assert.equal(await resolvedValue(vault.address), "bc1qmockedaddress");
    assert.deepEqual(await resolvedValue(vault.vaultGroupIds), [GROUP]);
    assert.equal(await resolvedValue(address.vaultId), "btc-id");
    assert.equal(await resolvedValue(address.address), "bc1qmockedchild");

    const vaultReg = registrations.find((r) => r.name === "btc");
    assert.equal(vaultReg?.type, "pulumi-nodejs:dynamic/custody:Vault");
    assert.deepEqual(
      Object.fromEntries(Object.entries(vaultReg?.inputs ?? {}).filter(([k]) => k !== "__provider")),
      { name: "BTC cold", type: "utxo", chain: "bitcoin_mainnet", vaultGroupIds: [GROUP] },
    );
    assert.equal(typeof vaultReg?.inputs.__provider, "string");
    assert.match(String(vaultReg?.inputs.__provider), /pulumi-custody\/provider-runtime/);

    const addressReg = registrations.find((r) => r.name === "deposits");
    assert.equal(addressReg?.type, "pulumi-nodejs:dynamic/custody:VaultAddress");
    assert.equal(addressReg?.inputs.vaultId, "btc-id");
    assert.equal(addressReg?.inputs.name, "Deposits");
    assert.equal(addressReg?.inputs.addressType, "segwit");
  });

  it("tells the provider that a vault's name is secret (__nameIsSecret), and only then", async () => {
    const secret = new Vault("secret-name", { name: pulumi.secret("treasury-7"), type: "evm" });
    const derived = new Vault("derived-secret-name", {
      name: pulumi.secret("treasury").apply((n) => `${n}-8`),
      type: "evm",
    });
    const plain = new Vault("plain-name", { name: pulumi.output("Plain"), type: "evm" });
    await Promise.all([secret, derived, plain].map((v) => resolvedValue(v.id)));
    const inputsOf = (name: string) => registrations.find((r) => r.name === name)?.inputs ?? {};
    assert.equal(inputsOf("secret-name").__nameIsSecret, true);
    assert.equal(inputsOf("derived-secret-name").__nameIsSecret, true);
    assert.equal(inputsOf("plain-name").name, "Plain");
    assert.equal("__nameIsSecret" in inputsOf("plain-name"), false);
  });

  it("two vaults share one serialized provider text", async () => {
    const a = new Vault("a", { name: "A", type: "evm" });
    const b = new Vault("b", { name: "B", type: "solana", adoptExisting: true });
    await Promise.all([resolvedValue(a.id), resolvedValue(b.id)]);
    const texts = registrations
      .filter((r) => r.name === "a" || r.name === "b")
      .map((r) => r.inputs.__provider);
    assert.equal(texts.length, 2);
    assert.equal(texts[0], texts[1]);
    assert.equal(registrations.find((r) => r.name === "b")?.inputs.adoptExisting, true);
  });

  describe("declaring a resource captures no stack for the SDK's output promises (promise-stacks.ts)", () => {
    // `@pulumi/pulumi`'s runtime module, whose registerResource the Resource constructor calls through the
    // module object, so a wrapper sees each call.
    const runtime = program.require("@pulumi/pulumi/runtime/resource") as {
      registerResource: (...args: unknown[]) => unknown;
    };
    let seen: { limit: number; sourcePosition: { uri?: string } | undefined }[];
    let original: (...args: unknown[]) => unknown;

    beforeEach(() => {
      seen = [];
      original = runtime.registerResource;
      runtime.registerResource = (...args: unknown[]) => {
        seen.push({ limit: Error.stackTraceLimit, sourcePosition: args[9] as { uri?: string } });
        return original(...args);
      };
    });
    afterEach(() => {
      runtime.registerResource = original;
      delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    });

    it("registers with no stack frames captured, keeps the source position, and restores the limit", async () => {
      const before = Error.stackTraceLimit;
      const vault = new Vault("quiet", { name: "Quiet", type: "evm" });
      const address = new VaultAddress("quiet-address", { vaultId: vault.id, name: "Quiet" });

      assert.deepEqual(
        seen.map((s) => s.limit),
        [0, 0],
      );
      assert.equal(Error.stackTraceLimit, before);
      assert.equal(await resolvedValue(address.vaultId), "quiet-id");
    });

    it("leaves the source position Pulumi records as it is with the stacks kept", () => {
      // Pulumi reads the position with its own limit: the `super(...)` of each class in both cases (a .js
      // position, or the .ts one when a source-map handler is installed).
      const declareBoth = () => {
        const vault = new Vault("positioned", { name: "Positioned", type: "evm" });
        new VaultAddress("positioned-address", { vaultId: vault.id, name: "Positioned" });
      };
      process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
      declareBoth();
      delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
      declareBoth();

      const positions = seen.map((s) => JSON.stringify(s.sourcePosition));
      assert.equal(positions.length, 4);
      assert.deepEqual(positions.slice(2), positions.slice(0, 2));
      assert.match(String(seen[0]?.sourcePosition?.uri), /\/resources\/vault\.(js|ts)$/);
      assert.match(String(seen[1]?.sourcePosition?.uri), /\/resources\/vault-address\.(js|ts)$/);
    });

    it("keeps the stacks when PULUMI_DEBUG_PROMISE_LEAKS asks for them", () => {
      process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
      const before = Error.stackTraceLimit;
      new Vault("debugged", { name: "Debugged", type: "evm" });
      assert.deepEqual(
        seen.map((s) => s.limit),
        [before],
      );
    });

    it("restores the limit when the constructor throws", () => {
      const before = Error.stackTraceLimit;
      assert.throws(
        () =>
          new Vault(
            "orphan",
            { name: "Orphan", type: "evm" },
            {
              parent: {} as unknown as pulumiPackage.Resource,
            },
          ),
      );
      assert.equal(Error.stackTraceLimit, before);
    });
  });
});
