/**
 * The TypeScript program of the end-to-end suites of the packages as users install them
 * (test/e2e/delivered-packages.test.ts runs it, test/e2e/delivered-types.test.ts type-checks it): a program on the
 * provider's package, one import of every entry point of every package, the policy package's entry point, and the
 * tsconfig `pulumi new typescript` writes.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { programToolVersions } from "./release";

/**
 * The tsconfig of `pulumi new typescript` (v3.248.0's template), for `files`; under TypeScript 6 with the
 * `ignoreDeprecations` its classic module resolution then needs (README.md, "Installing it in your project").
 */
export function templateTsconfig(files: string[]) {
  const tsMajor = Number(programToolVersions().typescript.split(".")[0]);
  return {
    compilerOptions: {
      strict: true,
      outDir: "bin",
      target: "es2020",
      module: "commonjs",
      moduleResolution: "node",
      sourceMap: true,
      experimentalDecorators: true,
      pretty: true,
      noFallthroughCasesInSwitch: true,
      noImplicitReturns: true,
      forceConsistentCasingInFileNames: true,
      ...(tsMajor >= 6 ? { ignoreDeprecations: "6.0" } : {}),
    } as Record<string, unknown>,
    files,
  };
}

export const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { getBlockchains, Vault, VaultAddress } from "pulumi-custody";

const config = new pulumi.Config();
const cold = new Vault("cold", { name: config.require("coldName"), type: "utxo", chain: "bitcoin_testnet" });
const deposits = new VaultAddress("deposits", { vaultId: cold.id, addressType: "segwit" });
new Vault("hot", { name: \`\${config.require("coldName")} hot\`, type: "evm" });
export const coldId = cold.id;
export const depositAddress = deposits.address;
export const chains = pulumi.output(getBlockchains()).apply((list) => list.length);
`;

/** One import of every entry point of every package, type-checked but never run. */
export const ENTRY_POINTS = `import { Vault } from "pulumi-custody";
import { CUSTODY_RESOURCES, type VaultInputs } from "pulumi-custody/core";
import { CustodyClient } from "@pulumi-custody/sdk";
import { Vault as VaultSchema } from "@pulumi-custody/sdk/schema";
import { verifyWebhookSignature } from "@pulumi-custody/sdk/signing";
import { type EmulatorOptions, startEmulator } from "@pulumi-custody/emulator";
import { packageSchema } from "@pulumi-custody/plugin";
import { COMMANDS } from "@pulumi-custody/cli";
import * as custody from "@pulumi-custody/custody";

const inputs: Partial<VaultInputs> = { name: "typed" };
const options: EmulatorOptions = { port: 0 };
export const used = [Vault, CUSTODY_RESOURCES, CustodyClient, VaultSchema, verifyWebhookSignature, startEmulator,
  packageSchema, COMMANDS, custody.Vault, inputs, options];
`;

/**
 * The policy package's entry point, type-checked with \`skipLibCheck\`: the declarations of \`@pulumi/policy\`
 * 1.21.0 itself do not type-check without it (its index.d.ts re-exports names its proxy.d.ts lacks), so a
 * policy pack project needs it whatever it imports (README.md, "Installing it in your project").
 */
export const POLICY_ENTRY_POINT = `import { custodyPolicies } from "@pulumi-custody/policy";
export const policies = custodyPolicies();
`;

/** A `pulumi new typescript` project in `dir` with the program, the entry points and the policy entry point. */
export function writeProgramProject(dir: string, name: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(templateTsconfig(["index.ts"])));
  fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
  fs.writeFileSync(path.join(dir, "entry-points.ts"), ENTRY_POINTS);
  fs.writeFileSync(path.join(dir, "policy-entry-point.ts"), POLICY_ENTRY_POINT);
}
