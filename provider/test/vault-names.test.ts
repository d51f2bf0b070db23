// Names of vaults and vault addresses (docs/provider.md, "Names"): `check` refuses at preview time every name
// that the service or the lookup by name cannot carry, or that could pass for another name, with one failure
// per broken rule naming `name`; every name it accepts round-trips through the emulator (create, rename, look
// up by name with the sdk), and the emulator refuses what `check` refuses with a 422 at `body.name`.
import assert from "node:assert/strict";
import { CustodyClient } from "@pulumi-custody/sdk";
import { type Harness, startHarness } from "@pulumi-custody/testing";
import fc from "fast-check";
import { checkVault } from "../core/vault/check";
import { checkVaultAddress } from "../core/vault-address/check-diff";

const VAULT_ID = "44444444-4444-4444-8444-444444444444";
/** The provider's limit (docs/provider.md, "Names"). */
const PROVIDER_MAX_BYTES = 256;
/** The emulator's limit, higher to leave room for the names the provider derives (emulator/README.md). */
const EMULATOR_MAX_BYTES = 1024;

type Failure = { property: string; reason: string };
type Rule =
  | "blank"
  | "surrounding whitespace"
  | "length"
  | "well-formed"
  | "control"
  | "bidi"
  | "invisible"
  | "whitespace"
  | "double space"
  | "nfc"
  | "replacement";

/** How a reason names its rule; each reason must match exactly one. */
const RULE_WORDING: Record<Rule, RegExp> = {
  // The sdk's request schema words the empty name its own way (emulator 422s).
  blank: /^must not be empty\b/,
  "surrounding whitespace": /^must not start or end with whitespace$/,
  length: /^must be at most \d+ bytes in UTF-8 \(got \d+\)$/,
  "well-formed": /^must be well-formed Unicode text: /,
  control: /; control characters are not allowed$/,
  bidi: /; bidirectional control characters are not allowed$/,
  invisible: /; invisible characters are not allowed$/,
  whitespace: /; the only space allowed is U\+0020 SPACE$/,
  "double space": /^contains two spaces in a row at position \d+; /,
  nfc: /^must be in Unicode normalization form NFC\b/,
  replacement: /^contains U\+FFFD \(the replacement character\) at position \d+, /,
};

/**
 * The rules a name breaks, written independently of the provider: with the regular expression engine's
 * Unicode properties where the provider lists code points.
 */
function brokenRules(name: string, maxBytes: number, provider = true): Set<Rule> {
  const rules = new Set<Rule>();
  if (name.trim() === "") rules.add("blank");
  else if (name.trim() !== name) rules.add("surrounding whitespace");
  if (Buffer.byteLength(name, "utf8") > maxBytes) rules.add("length");
  if (/\p{Cs}/u.test(name)) rules.add("well-formed");
  if (/\p{Cc}/u.test(name)) rules.add("control");
  if (/\p{Bidi_Control}/u.test(name)) rules.add("bidi");
  if (/(?!\p{Bidi_Control})\p{Default_Ignorable_Code_Point}/u.test(name)) rules.add("invisible");
  if (/(?![ \p{Cc}])\p{White_Space}/u.test(name)) rules.add("whitespace");
  if (name.includes("  ")) rules.add("double space");
  if (name.normalize("NFC") !== name) rules.add("nfc");
  // The provider's own: a program's encoder writes a lone surrogate as U+FFFD, so a name with it would not be
  // the one declared; the service, and the emulator, take it as a character like any other.
  if (provider && name.includes("\uFFFD")) rules.add("replacement");
  return rules;
}

/** The rule a reason names; fails when it names none or several. */
function ruleOf(reason: string): Rule {
  const named = (Object.keys(RULE_WORDING) as Rule[]).filter((rule) => RULE_WORDING[rule].test(reason));
  assert.equal(named.length, 1, `"${reason}" names ${named.length} rules (${named.join(", ")})`);
  return named[0]!;
}

/**
 * A failure as naming its property. `check` hands the engine a failure about a name that the engine cannot print
 * as it is (a control character, too long) without a property, its reason starting with the property's name
 * (hostile-inputs.test.ts); here the rules are what is tested.
 */
function asNamed(failure: Failure): Failure {
  const named = /^(name|vaultId|addressType|type) (.*)$/s.exec(failure.reason);
  return failure.property === "" && named ? { property: named[1]!, reason: named[2]! } : failure;
}

function vaultNameFailures(name: unknown): Failure[] {
  return (checkVault({}, { name, type: "evm" }).failures ?? []).map(asNamed);
}

function addressNameFailures(name: unknown, extra: Record<string, unknown> = {}): Failure[] {
  return (checkVaultAddress({}, { vaultId: VAULT_ID, name, ...extra }).failures ?? []).map(asNamed);
}

/** Asserts that the failures are about `name`, one per rule, exactly the rules the name breaks. */
function assertFailuresMatchRules(failures: Failure[], name: string): void {
  const expected = brokenRules(name, PROVIDER_MAX_BYTES);
  for (const f of failures) {
    assert.equal(f.property, "name", JSON.stringify(f));
    assert.doesNotMatch(f.reason, /\n|\bat .+:\d+:\d+/, "a reason is one line, without a stack trace");
  }
  const reported = failures.map((f) => ruleOf(f.reason));
  assert.equal(new Set(reported).size, reported.length, `a rule reported twice: ${reported.join(", ")}`);
  assert.deepEqual(new Set(reported), expected, `${JSON.stringify(name)}: ${JSON.stringify(failures)}`);
}

const range = (from: number, to: number) =>
  fc.integer({ min: from, max: to }).map((cp) => String.fromCodePoint(cp));
const BIDI_CONTROLS = [
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
];
const INVISIBLES = [
  0x00ad, 0x034f, 0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0x2064, 0x3164, 0xfe0f, 0xfeff, 0xe0041,
];
const OTHER_SPACES = [0x00a0, 0x1680, 0x2002, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000];
const fromCodePoints = (cps: number[]) => fc.constantFrom(...cps.map((cp) => String.fromCodePoint(cp)));

/** One piece of a name: mostly ordinary text, sometimes a character one of the rules is about. */
const namePiece = fc.oneof(
  { weight: 40, arbitrary: fc.constantFrom(..."abcdefXYZ0189 -_.()'&".split("")) },
  { weight: 8, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }) },
  { weight: 4, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 4, arbitrary: fc.constantFrom("é", "Å", "金库", "🏦", "👍🏽", "Ω", "خزينة", "קרן") },
  // Combining marks: after a letter some compose, so the text is no longer in NFC; U+212B becomes U+00C5.
  { weight: 3, arbitrary: fc.constantFrom("\u0301", "\u0300", "\u0327", "\u0308", "\u212b", "\u1e9b\u0323") },
  { weight: 2, arbitrary: range(0x00, 0x9f) },
  { weight: 1, arbitrary: range(0xd800, 0xdfff) },
  { weight: 1, arbitrary: fc.constant("\uFFFD") },
  { weight: 1, arbitrary: fromCodePoints(BIDI_CONTROLS) },
  { weight: 1, arbitrary: fromCodePoints(INVISIBLES) },
  { weight: 1, arbitrary: fromCodePoints(OTHER_SPACES) },
);

/** Names of every kind: short and long, clean and hostile, and runs of one character near the byte limit. */
const anyName = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: namePiece, minLength: 0, maxLength: 12 }) },
  {
    weight: 2,
    arbitrary: fc
      .string({ unit: "grapheme", minLength: 1, maxLength: 30 })
      .map((s) => s.normalize("NFC").trim().replace(/\s+/g, " ")),
  },
  { weight: 1, arbitrary: fc.string({ unit: namePiece, minLength: 40, maxLength: 160 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("a", "é", "金", "🏦"), fc.integer({ min: 50, max: 300 }))
      .map(([c, n]) => c.repeat(n)),
  },
);

const accepted = (name: string) => vaultNameFailures(name).length === 0;

describe("provider: vault and address names", () => {
  describe("check: each rule, with the reported cases", () => {
    it("refuses 10,000 × é by its length in UTF-8 (the lookup by name could not carry it)", () => {
      assert.deepEqual(vaultNameFailures("é".repeat(10_000)), [
        { property: "name", reason: "must be at most 256 bytes in UTF-8 (got 20000)" },
      ]);
    });

    it("counts bytes, not characters: 256 bytes pass, 257 do not", () => {
      assert.deepEqual(vaultNameFailures("é".repeat(128)), []);
      assert.deepEqual(vaultNameFailures("🏦".repeat(64)), []);
      assert.deepEqual(vaultNameFailures(`${"é".repeat(128)}a`), [
        { property: "name", reason: "must be at most 256 bytes in UTF-8 (got 257)" },
      ]);
      assert.deepEqual(vaultNameFailures("a".repeat(257)), [
        { property: "name", reason: "must be at most 256 bytes in UTF-8 (got 257)" },
      ]);
    });

    it("refuses a lone surrogate (high or low), saying where it is", () => {
      assert.deepEqual(vaultNameFailures("bad\uD800"), [
        {
          property: "name",
          reason:
            "must be well-formed Unicode text: position 4 is a lone surrogate (U+D800), which encodes no character",
        },
      ]);
      assert.deepEqual(vaultNameFailures("\uDC00x"), [
        {
          property: "name",
          reason:
            "must be well-formed Unicode text: position 1 is a lone surrogate (U+DC00), which encodes no character",
        },
      ]);
      // A pair is one character, not two halves.
      assert.deepEqual(vaultNameFailures("vault \uD83C\uDFE6"), []);
    });

    it("accepts a name in NFC and refuses its NFD form, naming the code points to change", () => {
      const nfc = "Caf\u00e9";
      const nfd = "Cafe\u0301";
      assert.equal(nfc.normalize("NFD"), nfd);
      assert.deepEqual(vaultNameFailures(nfc), []);
      assert.deepEqual(vaultNameFailures(nfd), [
        {
          property: "name",
          reason:
            'must be in Unicode normalization form NFC: U+0065 U+0301 at position 4 is U+00E9 in NFC; declare the name in NFC (name.normalize("NFC"))',
        },
      ]);
      // A singleton decomposition: U+212B ANGSTROM SIGN is U+00C5 in NFC.
      assert.match(
        vaultNameFailures("10 \u212b")[0]?.reason ?? "",
        /U\+212B at position 4 is U\+00C5 in NFC/,
      );
    });

    it("refuses C0 controls, DEL and C1 controls", () => {
      assert.deepEqual(vaultNameFailures("Trea\nsury"), [
        {
          property: "name",
          reason: "contains U+000A LINE FEED at position 5; control characters are not allowed",
        },
      ]);
      assert.match(
        vaultNameFailures("a\u007fb")[0]?.reason ?? "",
        /^contains U\+007F DELETE at position 2; /,
      );
      assert.match(
        vaultNameFailures("a\u0085b")[0]?.reason ?? "",
        /^contains U\+0085 NEXT LINE at position 2; control characters are not allowed$/,
      );
      assert.match(
        vaultNameFailures("a\u009fb")[0]?.reason ?? "",
        /^contains U\+009F \(a C1 control character\) at position 2; control characters are not allowed$/,
      );
    });

    it("refuses bidirectional controls: overrides, embeddings, isolates and marks", () => {
      assert.deepEqual(vaultNameFailures("Trea\u202esury"), [
        {
          property: "name",
          reason:
            "contains U+202E RIGHT-TO-LEFT OVERRIDE at position 5; bidirectional control characters are not allowed",
        },
      ]);
      for (const cp of BIDI_CONTROLS) {
        const hex = cp.toString(16).toUpperCase().padStart(4, "0");
        const failures = vaultNameFailures(`ab${String.fromCodePoint(cp)}c`);
        assert.equal(failures.length, 1, hex);
        assert.match(
          failures[0]!.reason,
          new RegExp(`^contains U\\+${hex} [A-Z -]+ at position 3; bidirectional`),
        );
      }
    });

    it("refuses zero-width and other invisible characters", () => {
      assert.deepEqual(vaultNameFailures("Trea\u200bsury"), [
        {
          property: "name",
          reason: "contains U+200B ZERO WIDTH SPACE at position 5; invisible characters are not allowed",
        },
      ]);
      for (const cp of INVISIBLES) {
        const hex = cp.toString(16).toUpperCase().padStart(4, "0");
        const failures = vaultNameFailures(`ab${String.fromCodePoint(cp)}c`);
        assert.equal(failures.length, 1, `${hex}: ${JSON.stringify(failures)}`);
        assert.match(failures[0]!.reason, new RegExp(`^contains U\\+${hex}\\b.* at position 3; invisible`));
      }
    });

    it("refuses spaces other than U+0020, and two spaces in a row", () => {
      assert.deepEqual(vaultNameFailures("Treasury\u00a0ETH"), [
        {
          property: "name",
          reason: "contains U+00A0 NO-BREAK SPACE at position 9; the only space allowed is U+0020 SPACE",
        },
      ]);
      assert.match(
        vaultNameFailures("金库\u3000一")[0]?.reason ?? "",
        /^contains U\+3000 IDEOGRAPHIC SPACE at position 3;/,
      );
      assert.match(
        vaultNameFailures("a\u2028b")[0]?.reason ?? "",
        /^contains U\+2028 LINE SEPARATOR at position 2;/,
      );
      assert.deepEqual(vaultNameFailures("Treasury  ETH"), [
        {
          property: "name",
          reason: "contains two spaces in a row at position 9; use one space (they would show as one)",
        },
      ]);
    });

    it("keeps the older rules: required, a string, not blank, no surrounding whitespace", () => {
      assert.match(vaultNameFailures(undefined)[0]?.reason ?? "", /is required/);
      assert.match(vaultNameFailures(42)[0]?.reason ?? "", /must be a string/);
      assert.deepEqual(vaultNameFailures(""), [
        { property: "name", reason: "must not be empty or only whitespace (a vault needs a name)" },
      ]);
      assert.deepEqual(vaultNameFailures(" Treasury "), [
        { property: "name", reason: "must not start or end with whitespace" },
      ]);
    });

    it("reports every rule a name breaks, once each", () => {
      const name = `\u202e${"é".repeat(200)}\u200b  e\u0301`;
      assertFailuresMatchRules(vaultNameFailures(name), name);
      assert.equal(vaultNameFailures(name).length, 5);
    });

    it("accepts ordinary names in any script", () => {
      for (const name of [
        "Treasury ETH",
        "Trésorerie 金库 🏦",
        "خزينة 1",
        "קרן ב",
        "Ops (cold) #2",
        "👍🏽 vault",
      ]) {
        assert.deepEqual(vaultNameFailures(name), [], name);
      }
    });

    it("applies the same rules to a VaultAddress name, and says when the name is the resource name", () => {
      assert.deepEqual(addressNameFailures("é".repeat(10_000)), [
        { property: "name", reason: "must be at most 256 bytes in UTF-8 (got 20000)" },
      ]);
      assert.deepEqual(addressNameFailures("Deposits"), []);
      assert.deepEqual(addressNameFailures("Depo\u202esits", { nameIsDefault: true }), [
        {
          property: "name",
          reason:
            "contains U+202E RIGHT-TO-LEFT OVERRIDE at position 5; bidirectional control characters are not allowed " +
            "(no name is declared, so the name is the resource name: declare a name)",
        },
      ]);
    });
  });

  describe("check: properties over generated Unicode", () => {
    it("refuses exactly the names that break a rule, with one failure per broken rule naming `name`", () => {
      let refused = 0;
      let total = 0;
      const exercised = new Set<Rule>();
      fc.assert(
        fc.property(anyName, (name) => {
          total++;
          const failures = vaultNameFailures(name);
          if (failures.length > 0) refused++;
          for (const f of failures) if (f.property === "name") exercised.add(ruleOf(f.reason));
          assertFailuresMatchRules(failures, name);
          // A VaultAddress name follows the same rules.
          assertFailuresMatchRules(addressNameFailures(name), name);
        }),
        { numRuns: 3000 },
      );
      // Both outcomes are exercised, so neither half of the property is empty.
      assert.ok(refused > total * 0.2 && refused < total * 0.8, `${refused} of ${total} refused`);
      assert.deepEqual(
        [...exercised].sort(),
        (Object.keys(RULE_WORDING) as Rule[]).sort(),
        "every rule is exercised",
      );
    });
  });

  describe("against the emulator", function () {
    this.timeout(120_000);
    let h: Harness;
    let client: CustodyClient;
    let utxoVaultId: string;
    let evmVaultId: string;
    /** An address that (b) renames to refused names. */
    let renamedAddressId: string;
    let placeholders = 0;
    /** Names already given to a vault (names are unique): name → vault id. */
    const vaultsByName = new Map<string, string>();
    /** Names already given to an address of the utxo vault: name → address id. */
    const addressesByName = new Map<string, string>();

    before(async () => {
      h = await startHarness();
      client = new CustodyClient({
        baseUrl: h.emulator.baseUrl,
        accessToken: h.emulator.accessToken,
        requestsPerMinute: 0,
      });
      utxoVaultId = (
        await client.vaults.create({ name: "names: utxo", type: "utxo", chain: "bitcoin_mainnet" })
      ).id;
      evmVaultId = (await client.vaults.create({ name: "names: evm", type: "evm" })).id;
      renamedAddressId = (await client.vaults.addresses.create(utxoVaultId, { name: "names: renamed" })).id;
    });
    after(async () => {
      await client.close();
      await h.close();
    });

    /** Creates a vault named `name` (once), then finds it by name with the sdk. */
    async function vaultRoundTrip(name: string): Promise<void> {
      if (!vaultsByName.has(name))
        vaultsByName.set(name, (await client.vaults.create({ name, type: "evm" })).id);
      const found = await client.vaults.list({ names: [name] });
      assert.deepEqual(
        found.vaults.map((v) => [v.id, v.name]),
        [[vaultsByName.get(name), name]],
      );
    }

    /** Renames a new address to `name` (once), then finds it as the provider does: search, then the exact name. */
    async function addressRoundTrip(name: string): Promise<void> {
      if (!addressesByName.has(name)) {
        const address = await client.vaults.addresses.create(utxoVaultId, {
          name: `placeholder ${++placeholders}`,
        });
        await client.vaults.addresses.rename(address.id, name);
        addressesByName.set(name, address.id);
      }
      const found: string[] = [];
      for await (const a of client.vaults.addresses.listAll(utxoVaultId, { search: name })) {
        if (a.name === name) found.push(a.id);
      }
      assert.deepEqual(found, [addressesByName.get(name)]);
    }

    /** The issue of a 422 at `body.name`, or a failure saying what came instead. */
    function nameIssue(res: { status: number; text: string; body: { detail?: unknown } }): string {
      assert.equal(res.status, 422, res.text.slice(0, 200));
      const issues = res.body.detail as { loc: unknown[]; msg: string }[];
      const issue = issues.find((i) => JSON.stringify(i.loc) === '["body","name"]');
      assert.ok(issue, `no issue at body.name: ${res.text}`);
      return issue.msg;
    }

    it("10,000 × é: the emulator refuses to create it, so no vault holds a name its lookup cannot carry", async () => {
      const name = "é".repeat(10_000);
      const res = await h.api("POST", "/api/v1/vaults", { json: { name, type: "evm" } });
      assert.equal(nameIssue(res), "must be at most 1024 bytes in UTF-8 (got 20000)");
      // The longest name the emulator takes, all of it percent-encoded, can still be looked up.
      await vaultRoundTrip("é".repeat(EMULATOR_MAX_BYTES / 2));
      await vaultRoundTrip("🏦".repeat(PROVIDER_MAX_BYTES / 4));
    });

    it("a lone surrogate: the emulator refuses it with a 422, as its lookup could not be sent", async () => {
      const res = await h.api("POST", "/api/v1/vaults", { json: { name: "bad\uD800", type: "evm" } });
      assert.match(
        nameIssue(res),
        /^must be well-formed Unicode text: position 4 is a lone surrogate \(U\+D800\)/,
      );
      const rename = await h.api("PUT", `/api/v1/vaults/${evmVaultId}/name`, { json: { name: "\uDFFF" } });
      assert.match(nameIssue(rename), /lone surrogate \(U\+DFFF\)/);
    });

    it("NFC and NFD of one name: the NFC form is created and found, the NFD form is refused", async () => {
      await vaultRoundTrip("Café NFC");
      const res = await h.api("POST", "/api/v1/vaults", { json: { name: "Cafe\u0301 NFC", type: "evm" } });
      assert.match(
        nameIssue(res),
        /^must be in Unicode normalization form NFC: U\+0065 U\+0301 at position 4/,
      );
      const found = await client.vaults.list({ names: ["Café NFC".normalize("NFD")] });
      assert.equal(found.total, 0, "the service compares names code point by code point");
    });

    it("(a) every name check accepts round-trips: vault create and address rename, then found by name", async () => {
      await fc.assert(
        fc.asyncProperty(anyName.filter(accepted), async (name) => {
          await vaultRoundTrip(name);
          await addressRoundTrip(name);
        }),
        { numRuns: 150 },
      );
    });

    it("(b) every name check refuses is refused by the emulator too (422 at body.name), but for the provider's own rules", async () => {
      const outcomes = new Set<string>();
      await fc.assert(
        fc.asyncProperty(
          anyName.filter((name) => !accepted(name)),
          async (name) => {
            const refusedByEmulator = brokenRules(name, EMULATOR_MAX_BYTES, false).size > 0;
            outcomes.add(refusedByEmulator ? "refused" : "provider only");
            const create = await h.api("POST", "/api/v1/vaults", { json: { name, type: "evm" } });
            const rename = await h.api("PUT", `/api/v1/vaults/addresses/${renamedAddressId}/name`, {
              json: { name },
            });
            if (refusedByEmulator) {
              for (const res of [create, rename]) {
                const msg = nameIssue(res);
                assert.ok(
                  Object.values(RULE_WORDING).some((wording) => wording.test(msg)),
                  msg,
                );
              }
            } else {
              // Only the provider's own rules are broken: its byte limit (the emulator keeps room for derived
              // names), or U+FFFD (a program's encoder puts it where a lone surrogate was).
              const rules = brokenRules(name, PROVIDER_MAX_BYTES);
              assert.ok(rules.has("length") || rules.has("replacement"), [...rules].join(", "));
              assert.ok([201, 409].includes(create.status), create.text);
              assert.ok([204, 409].includes(rename.status), rename.text);
            }
          },
        ),
        { numRuns: 150 },
      );
      assert.deepEqual([...outcomes].sort(), ["provider only", "refused"], "both outcomes are exercised");
    });
  });
});
