// The serialized providers (`__provider` in every resource's state). Loaded from node_modules, as programs load
// the package, each is a bare `require` of its module, a few hundred bytes. Loaded any other way (a linked or
// bundled copy), it is serialized by value: still small, free of credentials, and able to find the
// implementation from a program directory that has no node_modules/pulumi-custody.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type * as pulumiPackage from "@pulumi/pulumi";
import type * as providerCore from "../core/index";
import { configure } from "../core/index";
import type * as providerPackage from "../index";
import { vaultAddressProvider, vaultProvider } from "../shims/index";
import { installedPackage, PACKAGE_DIR } from "./installed-package";

/** Upper bound for a serialized provider loaded from node_modules; it is stored twice per resource. */
const MAX_REQUIRE_BYTES = 400;
/** Upper bound for one serialized by value. */
const MAX_BY_VALUE_BYTES = 4608;
const TOKEN = "tok-serialization-canary-9f8e7d6c";

// The package as a program installs it, in its program directory's node_modules (./installed-package.ts).
const program = installedPackage();
const installed: typeof providerPackage = program.require("pulumi-custody");
const installedCore: typeof providerCore = program.require("pulumi-custody/core");
// The program's own @pulumi/pulumi, which serializes its resources' providers.
const pulumi: typeof pulumiPackage = program.require("@pulumi/pulumi");
// The provider package's own build (`vaultProvider`, `vaultAddressProvider` above), outside any node_modules:
// what a linked (or bundled) copy gives Pulumi's serializer, which then serializes the providers by value.

/** The directories of this checkout a serialized provider could name: the package's and its dependencies'. */
const checkoutDirs = [PACKAGE_DIR, ...Object.values(program.linked)];

async function serialized(provider: unknown) {
  return pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
}

describe("serialized providers", () => {
  const savedEnv = { ...process.env };
  before(() => {
    // A token configured in every way the provider reads one, at the time of serialization.
    process.env.CUSTODY_ACCESS_TOKEN = TOKEN;
    process.env.CUSTODY_BASE_URL = "https://custody.example.test";
    for (const configureCopy of [configure, installedCore.configure]) {
      configureCopy({ "custody:accessToken": TOKEN, "custody:baseUrl": "https://custody.example.test" });
    }
  });
  after(() => {
    process.env = savedEnv;
    configure(undefined);
    installedCore.configure(undefined);
  });

  describe("loaded from node_modules, as programs load the package", () => {
    for (const [name, provider, module] of [
      ["Vault", installed.vaultProvider, "pulumi-custody/provider-runtime/vault"],
      ["VaultAddress", installed.vaultAddressProvider, "pulumi-custody/provider-runtime/vault-address"],
    ] as const) {
      it(`${name}: is a bare require of ${module} (< ${MAX_REQUIRE_BYTES} bytes), with no secret`, async () => {
        assert.ok(program.require.resolve("pulumi-custody").includes(`${path.sep}node_modules${path.sep}`));
        const { text, containsSecrets } = await serialized(provider);
        const size = Buffer.byteLength(text);
        console.log(`      serialized ${name} provider: ${size} bytes`);
        assert.ok(size < MAX_REQUIRE_BYTES, `${size} bytes:\n${text}`);
        assert.equal(containsSecrets, false);
        assert.ok(!text.includes(TOKEN), "the token appears in the serialized provider");
        const requires = [...text.matchAll(/require\(([^)]*)\)/g)].map((m) => m[1]);
        assert.deepEqual(requires, [JSON.stringify(module)]);
      });
    }

    it("the module it requires is the provider, with every method", () => {
      for (const [module, provider] of [
        ["pulumi-custody/provider-runtime/vault", installed.vaultProvider],
        ["pulumi-custody/provider-runtime/vault-address", installed.vaultAddressProvider],
      ] as const) {
        const loaded: Record<string, unknown> = program.require(module);
        assert.equal(loaded, provider);
        for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"]) {
          assert.equal(typeof loaded[method], "function", `${module}: ${method}`);
        }
      }
    });
  });

  describe("installed in a folder whose path holds the package's name (a repository named pulumi-custody-infra)", () => {
    // Pulumi's serializer then cannot find the package's package.json and names the module's file instead of
    // its export (getPackageDefinition in @pulumi/pulumi's runtime/closure/package.js takes the first occurrence
    // of the name in the path): the package exports those files too, so that the state's require resolves.
    const named = installedPackage("pulumi-custody-infra-");
    const namedPackage: typeof providerPackage = named.require("pulumi-custody");
    const namedPulumi: typeof pulumiPackage = named.require("@pulumi/pulumi");
    for (const [name, provider] of [
      ["Vault", namedPackage.vaultProvider],
      ["VaultAddress", namedPackage.vaultAddressProvider],
    ] as const) {
      it(`${name}: its require resolves from the program to the provider, with every method`, async () => {
        const { text } = await namedPulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
        const requires = [...text.matchAll(/require\("([^"]*)"\)/g)].map((m) => m[1] as string);
        assert.equal(requires.length, 1, text);
        const loaded: Record<string, unknown> = named.require(requires[0] as string);
        assert.equal(loaded, provider);
        for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"])
          assert.equal(typeof loaded[method], "function", `${requires[0]}: ${method}`);
      });
    }
  });

  for (const [name, provider] of [
    ["Vault", vaultProvider],
    ["VaultAddress", vaultAddressProvider],
  ] as const) {
    describe(`${name}, serialized by value (a linked or bundled copy)`, () => {
      it(`is small (< ${MAX_BY_VALUE_BYTES} bytes), captures no secret and no token`, async () => {
        const { text, containsSecrets } = await serialized(provider);
        const size = Buffer.byteLength(text);
        console.log(`      serialized ${name} provider: ${size} bytes`);
        assert.ok(size < MAX_BY_VALUE_BYTES, `${size} bytes`);
        assert.equal(containsSecrets, false);
        assert.ok(!text.includes(TOKEN), "the token appears in the serialized provider");
        assert.ok(!text.includes("custody.example.test"), "a setting appears in the serialized provider");
      });

      it("holds no absolute path and delegates to pulumi-custody/core", async () => {
        const { text } = await serialized(provider);
        for (const dir of checkoutDirs) {
          assert.ok(!text.includes(dir), `an absolute path of this checkout (${dir}) is baked in`);
        }
        // A computed name, so that bundlers leave the require to Node.js.
        assert.match(text, /require\(\["pulumi-custody", "core"\]\.join\("\/"\)\)/);
      });

      it("is the same text every time (stable across resources)", async () => {
        assert.equal((await serialized(provider)).text, (await serialized(provider)).text);
      });
    });
  }

  describe("loading the implementation in a provider process", () => {
    let scratch: string | undefined;
    after(() => {
      if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    });

    /** Runs a serialized Vault provider's `check` in a fresh node process started in `cwd`. */
    async function runSerializedCheck(cwd: string, provider: unknown = vaultProvider) {
      const { text } = await serialized(provider);
      scratch ??= fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-custody-shim-"));
      const file = path.join(scratch, "provider.js");
      fs.writeFileSync(file, text);
      // As the dynamic-provider host does: the module is compiled with paths relative to the cwd.
      const script = `
        const Module = require("module");
        const text = require("fs").readFileSync(${JSON.stringify(file)}, "utf8");
        const m = new Module("", null);
        m.paths = Module._nodeModulePaths(require("path").dirname(""));
        m._compile(text, "");
        m.exports.handler().check({}, { name: "v", type: "utxo" })
          .then((r) => console.log(JSON.stringify(r.failures)), (e) => { console.log("ERROR " + e.message); });`;
      const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], { cwd });
      return stdout.trim();
    }

    it("loaded from node_modules, finds the implementation from the program directory", async () => {
      const out = await runSerializedCheck(program.dir, installed.vaultProvider);
      assert.deepEqual(JSON.parse(out), [
        { property: "chain", reason: 'is required for "utxo" vaults (e.g. "bitcoin_mainnet")' },
      ]);
    });

    it("by value, finds the package from a program directory whose node_modules has it", async () => {
      const out = await runSerializedCheck(program.dir);
      assert.deepEqual(JSON.parse(out), [
        { property: "chain", reason: 'is required for "utxo" vaults (e.g. "bitcoin_mainnet")' },
      ]);
    });

    it("by value, outside any checkout, fails saying the program must depend on pulumi-custody", async () => {
      const out = await runSerializedCheck(os.tmpdir());
      assert.match(out, /^ERROR Cannot load pulumi-custody\/core/);
      assert.match(out, /npm install pulumi-custody/);
    });
  });
});
