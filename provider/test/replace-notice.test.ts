// The warning a replace shows: on the vault's own row (the engine's Log RPC with the resource's URN, which
// Pulumi's dynamic-provider host does not pass to `diff`; the plugin has it in each request), and saying what
// `up` will really do: a revert restores the archived original rather than creating a new vault. The CLI's own
// output is checked in test/e2e/messages.test.ts.
import * as assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { vaultProvider } from "../shims/index";
import { LOG_SEVERITY, startFakeEngine } from "./fake-engine";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

const runtimeIndex = path.resolve(__dirname, "..", "core", "index.js");
const providerProto = path.join(
  path.dirname(require.resolve("@pulumi/pulumi/package.json")),
  "proto",
  "provider_pb.js",
);
// The provider plugin's command (`pulumi-resource-custody`, the bin of @pulumi-custody/plugin).
const pluginManifest = require.resolve("@pulumi-custody/plugin/package.json");
const pluginCli = path.join(
  path.dirname(pluginManifest),
  (require(pluginManifest) as { bin: Record<string, string> }).bin["pulumi-resource-custody"]!,
);
const ID = "44444444-4444-4444-8444-444444444444";
const URN = "urn:pulumi:dev::treasury::pulumi-nodejs:dynamic/custody:Vault::treasury";

/**
 * Runs a replace `diff` in a stand-in for Pulumi's dynamic-provider host (its main module under
 * `dynamic-provider/`, the engine's address as its argument), the way the host calls it: `configure` first,
 * then `diff(req.getId(), olds, news)` with the engine's `DiffRequest`.
 */
async function replaceDiffInHost(dir: string, engineAddress: string): Promise<void> {
  const hostDir = path.join(dir, "dynamic-provider");
  fs.mkdirSync(hostDir, { recursive: true });
  const host = path.join(hostDir, "index.js");
  fs.writeFileSync(
    host,
    `const runtime = require(${JSON.stringify(runtimeIndex)});
     const { DiffRequest } = require(${JSON.stringify(providerProto)});
     const req = new DiffRequest();
     req.setId(${JSON.stringify(ID)});
     req.setUrn(${JSON.stringify(URN)});
     runtime.configure({});
     runtime.vault
       .diff(req.getId(), { name: "Treasury", type: "evm", state: "active" }, { name: "Treasury", type: "solana" })
       .then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`,
  );
  await promisify(execFile)(process.execPath, [host, engineAddress], { timeout: 30_000 });
}

describe("the warning of a replace", () => {
  it("inside the dynamic-provider host: on the vault's row, the URN of the request", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-custody-replace-notice-"));
    const engine = await startFakeEngine();
    try {
      await replaceDiffInHost(dir, engine.address);
      assert.equal(engine.logs.length, 1);
      assert.equal(engine.logs[0]?.severity, LOG_SEVERITY.WARNING);
      assert.match(engine.logs[0]?.message ?? "", /vault "Treasury" .* must be replaced/);
      assert.equal(engine.logs[0]?.urn, URN);
    } finally {
      await engine.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("in the provider plugin: on the vault's row, the URN of the request", async () => {
    const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
    const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
    const providerRpc = require(path.join(pulumiDir, "proto", "provider_grpc_pb.js"));
    const { DiffRequest } = require(providerProto);
    const { Struct } = require(
      require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] }),
    );
    const engine = await startFakeEngine();
    const pluginUrn = "urn:pulumi:dev::treasury::custody:index:Vault::treasury";
    // As the engine starts it: its own process (it stops when the engine goes), the engine's address, the port
    // on the first line of output.
    const plugin = spawn(process.execPath, [pluginCli, engine.address], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        plugin.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
        plugin.once("exit", (code) => reject(new Error(`the plugin exited with ${code}`)));
      });
      const client = new providerRpc.ResourceProviderClient(
        `127.0.0.1:${port}`,
        grpc.credentials.createInsecure(),
      );
      const request = new DiffRequest();
      request.setId(ID);
      request.setUrn(pluginUrn);
      request.setType("custody:index:Vault");
      request.setOlds(Struct.fromJavaScript({ name: "Treasury", type: "evm", state: "active" }));
      request.setNews(Struct.fromJavaScript({ name: "Treasury", type: "solana" }));
      await new Promise((resolve, reject) =>
        client.diff(request, (err: Error | null, response: unknown) =>
          err ? reject(err) : resolve(response),
        ),
      );
      client.close();
      assert.equal(engine.logs.length, 1);
      assert.match(engine.logs[0]?.message ?? "", /vault "Treasury" .* must be replaced/);
      assert.equal(engine.logs[0]?.urn, pluginUrn);
    } finally {
      plugin.kill();
      await engine.stop();
    }
  });

  describe("says what `up` will do (emulator)", () => {
    let bed: ProviderTestbed;
    before(async () => {
      bed = await startProviderTestbed();
    });
    after(async () => bed.close());
    beforeEach(async () => bed.reset());

    async function diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
      assert.ok(vaultProvider.diff);
      return vaultProvider.diff(id, olds, news);
    }

    it("nothing archived to restore: the old vault is archived and a new vault is created", async () => {
      const vault = await bed.client.vaults.create({ name: "Replace Notice", type: "evm" });
      const result = await diff(
        vault.id,
        { name: "Replace Notice", type: "evm", state: "active" },
        { name: "Replace Notice", type: "solana" },
      );
      assert.deepEqual(result, { changes: true, replaces: ["type"], deleteBeforeReplace: true });
      assert.equal(bed.notices.length, 1);
      const [notice] = bed.notices;
      assert.match(notice ?? "", /the old vault will be ARCHIVED, not deleted/);
      assert.match(notice ?? "", /a new vault with a new address is created/);
      assert.doesNotMatch(notice ?? "", /is restored/);
    });

    it("a revert: the archived original is restored, as create does, and no new vault is promised", async () => {
      // What `up` left after a replace evm -> solana: the original archived and renamed out of the name's way.
      const original = await bed.client.vaults.create({ name: "Revert Notice", type: "evm" });
      await bed.client.vaults.archive(original.id);
      const renamed = `Revert Notice (archived ${original.id.slice(0, 8)})`;
      await bed.client.vaults.rename(original.id, renamed);
      const replacement = await bed.client.vaults.create({ name: "Revert Notice", type: "solana" });

      await diff(
        replacement.id,
        { name: "Revert Notice", type: "solana", state: "active" },
        { name: "Revert Notice", type: "evm" },
      );
      assert.equal(bed.notices.length, 1);
      const [notice] = bed.notices;
      assert.match(notice ?? "", /vault "Revert Notice" \(.*\) must be replaced \(type "solana" -> "evm"\)/);
      assert.match(notice ?? "", /the old vault will be ARCHIVED, not deleted/);
      assert.ok(
        (notice ?? "").includes(
          `vault "${renamed}" (${original.id}), archived earlier and matching the new declaration, is restored`,
        ),
        notice,
      );
      assert.doesNotMatch(notice ?? "", /a new vault with a new address is created/);

      // And that is what `up` does: delete (archive) the replacement, then create.
      assert.ok(vaultProvider.delete && vaultProvider.create);
      await vaultProvider.delete(replacement.id, { name: "Revert Notice", type: "solana" });
      const created = await vaultProvider.create({ name: "Revert Notice", type: "evm", __provider: "p" });
      assert.equal(created.id, original.id);
    });

    it("a replace whose new inputs are not known yet (preview): no promise either way", async () => {
      const vault = await bed.client.vaults.create({ name: "Unknown Notice", type: "evm" });
      await diff(
        vault.id,
        { name: "Unknown Notice", type: "evm", state: "active" },
        { name: "Unknown Notice", type: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" },
      );
      const [notice] = bed.notices;
      assert.match(
        notice ?? "",
        /a new vault is created, unless an archived vault that matches the new declaration is found, which is restored/,
      );
    });
  });
});
