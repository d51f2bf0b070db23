// Bad inputs are refused by the providers' `check` during `preview`, before anything reaches the API, and
// the error names the resource and the property.
import * as assert from "node:assert/strict";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  apiVaultsNamed,
  type Declared,
  declare,
  fixtureStack,
  startTestEmulator,
  type TestEmulator,
} from "../support/e2e-custody";
import { disposeLocalStack, enginePaths } from "../support/pulumi-engine";

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
  });

  after(async () => {
    if (stack) await disposeLocalStack(stack);
    if (emulator) await emulator.stop();
  });

  for (const { what, declared, resource, property } of cases) {
    it(`${what}: preview fails and names ${property}`, async () => {
      await declare(stack, declared);

      await assert.rejects(stack.preview(), (err: unknown) => {
        const message = String(err);
        const problem = message.split("\n").find((line) => line.includes(`resource '${resource}'`));
        assert.ok(problem, `an error line about resource '${resource}' in:\n${message}`);
        // e.g. "…Vault resource 'cold': property chain value {<nil>} has a problem: is required for …"
        assert.match(problem, new RegExp(`property ${property} value .* has a problem: \\S`));
        return true;
      });
    });
  }

  it("nothing reached the API", async () => {
    const names = cases.flatMap((c) => Object.values(c.declared.vaults ?? {}).map((v) => v.name));

    assert.deepEqual(await apiVaultsNamed(emulator.client, names.filter(Boolean)), []);
  });
});
