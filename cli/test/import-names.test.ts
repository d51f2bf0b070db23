// The resource names of `custody import`: readable, deterministic whatever the listing order, stable when a
// newer vault with the same name appears, and never equal to each other, to a name the stack has, or to a
// module the generated code imports.
import * as assert from "node:assert/strict";
import { type Nameable, resourceNameOf, uniqueNames } from "../import/names";

const item = (id: string, display: string, createdAt: string): Nameable => ({
  id,
  wanted: resourceNameOf(display, "vault"),
  createdAt,
});

describe("custody import: resource names", () => {
  it("a display name becomes lower-case words joined by -, accents dropped", () => {
    assert.equal(resourceNameOf("Treasury ETH", "vault"), "treasury-eth");
    assert.equal(resourceNameOf("  Café  Réserve — EUR ", "vault"), "cafe-reserve-eur");
    assert.equal(resourceNameOf("BTC (cold) #2", "vault"), "btc-cold-2");
  });

  it("nothing left, a leading digit, or a name the generated code uses: the fallback comes first", () => {
    assert.equal(resourceNameOf("🚀🚀", "vault"), "vault");
    assert.equal(resourceNameOf("1inch Treasury", "vault"), "vault-1inch-treasury");
    assert.equal(resourceNameOf("Custody", "vault"), "vault-custody");
    assert.equal(resourceNameOf("pulumi", "vault"), "vault-pulumi");
  });

  it("the oldest of a shared name keeps it; the newer get their id's first 8 characters", () => {
    const items = [
      item("bbbbbbbb-0000-4000-8000-000000000002", "Treasury", "2024-02-01T00:00:00Z"),
      item("aaaaaaaa-0000-4000-8000-000000000001", "treasury", "2024-01-01T00:00:00Z"),
      item("cccccccc-0000-4000-8000-000000000003", "Ops", "2024-03-01T00:00:00Z"),
    ];
    const names = uniqueNames(items, new Set());
    assert.equal(names.get("aaaaaaaa-0000-4000-8000-000000000001"), "treasury");
    assert.equal(names.get("bbbbbbbb-0000-4000-8000-000000000002"), "treasury-bbbbbbbb");
    assert.equal(names.get("cccccccc-0000-4000-8000-000000000003"), "ops");
  });

  it("the same names whatever the order; a newer namesake does not rename the older vault", () => {
    const older = item("aaaaaaaa-0000-4000-8000-000000000001", "Treasury", "2024-01-01T00:00:00Z");
    const newer = item("bbbbbbbb-0000-4000-8000-000000000002", "Treasury", "2024-05-01T00:00:00Z");
    const before = uniqueNames([older], new Set());
    const after = uniqueNames([newer, older], new Set());
    assert.equal(after.get(older.id), before.get(older.id));
    assert.deepEqual(uniqueNames([older, newer], new Set()), after);
  });

  it("a name the stack has is never given; a suffixed name never takes one another vault wants", () => {
    const a = item("aaaaaaaa-0000-4000-8000-000000000001", "Treasury", "2024-01-01T00:00:00Z");
    const b = item("bbbbbbbb-0000-4000-8000-000000000002", "Treasury", "2024-02-01T00:00:00Z");
    const c = item("cccccccc-0000-4000-8000-000000000003", "Treasury bbbbbbbb", "2024-03-01T00:00:00Z");
    const names = uniqueNames([a, b, c], new Set(["treasury"]));
    assert.equal(names.get(a.id), "treasury-aaaaaaaa");
    assert.equal(names.get(c.id), "treasury-bbbbbbbb");
    assert.equal(names.get(b.id), "treasury-bbbbbbbb000040008000000000000002");
    assert.equal(new Set(names.values()).size, 3);
  });

  it("many vaults with one name: every name distinct", () => {
    const items = Array.from({ length: 500 }, (_, i) =>
      item(`${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`, "Load Vault", "2024-01-01T00:00:00Z"),
    );
    const names = uniqueNames(items, new Set(["load-vault"]));
    assert.equal(new Set(names.values()).size, 500);
    for (const name of names.values()) assert.match(name, /^load-vault-[0-9a-z]+$/);
  });
});
