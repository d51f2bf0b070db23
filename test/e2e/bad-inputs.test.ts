// Bad inputs are refused by the providers' `check` during `preview`, before anything reaches the API, and
// the error names the resource and the property: one line on the resource's row of the CLI's output, with
// no stack trace. Bad arguments of a data source fail the program in one line that names the data source.
import * as assert from "node:assert/strict";
import type { Stack } from "@pulumi/pulumi/automation";
import { assertReadable, cliOutput, diagnosticsByRow } from "../support/cli-output";
import {
  ADDRESS_TYPE,
  apiVaultsNamed,
  configureForEmulator,
  type Declared,
  declare,
  fixtureStack,
  messagesFixtureDir,
  startTestEmulator,
  stateResources,
  type TestEmulator,
  VAULT_TYPE,
} from "../support/e2e-custody";
import { createLocalStack, disposeLocalStack, enginePaths } from "../support/pulumi-engine";

const cases: Array<{ what: string; declared: Declared; resource: string; property: string }> = [
  {
    what: "a utxo vault without chain",
    declared: { vaults: { cold: { name: "e2e-bad cold", type: "utxo" } } },
    resource: "cold",
    property: "chain",
  },
  {
    what: "an unknown vault type",
    declared: { vaults: { odd: { name: "e2e-bad odd", type: "mainframe" } } },
    resource: "odd",
    property: "type",
  },
  {
    what: "an empty vault name",
    declared: { vaults: { blank: { name: "", type: "evm" } } },
    resource: "blank",
    property: "name",
  },
  {
    what: "a key type on a vault that is not black_box",
    declared: { vaults: { keyed: { name: "e2e-bad keyed", type: "evm", keyType: "ecdsa_secp256k1" } } },
    resource: "keyed",
    property: "keyType",
  },
  {
    what: "an address type the API cannot create",
    declared: {
      vaults: { btc: { name: "e2e-bad btc", type: "utxo", chain: "bitcoin_testnet" } },
      addresses: { p2sh: { vault: "btc", name: "Old style", addressType: "p2sh" } },
    },
    resource: "p2sh",
    property: "addressType",
  },
];

describe("bad inputs fail at preview and name the property (real engine, emulator)", () => {
  let emulator: TestEmulator;
  let stack: Stack;

  before(async function () {
    this.timeout(40 * 60_000);
    await enginePaths();
    emulator = await startTestEmulator();
    stack = await fixtureStack(emulator, "bad-inputs");
    // The fixture program warns on the stack's row when this output is left unset.
    await stack.setConfig("signingKeyPem", { value: "not a key", secret: true });
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
  });

  for (const { what, declared, resource, property } of cases) {
    it(`${what}: preview fails and names ${property}, in one line on the resource's row`, async () => {
      await declare(stack, declared);

      const { failed, output } = await cliOutput(stack, ["preview"]);
      assert.ok(failed, output);
      assertReadable(output);
      const rows = diagnosticsByRow(output);
      const type = property === "addressType" ? ADDRESS_TYPE : VAULT_TYPE;
      for (const [row, lines] of rows) {
        if (row !== `${type} ${resource}`) assert.deepEqual(lines, [], `${row} has diagnostics`);
      }
      const lines = rows.get(`${type} ${resource}`) ?? [];
      assert.equal(lines.length, 1, output);
      // e.g. "error: …Vault resource 'cold': property chain value {<nil>} has a problem: is required for …"
      assert.match(
        lines[0] ?? "",
        new RegExp(
          `^error: ${type} resource '${resource}': property ${property} value .* has a problem: \\S`,
        ),
      );
    });
  }

  describe("bad arguments of a data source", () => {
    let program: Stack;
    before(async () => {
      program = await createLocalStack({
        projectDir: await messagesFixtureDir(),
        stackName: "bad",
      });
      await configureForEmulator(program, emulator);
    });
    after(async () => {
      if (program) await disposeLocalStack(program);
    });

    for (const [lookup, message] of [
      ["getVaultWithoutIdOrName", "getVault: give exactly one of `id` and `name`"],
      ["getUserWithBadId", "getUser: Invalid request for GET /api/v1/users/{id}: path.id: must be a UUID"],
    ] as const) {
      it(`${lookup}: the program fails in one line naming the data source and the argument`, async () => {
        await program.setConfig("lookups", { value: JSON.stringify([lookup]) });
        const { failed, output } = await cliOutput(program, ["preview"]);
        assert.ok(failed, output);
        assertReadable(output);
        assert.deepEqual([...diagnosticsByRow(output).values()], [[`error: ${message}`]], output);
      });
    }
  });

  describe("hostile names", () => {
    // Characters a terminal or a log must never get raw from an echoed value.
    const RAW_CONTROL = /(?![\n\t])[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

    for (const name of ["e2e-bad ab\ud800c", "e2e-bad ab\udc00"]) {
      it(`${JSON.stringify(name)} (a lone surrogate) fails the preview by name and rule; nothing is created`, async () => {
        await declare(stack, { vaults: { lone: { name, type: "evm" } } });
        const { failed, output } = await cliOutput(stack, ["preview"]);
        assert.ok(failed, output);
        assertReadable(output);
        assert.doesNotMatch(output, /INTERNAL|invalid UTF-8/, output);
        assert.match(
          output,
          /Vault "lone": name must be well-formed Unicode text: position 11 is a lone surrogate \(U\+D[8C]00\)/,
        );
        // What the name would have become on the way.
        assert.deepEqual(await apiVaultsNamed(emulator.client, ["e2e-bad abc", "e2e-bad ab"]), []);
      });
    }

    for (const nameAs of ["output", "promise", "secret"] as const) {
      it(`a lone surrogate in a name given as ${nameAs === "output" ? "an" : "a"} ${nameAs} fails the preview by name and rule, in one line on the resource's row; nothing is created`, async () => {
        const name = `e2e-bad ${nameAs} ab\ud800c`;
        await declare(stack, { vaults: { lone: { name, type: "evm", nameAs } } });
        const position = Array.from(`e2e-bad ${nameAs} ab`).length + 1;
        const refusal =
          `error: ${VAULT_TYPE} resource 'lone' has a problem: name must be well-formed Unicode text: ` +
          `position ${position} is a lone surrogate (U+D800), which encodes no character and cannot be sent as it is declared`;
        for (const command of [["preview"], ["up", "--yes", "--skip-preview"]]) {
          const { failed, output } = await cliOutput(stack, command);
          assert.ok(failed, output);
          assertReadable(output);
          // Nothing else: no warning of the program's runtime, no unhandled error, no raw value.
          assert.doesNotMatch(output, /INTERNAL|invalid UTF-8|unhandled|Warning|__refusedInProgram/i, output);
          const rows = [...diagnosticsByRow(output).entries()].filter(([, lines]) => lines.length > 0);
          assert.deepEqual(rows, [[`${VAULT_TYPE} lone`, [refusal]]], output);
        }
        // Neither the name declared nor what it would have become on the way.
        const became = [`e2e-bad ${nameAs} ab\ufffdc`, `e2e-bad ${nameAs} abc`];
        assert.deepEqual(await apiVaultsNamed(emulator.client, became), []);
        assert.equal((await stateResources(stack, VAULT_TYPE)).size, 0);
      });
    }

    it("a name with a bidi override, a NUL or a line break is refused, and no output line holds it raw", async () => {
      for (const name of ["e2e-bad abc\u202edef", "e2e-bad a\u0000b", "e2e-bad a\r\nX-Injected: 1"]) {
        await declare(stack, { vaults: { odd: { name, type: "evm" } } });
        const { failed, output } = await cliOutput(stack, ["preview"]);
        assert.ok(failed, output);
        assert.doesNotMatch(output, RAW_CONTROL, JSON.stringify(output));
        assert.doesNotMatch(output, /^X-Injected/m, output);
        const lines = diagnosticsByRow(output).get(`${VAULT_TYPE} odd`) ?? [];
        assert.equal(lines.length, 1, output);
        assert.match(lines[0] ?? "", /^error: .*resource 'odd' has a problem: name contains U\+/);
      }
    });

    it("a 10,000-character name is refused, and no output line prints it whole", async () => {
      await declare(stack, { vaults: { long: { name: `e2e-bad ${"n".repeat(10_000)}`, type: "evm" } } });
      const { failed, output } = await cliOutput(stack, ["preview"]);
      assert.ok(failed, output);
      const lines = diagnosticsByRow(output).get(`${VAULT_TYPE} long`) ?? [];
      assert.equal(lines.length, 1, output);
      assert.match(lines[0] ?? "", /has a problem: name must be at most 256 bytes in UTF-8 \(got 10008\)/);
      for (const line of output.split("\n"))
        assert.ok(line.length < 1000, `a line of ${line.length} characters`);
    });
  });

  it("nothing reached the API", async () => {
    const names = cases.flatMap((c) => Object.values(c.declared.vaults ?? {}).map((v) => v.name));

    assert.deepEqual(await apiVaultsNamed(emulator.client, names.filter(Boolean)), []);
  });
});
