/**
 * A diagnostic of figure 1, run as its own process: the program-side CPU cost of declaring one resource, for
 * `Vault`, `VaultAddress`, the no-op resource of floor (b), and `Vault` with the SDK's promise stacks captured. It runs the resource constructors under Pulumi's
 * mocks, with `source-map-support` registered exactly as `@pulumi/pulumi/cmd/run` registers it for every real
 * program, and prints one JSON line: `{ "<kind>": { cpuMsPerResource, declaredOutputs } }`. (Pulumi's promise-leak
 * check then reports the never-resolved mock outputs on stderr and may set a non-zero exit code; the JSON line
 * is the result.)
 *
 * Usage: `node dist/bench/support/registration-cost.js [count]`.
 */
import * as path from "node:path";

interface Cost {
  /** Process CPU (user + system) per constructed resource, in milliseconds. */
  cpuMsPerResource: number;
  /** Output properties the resource declares (each becomes four SDK promises). */
  declaredOutputs: number;
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 200);
  // What cmd/run does first; resolved from @pulumi/pulumi so it is the copy real programs get.
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  require(require.resolve("source-map-support/register", { paths: [pulumiDir] }));
  const pulumi: typeof import("@pulumi/pulumi") = require("@pulumi/pulumi");
  await pulumi.runtime.setMocks(
    { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: () => ({}) },
    "bench",
    "registration-cost",
    false,
  );
  const { Vault, VaultAddress } = require("pulumi-custody") as typeof import("pulumi-custody");

  // The no-op resource of bench/fixtures/noop-dynamic, same props.
  const noopProvider: import("@pulumi/pulumi").dynamic.ResourceProvider = {
    async create(inputs) {
      return { id: "noop", outs: inputs };
    },
  };
  class NoopResource extends pulumi.dynamic.Resource {
    constructor(name: string, props: Record<string, unknown>) {
      super(noopProvider, name, { ...props }, undefined, "bench", "NoopVault");
    }
  }

  const kinds: Record<string, (i: number) => object> = {
    noop: (i) => new NoopResource(`noop-${i}`, { sleepMs: 50, parentId: "parent" }),
    Vault: (i) =>
      new Vault(`vault-${i}`, { name: `bench-vault-${i}`, type: "utxo", chain: "bitcoin_testnet" }),
    VaultAddress: (i) =>
      new VaultAddress(`address-${i}`, { vaultId: "vault-id", name: `bench-address-${i}` }),
    // The same Vault with the SDK's promise stacks captured, as `PULUMI_DEBUG_PROMISE_LEAKS` keeps them
    // (provider/resources/promise-stacks.ts); the variable is read per construction, so it is set only here.
    VaultWithStacks: (i) => {
      process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
      try {
        return new Vault(`stacks-${i}`, {
          name: `bench-stacks-${i}`,
          type: "utxo",
          chain: "bitcoin_testnet",
        });
      } finally {
        delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
      }
    },
  };
  const result: Record<string, Cost> = {};
  for (const [kind, make] of Object.entries(kinds)) {
    const sample = make(-1); // warm-up, and the property count
    // Every Output property but the `urn` and `id` each resource has.
    const declaredOutputs = Object.keys(sample).filter(
      (k) => k !== "urn" && k !== "id" && pulumi.Output.isInstance((sample as never)[k]),
    ).length;
    const before = process.cpuUsage();
    for (let i = 0; i < count; i++) make(i);
    const used = process.cpuUsage(before);
    result[kind] = { cpuMsPerResource: (used.user + used.system) / 1000 / count, declaredOutputs };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
