// The state file with the real CLI as a child process: restarts keep data, keys and tokens; `kill -9`
// between and during writes never leaves a torn file; corrupt or foreign files give a clear error and are
// left untouched.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type CliProcess, type Loose, rawCall, runCli, startCli } from "@pulumi-custody/testing";
import { Agent, request } from "undici";
import { EmulatorControlClient } from "../control/client";
import { StateFileError, startEmulator } from "../index";

describe("emulator: state file", function () {
  this.timeout(60_000);
  let dir: string;
  let running: CliProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "custody-emulator-state-"));
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) await running.kill();
    running = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const api = (p: CliProcess, method: string, url: string, json?: unknown) =>
    rawCall(p.info.baseUrl, method, url, { json, defaultToken: p.info.accessToken });
  const control = (p: CliProcess) =>
    new EmulatorControlClient({ baseUrl: p.info.baseUrl, controlToken: p.info.controlToken });

  it("survives a restart with data, keys and tokens, and the file is JSON with a format version", async () => {
    const file = path.join(dir, "state.json");
    running = await startCli(["--state-file", file, "--seed", "empty"]);
    const first = running.info;
    const vault = (
      await api(running, "POST", "/api/v1/vaults", { name: "kept", type: "utxo", chain: "bitcoin_mainnet" })
    ).body;
    await api(running, "POST", `/api/v1/vaults/${vault.id}/addresses`, { name: "second" });
    await control(running).createWebhookEndpoint({ url: "http://127.0.0.1:9/hooks" });
    const before = (await api(running, "GET", `/api/v1/vaults/${vault.id}`)).body;
    assert.equal(await running.stop("SIGTERM"), 0);
    assert.match(running.stderr(), /stopped \(SIGTERM\)/);
    const saved = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(saved.format_version, 1);
    assert.deepEqual(readdirSync(dir), ["state.json"], "no temporary files left");

    running = await startCli(["--state-file", file]);
    assert.equal(running.info.accessToken, first.accessToken);
    assert.equal(running.info.controlToken, first.controlToken);
    assert.equal(running.info.apiUserPrivateKeyPem, first.apiUserPrivateKeyPem);
    assert.equal(running.info.webhookPublicKeyPem, first.webhookPublicKeyPem);
    const again = (await api(running, "GET", `/api/v1/vaults/${vault.id}`)).body;
    assert.deepEqual(again, before);
    const addresses = (await api(running, "GET", `/api/v1/vaults/${vault.id}/addresses`)).body;
    assert.deepEqual(
      addresses.addresses.map((a: Loose) => a.name),
      ["Address 1", "second"],
    );
    assert.equal((await control(running).listWebhookEndpoints()).length, 1);
    // Ids continue from the saved counter: no id is reused.
    const next = (await api(running, "POST", "/api/v1/vaults", { name: "after restart", type: "evm" })).body;
    assert.notEqual(next.id, vault.id);
    assert.equal((await api(running, "GET", "/api/v1/vaults")).body.total, 2);
  });

  it("survives kill -9 between writes and during a stream of writes, without a torn file", async () => {
    const file = path.join(dir, "state.json");
    const agent = new Agent({ connections: 16 });
    try {
      let durable = 0;
      for (let round = 0; round < 4; round++) {
        running = await startCli(["--state-file", file, "--seed", "empty"]);
        const existing = (await api(running, "GET", "/api/v1/vaults", undefined)).body.total;
        assert.ok(
          existing >= durable,
          `round ${round}: ${existing} vaults, at least ${durable} were flushed`,
        );
        for (let i = 0; i < 5; i++) {
          assert.equal(
            (await api(running, "POST", "/api/v1/vaults", { name: `r${round} flushed ${i}`, type: "evm" }))
              .status,
            201,
          );
        }
        await control(running).flush();
        durable = existing + 5;
        // A stream of writes in flight when the process is killed.
        const inFlight = Array.from({ length: 200 }, (_, i) =>
          request(`${running!.info.baseUrl}/api/v1/vaults`, {
            method: "POST",
            dispatcher: agent,
            headers: {
              authorization: `Bearer ${running!.info.accessToken}`,
              "content-type": "application/json",
            },
            body: JSON.stringify({
              name: `r${round} stream ${i}`,
              type: i % 2 ? "evm" : "utxo",
              chain: "bitcoin_testnet",
            }),
          }).then(
            (r) => r.body.text().then(() => r.statusCode),
            () => 0,
          ),
        );
        await new Promise((r) => setTimeout(r, 5 + round * 20));
        await running.kill();
        await Promise.all(inFlight);
        const text = readFileSync(file, "utf8");
        const state = JSON.parse(text);
        assert.equal(state.format_version, 1);
        assert.ok(state.vaults.length >= durable);
        const names = state.vaults.map((v: Loose) => v.name);
        assert.equal(new Set(names).size, names.length);
        for (let i = 0; i < 5; i++) assert.ok(names.includes(`r${round} flushed ${i}`));
      }
      running = await startCli(["--state-file", file]);
      const total = (await api(running, "GET", "/api/v1/vaults", undefined)).body.total;
      assert.ok(total >= durable);
      assert.equal(
        readdirSync(dir).filter((n) => n.endsWith(".tmp")).length,
        0,
        "stale temp files are removed on load",
      );
    } finally {
      await agent.close();
    }
  });

  it("keeps every acknowledged write through kill -9 right after the response, and never reuses an id", async () => {
    const file = path.join(dir, "state.json");
    const agent = new Agent({ connections: 8 });
    const acknowledged = new Map<string, string>(); // id -> name
    try {
      for (let round = 0; round < 4; round++) {
        running = await startCli(["--state-file", file, "--seed", "empty"]);
        const proc = running;
        // Every write acknowledged so far is there, under its own id.
        for (const [id, name] of acknowledged) {
          const got = await api(proc, "GET", `/api/v1/vaults/${id}`);
          assert.equal(got.status, 200, `round ${round}: acknowledged vault ${name} (${id}) was lost`);
          assert.equal(got.body.name, name, `round ${round}: id ${id} now belongs to another vault`);
        }
        // Writes in flight; the process is killed the moment the first 201 arrives.
        let killed: Promise<void> | undefined;
        const writes = Array.from({ length: 8 }, (_, i) =>
          request(`${proc.info.baseUrl}/api/v1/vaults`, {
            method: "POST",
            dispatcher: agent,
            headers: { authorization: `Bearer ${proc.info.accessToken}`, "content-type": "application/json" },
            body: JSON.stringify({ name: `round ${round} vault ${i}`, type: "evm" }),
          }).then(
            async (r) => {
              const text = await r.body.text();
              if (r.statusCode !== 201) return;
              const vault = JSON.parse(text) as Loose;
              assert.ok(!acknowledged.has(vault.id), `id ${vault.id} was handed out twice`);
              acknowledged.set(vault.id, vault.name);
              killed ??= proc.kill();
            },
            () => undefined,
          ),
        );
        await Promise.all(writes);
        await (killed ?? proc.kill());
      }
      assert.ok(acknowledged.size >= 4, `${acknowledged.size} writes acknowledged`);
    } finally {
      await agent.close();
    }
  });

  it("refuses a corrupt state file with a clear error naming it, and leaves it untouched", async () => {
    const file = path.join(dir, "state.json");
    writeFileSync(file, '{"format_version": 1, "vaults": [');
    const run = await runCli(["--port", "0", "--state-file", file]);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      new RegExp(
        `cannot use state file ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: it is not valid JSON`,
      ),
    );
    assert.match(run.stderr, /left untouched/);
    assert.equal(run.stdout, "");
    assert.equal(readFileSync(file, "utf8"), '{"format_version": 1, "vaults": [');
    await assert.rejects(
      startEmulator({ stateFile: file }),
      (err: unknown) => err instanceof StateFileError && err.file === file,
    );
  });

  it("refuses a state file of another format version or shape", async () => {
    const file = path.join(dir, "state.json");
    const v2 = JSON.stringify({ format_version: 2 });
    writeFileSync(file, v2);
    const run = await runCli(["--port", "0", "--state-file", file]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /format version 2, and this emulator reads version 1/);
    assert.equal(readFileSync(file, "utf8"), v2);
    writeFileSync(file, JSON.stringify({ format_version: 1, vaults: "nope" }));
    const shape = await runCli(["--port", "0", "--state-file", file]);
    assert.equal(shape.code, 1);
    assert.match(shape.stderr, /field \w+ is invalid/);
    writeFileSync(file, "[]");
    assert.match(
      (await runCli(["--port", "0", "--state-file", file])).stderr,
      /not a custody-emulator state file/,
    );
  });

  it("writes the state file on SIGINT too, and an in-process emulator persists before answering and on close()", async () => {
    const file = path.join(dir, "state.json");
    running = await startCli(["--state-file", file, "--seed", "empty"]);
    await api(running, "POST", "/api/v1/vaults", { name: "on sigint", type: "evm" });
    assert.equal(await running.stop("SIGINT"), 0);
    assert.ok(JSON.parse(readFileSync(file, "utf8")).vaults.some((v: Loose) => v.name === "on sigint"));
    const emulator = await startEmulator({ stateFile: file, persistDebounceMs: 60_000 });
    await rawCall(emulator.baseUrl, "POST", "/api/v1/vaults", {
      json: { name: "on close", type: "evm" },
      defaultToken: emulator.accessToken,
    });
    // Acknowledged means written, whatever the debounce of background changes.
    assert.equal((await emulator.control.persistence()).pendingWrite, false);
    assert.ok(JSON.parse(readFileSync(file, "utf8")).vaults.some((v: Loose) => v.name === "on close"));
    await emulator.close();
    assert.ok(JSON.parse(readFileSync(file, "utf8")).vaults.some((v: Loose) => v.name === "on close"));
  });
});
