// A vault whose name is secret, on the dynamic provider: the engine hands the provider the name in plain text
// (Pulumi's dynamic-provider host does not accept secrets), so the `Vault` class adds `__nameIsSecret: true`,
// and the provider writes `[secret]` for the name in every notice and error. `check` keeps the flag, `diff`
// ignores it, and the outputs carry it to `delete`.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { setNoticeSink } from "../core/index";
import { vaultProvider } from "../shims/index";
import { startFakeEngine } from "./fake-engine";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

const FLAG = "__nameIsSecret";
const ID = "44444444-4444-4444-8444-444444444444";
const NAME = "treasury-7";
const PROVIDER_TEXT = "exports.handler = …";

function vaultState(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: NAME,
    type: "evm",
    state: "active",
    vaultGroupIds: [],
    pendingVaultGroupIds: [],
    pendingRemovalVaultGroupIds: [],
    adoptExisting: false,
    acquisition: "created",
    __provider: "old provider text",
    ...overrides,
  };
}

function vaultInputs(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: NAME, type: "evm", __provider: "new provider text", ...overrides };
}

function assertMasked(text: string | undefined, name = NAME): void {
  assert.ok(text, "a notice was shown");
  assert.ok(!text.includes(name), `the secret name is shown: ${text}`);
  assert.match(text, /\[secret\]/);
}

describe("a secret vault name on the dynamic provider", () => {
  describe("diff's notices (no API)", () => {
    let notices: string[];
    let restore: () => void;
    beforeEach(() => {
      notices = [];
      restore = setNoticeSink((m) => {
        notices.push(m);
      });
    });
    afterEach(() => restore());

    async function diff(olds: Record<string, unknown>, news: Record<string, unknown>) {
      assert.ok(vaultProvider.diff);
      return vaultProvider.diff(ID, olds, news);
    }

    it("a replace: the notice writes [secret] for the name and for its archived form", async () => {
      const result = await diff(vaultState({ [FLAG]: true }), vaultInputs({ type: "solana", [FLAG]: true }));
      assert.deepEqual(result, { changes: true, replaces: ["type"], deleteBeforeReplace: true });
      assert.equal(notices.length, 1);
      assertMasked(notices[0]);
      assert.match(
        notices[0] ?? "",
        /^vault "\[secret\]" \(4444.*\) must be replaced \(type "evm" -> "solana"\)/,
      );
      assert.match(notices[0] ?? "", /renamed to "\[secret\] \(archived 44444444\)"/);
    });

    it("a replace of a vault whose name only now turned secret (the state has no flag yet): masked too", async () => {
      await diff(vaultState(), vaultInputs({ type: "solana", [FLAG]: true }));
      assertMasked(notices[0]);
    });

    it("a name of under four characters is masked as well", async () => {
      await diff(
        vaultState({ name: "t7", [FLAG]: true }),
        vaultInputs({ name: "t7", type: "solana", [FLAG]: true }),
      );
      assert.match(notices[0] ?? "", /^vault "\[secret\]"/);
      assert.match(notices[0] ?? "", /renamed to "\[secret\] \(archived 44444444\)"/);
      assert.doesNotMatch(notices[0] ?? "", /"t7/);
    });

    it("archiving (archived: true) and an archived vault to restore: [secret] in both notices", async () => {
      await diff(vaultState({ [FLAG]: true }), vaultInputs({ archived: true, [FLAG]: true }));
      await diff(vaultState({ state: "archived", [FLAG]: true }), vaultInputs({ [FLAG]: true }));
      assert.equal(notices.length, 2);
      assert.match(notices[0] ?? "", /will be ARCHIVED/);
      assert.match(notices[1] ?? "", /is archived/);
      for (const notice of notices) assertMasked(notice);
    });

    it("a name that is not secret: the notices name the vault as before", async () => {
      // Another name: once a name was seen secret, this process masks it in every notice (secret-name.ts).
      await diff(vaultState({ name: "reserve-3" }), vaultInputs({ name: "reserve-3", type: "solana" }));
      assert.match(notices[0] ?? "", /^vault "reserve-3" \(4444.*\) must be replaced/);
      assert.match(notices[0] ?? "", /renamed to "reserve-3 \(archived 44444444\)"/);
      assert.doesNotMatch(notices[0] ?? "", /\[secret\]/);
    });

    it("the flag alone changes nothing, either way", async () => {
      assert.deepEqual(await diff(vaultState(), vaultInputs({ [FLAG]: true })), { changes: false });
      assert.deepEqual(await diff(vaultState({ [FLAG]: true }), vaultInputs()), { changes: false });
      assert.deepEqual(notices, []);
    });

    it("inside the provider host: the engine's Log RPC gets [secret], not the name", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-custody-secret-name-"));
      const engine = await startFakeEngine();
      try {
        const hostDir = path.join(dir, "dynamic-provider");
        fs.mkdirSync(hostDir, { recursive: true });
        const host = path.join(hostDir, "index.js");
        const runtimeIndex = path.resolve(__dirname, "..", "core", "index.js");
        fs.writeFileSync(
          host,
          `const runtime = require(${JSON.stringify(runtimeIndex)});
           runtime.vault
             .diff(${JSON.stringify(ID)},
                   ${JSON.stringify(vaultState({ [FLAG]: true }))},
                   ${JSON.stringify(vaultInputs({ type: "solana", [FLAG]: true }))})
             .then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`,
        );
        const { stdout, stderr } = await promisify(execFile)(process.execPath, [host, engine.address], {
          timeout: 30_000,
        });
        assert.equal(engine.logs.length, 1);
        assertMasked(engine.logs[0]?.message);
        assert.ok(!`${stdout}${stderr}`.includes(NAME), stderr);
      } finally {
        await engine.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe("check, and the lifecycle against the emulator", () => {
    let bed: ProviderTestbed;
    before(async () => {
      bed = await startProviderTestbed();
    });
    after(async () => bed.close());
    beforeEach(async () => bed.reset());

    async function check(news: Record<string, unknown>) {
      assert.ok(vaultProvider.check);
      return vaultProvider.check({}, { ...news, __provider: PROVIDER_TEXT });
    }

    it("check accepts the flag and keeps it", async () => {
      const result = await check({ name: NAME, type: "evm", [FLAG]: true });
      assert.deepEqual(result.failures ?? [], []);
      assert.deepEqual(result.inputs, { name: NAME, type: "evm", [FLAG]: true, __provider: PROVIDER_TEXT });
    });

    it("check refuses a flag that is not true, and still refuses inputs it does not know", async () => {
      const notTrue = await check({ name: NAME, type: "evm", [FLAG]: "yes" });
      assert.deepEqual(
        (notTrue.failures ?? []).map((f) => f.property),
        [FLAG],
      );
      const unknown = await check({ name: NAME, type: "evm", [FLAG]: true, nameIsPublic: true });
      assert.ok(
        (unknown.failures ?? []).some((f) => /nameIsPublic/.test(`${f.property} ${f.reason}`)),
        JSON.stringify(unknown.failures),
      );
    });

    it("create, read and update carry the flag into the state; without it, the state has none", async () => {
      assert.ok(vaultProvider.read && vaultProvider.update);
      const inputs = { name: NAME, type: "evm", [FLAG]: true, __provider: PROVIDER_TEXT };
      const { id, outs } = await vaultProvider.create(inputs);
      assert.equal(outs[FLAG], true);
      const read = await vaultProvider.read(id, outs);
      assert.equal(read.props?.[FLAG], true);
      assert.equal(read.inputs?.[FLAG], true);
      const updated = await vaultProvider.update(id, outs, { ...inputs, name: `${NAME}-b` });
      assert.equal(updated.outs?.[FLAG], true);
      // The name is no longer secret: the next state drops the flag.
      const plain = await vaultProvider.update(id, updated.outs, { name: "plain", type: "evm" });
      assert.equal(FLAG in (plain.outs ?? {}), false);

      const other = await vaultProvider.create({
        name: "not secret",
        type: "evm",
        __provider: PROVIDER_TEXT,
      });
      assert.equal(FLAG in other.outs, false);
    });

    it("an error about the vault writes [secret] for its name", async () => {
      assert.ok(vaultProvider.update);
      const inputs = { name: NAME, type: "evm", [FLAG]: true, __provider: PROVIDER_TEXT };
      const { id, outs } = await vaultProvider.create(inputs);
      await bed.emulator.control.reset("default"); // the vault no longer exists at all
      await assert.rejects(vaultProvider.update(id, outs, inputs), (err: Error) => {
        assert.match(err.message, /^Vault "\[secret\]" \(.*\) no longer exists/);
        assert.ok(!`${err.message}${err.stack}`.includes(NAME), err.message);
        return true;
      });
    });

    it("a replace's notice about the archived original it restores: [secret] for its name", async () => {
      // What `up` left after a replace evm -> solana: the original archived and renamed out of the name's way.
      const original = await bed.client.vaults.create({ name: NAME, type: "evm" });
      await bed.client.vaults.archive(original.id);
      await bed.client.vaults.rename(original.id, `${NAME} (archived ${original.id.slice(0, 8)})`);
      const replacement = await bed.client.vaults.create({ name: NAME, type: "solana" });
      assert.ok(vaultProvider.diff && vaultProvider.delete);
      await vaultProvider.diff(
        replacement.id,
        vaultState({ type: "solana", [FLAG]: true }),
        vaultInputs({ type: "evm", [FLAG]: true }),
      );
      assert.equal(bed.notices.length, 1);
      assertMasked(bed.notices[0]);
      assert.ok(
        (bed.notices[0] ?? "").includes(
          `vault "[secret] (archived ${original.id.slice(0, 8)})" (${original.id}), archived earlier`,
        ),
        bed.notices[0],
      );
      await vaultProvider.delete(replacement.id, vaultState({ type: "solana", [FLAG]: true }));
      assert.equal((await bed.client.vaults.get(replacement.id)).state, "archived");
    });
  });
});
