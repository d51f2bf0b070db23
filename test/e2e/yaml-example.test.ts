// examples/yaml-vaults, a Pulumi YAML program, as a user runs it: copied out of the repository, run by the
// upstream YAML language host (`pulumi-language-yaml`, built from github.com/pulumi/pulumi-yaml by
// scripts/install-pulumi.sh) under the real CLI, through the plugin installed from its release archive, against
// the emulator, with no Node.js on the stack's PATH (the plugin's archive holds one self-contained executable):
// what only a YAML program can break, that the upstream host loads the plugin's schema and runs the program's
// resources and data-source lookup, and the preview after it has nothing to do. The provider's own lifecycle on
// the plugin path (rename, drift and its repair, archive and restore) is proven once, by
// test/e2e/native-plugin.test.ts; importing into a YAML program, by test/e2e/onboarding.test.ts (docs/testing.md).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  apiAddresses,
  apiVaultsNamed,
  configureForEmulator,
  pulumiCli,
  startTestEmulator,
  stateResources,
  type TestEmulator,
} from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths, repoPath } from "../support/pulumi-engine";
import {
  installPluginFromArchive,
  type ReleaseArtifacts,
  releaseArtifacts,
  userPath,
} from "../support/release";
import { findOnPath, pathWithoutNode } from "../support/without-node";

const VAULT = "custody:index:Vault";
const ADDRESS = "custody:index:VaultAddress";

describe("examples/yaml-vaults: a Pulumi YAML program on the upstream YAML host (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;
  let tempRoot: string;
  const ids = new Map<string, string>();

  before(async function () {
    this.timeout(40 * 60_000);
    const engine = await enginePaths();
    await fs.promises
      .access(path.join(engine.binDir, "pulumi-language-yaml"), fs.constants.X_OK)
      .catch(() => {
        throw new Error(`${engine.binDir} has no pulumi-language-yaml: run scripts/install-pulumi.sh`);
      });
    await releaseArtifacts();
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "yaml-example-e2e-"));
    const dir = path.join(tempRoot, "yaml-vaults");
    await fs.promises.cp(repoPath("examples", "yaml-vaults"), dir, { recursive: true });
    emulator = await startTestEmulator();
    // No plugin on PATH: the engine takes the one installed from the archive. No Node.js either: neither the
    // YAML host nor the plugin needs it.
    stack = await createLocalStack({
      projectDir: dir,
      stackName: "yaml",
      envVars: { PATH: await pathWithoutNode(userPath(engine.binDir), tempRoot) },
    });
    await installPluginFromArchive(stack);
    await configureForEmulator(stack, emulator);
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  it("the YAML host that runs it is the upstream one, at the version language-hosts/yaml pins", async () => {
    const { stdout } = await pulumiCli(stack, ["about", "--json"]);
    const about = JSON.parse(stdout) as { plugins?: { name: string; kind: string; version?: string }[] };
    const pinned = /^require github\.com\/pulumi\/pulumi-yaml v([0-9.]+)$/m.exec(
      fs.readFileSync(repoPath("language-hosts", "yaml", "go.mod"), "utf8"),
    )?.[1];
    assert.ok(pinned, "language-hosts/yaml/go.mod pins a pulumi-yaml version");
    const host = about.plugins?.find((p) => p.kind === "language" && p.name === "yaml");
    assert.equal(host?.version, pinned, stdout);
    assert.ok(
      about.plugins?.some((p) => p.kind === "resource" && p.name === "custody"),
      stdout,
    );
  });

  it("the stack's PATH holds the engine and its YAML host, and no node", () => {
    const stackPath = String(stack.workspace.envVars.PATH);
    assert.equal(findOnPath("node", stackPath), undefined);
    assert.ok(findOnPath("pulumi-language-yaml", stackPath), stackPath);
    assert.ok(findOnPath("pulumi", stackPath), stackPath);
  });

  it("up creates the vaults and the address, and the data source finds the vault that existed", async () => {
    const up = await stack.up();

    assert.equal(up.summary.result, "succeeded");
    assert.deepEqual(up.summary.resourceChanges, { create: 4 }, "the stack, 2 vaults and 1 address");
    const vaults = await stateResources(stack, VAULT);
    for (const [key, resource] of vaults) ids.set(key, String(resource.id));
    const live = await apiVaultsNamed(emulator.client, ["YAML Treasury", "YAML Bitcoin"]);
    assert.deepEqual(live.map((v) => v.id).sort(), [...vaults.values()].map((r) => String(r.id)).sort());
    const deposits = (await apiAddresses(emulator.client, ids.get("bitcoin")!)).find(
      (a) => a.name === "Deposits",
    );
    assert.ok(deposits);
    assert.equal((await stateResources(stack, ADDRESS)).get("deposits")?.id, deposits.id);
    assert.equal(up.outputs.depositAddress.value, deposits.address.address);
    assert.equal(up.outputs.treasuryVaultId.value, ids.get("treasury"));
    assert.equal(up.outputs.bitcoinState.value, "active");
    const [seeded] = await apiVaultsNamed(emulator.client, ["Treasury ETH"]);
    const found = up.outputs.lookedUpVaults.value as { id: string; name: string }[];
    assert.deepEqual(
      found.map((v) => [v.id, v.name]),
      [[seeded.id, "Treasury ETH"]],
    );
    await stack.preview({ expectNoChanges: true });
  });
});

/**
 * A plugin release and the Internet, on 127.0.0.1: it serves the plugin archive under `/ours/` (our release, the
 * schema's `pluginDownloadURL`, redirected here), answers 404 under `/pulumi/` (where the engine looks for a
 * plugin nothing names a URL for: github.com/pulumi's releases), and refuses every proxied connection (any other
 * host), recording each request, so that nothing leaves the machine and the test sees where the engine went.
 */
async function startReleaseServer(release: ReleaseArtifacts) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const archive =
      /^\/ours\/pulumi-resource-custody-v([^/]+)-(linux|darwin|windows)-(amd64|arm64)\.tar\.gz$/.exec(
        req.url ?? "",
      );
    if (req.method === "GET" && archive?.[1] === release.version) {
      // The engine checks the length it was told against the bytes it got.
      res.writeHead(200, {
        "content-type": "application/gzip",
        "content-length": fs.statSync(release.pluginArchive).size,
      });
      fs.createReadStream(release.pluginArchive).pipe(res);
      return;
    }
    res.writeHead(404).end();
  });
  server.on("connect", (req, socket) => {
    requests.push(`CONNECT ${req.url}`);
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    requests,
    /**
     * The environment that sends the engine's downloads here: our release URL to `/ours`, the engine's fallback
     * for unnamed plugins to `/pulumi` (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, matched against the download URL),
     * and any other host through this server as a proxy, which refuses it (Go never proxies loopback addresses).
     */
    env: (downloadURL: string) => ({
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: [
        `^${downloadURL.replace(/[.]/g, "\\.")}$=${base}/ours`,
        `^github://api\\.github\\.com/pulumi$=${base}/pulumi`,
        `^https://get\\.pulumi\\.com=${base}/pulumi`,
      ].join(","),
      HTTPS_PROXY: base,
      HTTP_PROXY: base,
      https_proxy: base,
      http_proxy: base,
      NO_PROXY: "",
      no_proxy: "",
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("examples/yaml-vaults: where the engine gets the plugin of a YAML program (real engine, loopback release)", () => {
  let release: ReleaseArtifacts;
  let tempRoot: string;
  let dir: string;
  let emulator: TestEmulator;
  let downloadURL: string;

  before(async function () {
    this.timeout(40 * 60_000);
    release = await releaseArtifacts();
    downloadURL = (JSON.parse(fs.readFileSync(release.schema, "utf8")) as { pluginDownloadURL: string })
      .pluginDownloadURL;
    tempRoot = await fs.promises.mkdtemp(path.join(os.tmpdir(), "yaml-download-e2e-"));
    dir = path.join(tempRoot, "yaml-vaults");
    await fs.promises.cp(repoPath("examples", "yaml-vaults"), dir, { recursive: true });
    emulator = await startTestEmulator();
  });

  after(async () => {
    if (emulator) await emulator.stop();
    if (tempRoot) await fs.promises.rm(tempRoot, { recursive: true, force: true });
  });

  it("the engine downloads the version the example declares from our release URL, and the preview runs", async function () {
    this.timeout(15 * 60_000);
    const server = await startReleaseServer(release);
    // No plugin on PATH or in PULUMI_HOME; automatic acquisition on, as on a user's machine.
    const stack = await createLocalStack({
      projectDir: dir,
      stackName: "download",
      envVars: {
        PATH: userPath((await enginePaths()).binDir),
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
        ...server.env(downloadURL),
      },
    });
    try {
      await configureForEmulator(stack, emulator);

      const preview = await pulumiCli(stack, ["preview"]).then(
        (r) => ({ ok: true, out: `${r.stdout}\n${r.stderr}` }),
        (err: { stdout?: string; stderr?: string }) => ({ ok: false, out: `${err.stdout}\n${err.stderr}` }),
      );

      const archive = `GET /ours/pulumi-resource-custody-v${release.version}-${process.platform}-${
        { x64: "amd64", arm64: "arm64" }[process.arch as string] ?? process.arch
      }.tar.gz`;
      assert.ok(server.requests.includes(archive), `${archive} in ${JSON.stringify(server.requests)}`);
      assert.deepEqual(
        server.requests.filter((r) => !r.startsWith("GET /ours/")),
        [],
        "nothing asked of github.com/pulumi or of any other host",
      );
      assert.ok(preview.ok, preview.out);
      const { stdout } = await pulumiCli(stack, ["plugin", "ls", "--json"], { onStack: false });
      const plugins = JSON.parse(stdout) as { name: string; kind: string; version: string }[];
      assert.ok(
        plugins.some((p) => p.name === "custody" && p.kind === "resource" && p.version === release.version),
        stdout,
      );
    } finally {
      await disposeLocalStack(stack);
      await server.close();
    }
  });

  it("without the plugin and without downloads, the error names the version and our release URL", async function () {
    this.timeout(10 * 60_000);
    const stack = await createLocalStack({
      projectDir: dir,
      stackName: "offline",
      envVars: { PATH: userPath((await enginePaths()).binDir) },
    });
    try {
      await configureForEmulator(stack, emulator);
      const failed = await pulumiCli(stack, ["preview"]).then(
        () => "",
        (err: { stdout?: string; stderr?: string }) => `${err.stdout}\n${err.stderr}`,
      );
      assert.match(failed, /no resource plugin 'pulumi-resource-custody' found/);
      assert.match(failed, new RegExp(`v${release.version.replace(/\./g, "\\.")}`));
      assert.ok(failed.includes(downloadURL), failed);
    } finally {
      await disposeLocalStack(stack);
    }
  });
});
