/**
 * One rule per value, in the sdk, which the client, the emulator and the provider share (docs/api-notes.md,
 * "Names" and "Formats"): an id is tested by one pattern, and a name by one module of rules. The requests of the
 * sdk are never stricter than what the service documents of a name (at least one character, no maximum), and
 * the limits that are our choice are the sdk's, one per holder.
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import path from "node:path";
import {
  CreateVaultRequest,
  NAME_BYTE_LIMITS,
  nameRuleViolations,
  RenameVaultRequest,
  ServiceName,
  UUID_PATTERN,
} from "@pulumi-custody/sdk/schema";
import fc from "fast-check";

const root = path.resolve(__dirname, "..", "..", "..");

/** The source files of the packages, without their tests. */
function* productSources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", "dist", "test"].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* productSources(full);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) yield full;
  }
}

const PACKAGES = ["sdk", "emulator", "provider", "policy", "plugin", "cli"];

function sourcesMatching(pattern: RegExp): string[] {
  return PACKAGES.flatMap((pkg) => [...productSources(path.join(root, pkg))])
    .filter((file) => pattern.test(fs.readFileSync(file, "utf8")))
    .map((file) => path.relative(root, file));
}

describe("shared rules", () => {
  it("an id is tested by the sdk's one pattern: no other source writes a UUID pattern of its own", () => {
    assert.deepEqual(sourcesMatching(/\[0-9a-fA-F\]\{8\}-\[0-9a-fA-F\]\{4\}/), ["sdk/schema/common.ts"]);
    assert.ok(UUID_PATTERN.test("0E9C4B3A-1F2D-4C5B-8A7E-6D5C4B3A2F1E"));
    assert.ok(!UUID_PATTERN.test("0e9c4b3a-1f2d-4c5b-8a7e-6d5c4b3a2f1"));
  });

  it("a name is checked by the sdk's rules alone: the provider and the emulator call them, with no limit of their own", () => {
    assert.deepEqual(sourcesMatching(/\bnameRuleViolations\(/).sort(), [
      "emulator/routes/vaults.ts",
      "provider/core/inputs/schemas.ts",
      "sdk/schema/name-rules.ts",
    ]);
    assert.deepEqual(sourcesMatching(/\bMAX_NAME_BYTES\b|bytes in UTF-8/), ["sdk/schema/name-rules.ts"]);
  });

  it("the sdk's requests take every name the service documents: any non-empty string, of any length", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 3000, unit: "grapheme" }), (name) => {
        assert.ok(ServiceName.safeParse(name).success);
        assert.ok(RenameVaultRequest.safeParse({ name }).success);
        assert.ok(CreateVaultRequest.safeParse({ name, type: "evm" }).success);
      }),
      { numRuns: 200 },
    );
    assert.ok(ServiceName.safeParse("é".repeat(10_000)).success, "no maximum");
    assert.equal(ServiceName.safeParse("").success, false);
  });

  it("the byte limits are ours, one per holder: a declared name at most 256 bytes, a held one at most 1,024", () => {
    assert.deepEqual(NAME_BYTE_LIMITS, { declared: 256, held: 1024 });
    const longest = (bytes: number) => "é".repeat(bytes / 2);
    for (const [holder, limit] of Object.entries(NAME_BYTE_LIMITS) as ["declared" | "held", number][]) {
      assert.deepEqual(nameRuleViolations(longest(limit), holder), [], holder);
      assert.deepEqual(
        nameRuleViolations(`${longest(limit)}e`, holder).map((v) => v.rule),
        ["length"],
        holder,
      );
    }
    // U+FFFD stands where a program's encoder replaced a lone surrogate: a declared name may not hold it.
    assert.deepEqual(
      nameRuleViolations("Treasury \uFFFD", "declared").map((v) => v.rule),
      ["replacement"],
    );
    assert.deepEqual(nameRuleViolations("Treasury \uFFFD", "held"), []);
  });
});
