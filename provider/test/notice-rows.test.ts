// A notice about one resource is shown on that resource's row: the engine's `Log` RPC takes the resource's URN,
// and without one the CLI prints the notice on the stack's row, where a reader cannot tell which address it is
// about.
import * as assert from "node:assert/strict";
import { recordResourceUrn } from "../core/host/resource-urns";
import { setNoticeSink, vaultAddress } from "../core/index";

const ADDRESS_ID = "9f0a1b2c-3d4e-4f5a-9b6c-8d9e0f1a2b3c";
const ADDRESS_URN = "urn:pulumi:dev::treasury::pulumi-nodejs:dynamic/custody:VaultAddress::deposit";

describe("notices on the resource's row", () => {
  it("the address-removal notice of a destroy carries the address's URN", async () => {
    const seen: { message: string; urn?: string }[] = [];
    const restore = setNoticeSink((message, urn) => {
      seen.push({ message, urn });
    });
    try {
      // The host records the URN of each request as it reads the request's id (resource-urns.ts).
      recordResourceUrn(ADDRESS_ID, ADDRESS_URN);
      await vaultAddress.delete(ADDRESS_ID, {
        name: "deposit",
        address: "tb1qexample",
        vaultId: "7c2d9e1f-3a4b-4c5d-9e6f-0a1b2c3d4e5f",
      });
    } finally {
      restore();
    }
    assert.equal(seen.length, 1);
    assert.match(seen[0]?.message ?? "", /only removed from the Pulumi state/);
    assert.equal(seen[0]?.urn, ADDRESS_URN);
  });
});
