// Recovering the pending creates of an interrupted `up`: what exists as declared is taken over, what never
// arrived is dropped for `up` to create, what exists but differs is left alone, and other pending operations
// are kept.
import * as assert from "node:assert/strict";
import {
  type ExportedDeployment,
  recoverPendingCreates,
  VAULT_ADDRESS_RESOURCE_TYPE,
  VAULT_RESOURCE_TYPE,
} from "../core/pending-creates";
import { type ProviderTestbed, startProviderTestbed } from "./provider-emulator";

const urn = (type: string, name: string) => `urn:pulumi:s::p::${type}::${name}`;

describe("recovering pending creates (emulator)", () => {
  let bed: ProviderTestbed;
  before(async () => {
    bed = await startProviderTestbed();
  });
  after(async () => bed.close());
  beforeEach(async () => bed.reset());

  it("takes over what exists as declared, drops what never arrived, leaves the rest", async () => {
    const made = await bed.client.vaults.create({ name: "Made", type: "utxo", chain: "bitcoin_mainnet" });
    const other = await bed.client.vaults.create({ name: "Other Kind", type: "evm" });
    const address = await bed.client.vaults.addresses.create(made.id, { name: "deposits" });
    const pending = (type: string, name: string, inputs: Record<string, unknown>) => ({
      type: "creating",
      resource: { urn: urn(type, name), type, inputs: { ...inputs, __provider: "shim" }, custom: true },
    });
    const deployment: ExportedDeployment = {
      resources: [{ urn: "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s", type: "pulumi:pulumi:Stack" }],
      pending_operations: [
        pending(VAULT_ADDRESS_RESOURCE_TYPE, "deposits", {
          vaultId: made.id,
          name: "deposits",
          nameIsDefault: true,
        }),
        pending(VAULT_RESOURCE_TYPE, "made", { name: "Made", type: "utxo", chain: "bitcoin_mainnet" }),
        pending(VAULT_RESOURCE_TYPE, "never", { name: "Never Arrived", type: "evm" }),
        pending(VAULT_RESOURCE_TYPE, "other", { name: "Other Kind", type: "solana" }),
        { type: "creating", resource: { urn: urn("aws:s3:Bucket", "b"), type: "aws:s3:Bucket" } },
      ],
    };

    const { deployment: after, outcomes } = await recoverPendingCreates(deployment);

    assert.deepEqual(
      outcomes.map((o) => [o.urn.split("::").pop(), o.outcome, o.id]),
      [
        ["made", "adopted", made.id],
        ["never", "dropped", undefined],
        ["other", "dropped", undefined],
        ["deposits", "adopted", address.id],
      ],
    );
    assert.match(
      outcomes[2]!.reason,
      new RegExp(`vault ${other.id} has the name "Other Kind", but its type is "evm"`),
    );
    const vault = after.resources?.find((r) => r.id === made.id);
    assert.equal(vault?.outputs?.name, "Made");
    assert.equal(vault?.outputs?.__provider, "shim");
    assert.equal(vault?.outputs?.acquisition, "created");
    const adoptedAddress = after.resources?.find((r) => r.id === address.id);
    assert.equal(adoptedAddress?.outputs?.address, address.address.address);
    assert.equal(adoptedAddress?.outputs?.nameIsDefault, true);
    assert.deepEqual(
      after.pending_operations?.map((op) => op.resource.type),
      ["aws:s3:Bucket"],
    );
  });

  it("a vault whose name is secret: its recorded inputs are accepted, and its state keeps the flag", async () => {
    const made = await bed.client.vaults.create({ name: "Secret Made", type: "evm" });
    const type = VAULT_RESOURCE_TYPE;
    const inputs = { name: "Secret Made", type: "evm", __nameIsSecret: true, __provider: "shim" };
    const { deployment, outcomes } = await recoverPendingCreates({
      resources: [],
      pending_operations: [
        { type: "creating", resource: { urn: urn(type, "secret"), type, inputs, custom: true } },
      ],
    });
    assert.deepEqual(
      outcomes.map((o) => [o.outcome, o.id]),
      [["adopted", made.id]],
    );
    assert.equal(deployment.resources?.find((r) => r.id === made.id)?.outputs?.__nameIsSecret, true);
  });
});
