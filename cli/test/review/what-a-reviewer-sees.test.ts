/**
 * What a reviewer must see in the review report, item by item, on previews in the shapes the real CLI prints
 * (CLI 3.248.0 and 3.274.1 print the same shapes): the engine's event stream
 * (`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi preview --json`, one event per line) and the digest
 * (`pulumi preview --json`). Each case is a small preview built from those shapes; test/e2e/review.test.ts
 * runs the same cases live.
 */
import { strict as assert } from "node:assert";
import { parsePreview } from "../../review/preview-input";
import { reviewReport } from "../../review/report";

/** The engine's mask of a secret in the event stream (a secret's signature, its ciphertext not shown). */
const STREAM_SECRET = {
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  ciphertext: "[secret]",
};
/** The engine's placeholder for a value not known until the update (`rpc.unknownValue`). */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const VAULT = "pulumi-nodejs:dynamic/custody:Vault";
const ADDRESS = "custody:index:VaultAddress";
const urn = (type: string, name: string) => `urn:pulumi:dev::review-program::${type}::${name}`;

interface State {
  id?: string;
  protect?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** One line of the event stream. */
function line(body: Record<string, unknown>): string {
  return JSON.stringify({ sequence: 1, timestamp: 0, ...body });
}

/** A `resourcePreEvent` as the engine streams it (`StepEventMetadata`). */
function step(
  op: string,
  type: string,
  name: string,
  old: State | null,
  now: State | null,
  keys?: string[],
): string {
  const state = (s: State | null) =>
    s && { type, urn: urn(type, name), custom: true, id: s.id ?? "", inputs: {}, outputs: {}, ...s };
  return line({
    resourcePreEvent: {
      metadata: {
        op,
        urn: urn(type, name),
        type,
        old: state(old),
        new: state(now),
        ...(keys ? { keys } : {}),
        detailedDiff: null,
      },
    },
  });
}

function diagnostic(severity: string, message: string, resource?: string): string {
  return line({
    diagnosticEvent: {
      ...(resource ? { urn: resource } : {}),
      prefix: `${severity}: `,
      message: `${message}\n`,
      color: "never",
      severity,
    },
  });
}

function policy(level: string, name: string, message: string, resource: string): string {
  return line({
    policyEvent: {
      resourceUrn: resource,
      message: `${message}\n`,
      color: "never",
      policyName: name,
      policyPackName: "pulumi-custody",
      policyPackVersion: "0.2.0",
      policyPackVersionTag: "0.2.0",
      enforcementLevel: level,
    },
  });
}

const summary = (result: "succeeded" | "failed") =>
  line({
    summaryEvent: {
      maybeCorrupt: false,
      durationSeconds: 1,
      resourceChanges: {},
      PolicyPacks: {},
      isPreview: true,
      result,
    },
  });

function report(...lines: string[]): string {
  return reviewReport(parsePreview(lines.join("\n")));
}

function section(markdown: string, heading: RegExp): string {
  const parts = markdown.split(/^### /m);
  const found = parts.find((part) => heading.test(part.split("\n")[0] ?? ""));
  assert.ok(found, `no section ${heading} in:\n${markdown}`);
  return found;
}

const COLD_ID = "405ad785-b27f-4eb1-a8c2-4e2c0e73c56a";
const cold = {
  id: COLD_ID,
  inputs: { chain: "bitcoin_testnet", name: "Cold", type: "utxo" },
  outputs: {
    address: "tb1qrhp5c9q00y8uhgujcnqtd46myndn6hdqvkpjta",
    name: "Cold",
    state: "active",
    type: "utxo",
  },
};

describe("custody review: what a reviewer must see", () => {
  describe("2. the dangerous details", () => {
    it("a created vault shows its chain and network, a mainnet flagged; every vault shows its type", () => {
      const markdown = report(
        step("create", VAULT, "btc", null, {
          inputs: { chain: "bitcoin_mainnet", name: "BTC", type: "utxo" },
        }),
        step("create", VAULT, "test", null, {
          inputs: { chain: "bitcoin_testnet", name: "Test", type: "utxo" },
        }),
        step("create", VAULT, "hot", null, { inputs: { name: "Hot", type: "evm" } }),
        summary("succeeded"),
      );
      const created = section(markdown, /^Created/);
      assert.match(created, /Vault \*\*BTC\*\* \(`utxo` on `bitcoin_mainnet`, ⚠️ \*\*mainnet\*\*;/);
      assert.match(created, /Vault \*\*Test\*\* \(`utxo` on `bitcoin_testnet`, testnet;/);
      assert.match(created, /Vault \*\*Hot\*\* \(`evm` on every `evm` chain, mainnets included;/);
    });

    it("adoptExisting set on an existing vault shows, though the provider plans no update for it", () => {
      const markdown = report(
        step(
          "same",
          VAULT,
          "treasury",
          { id: "858dde20-f56a-4922-92b0-3153f7459539", inputs: { name: "Treasury", type: "evm" } },
          { inputs: { adoptExisting: true, name: "Treasury", type: "evm" } },
        ),
        summary("succeeded"),
      );
      const safety = section(markdown, /Protection and adoption/);
      assert.match(safety, /Vault \*\*Treasury\*\* .*`adoptExisting`: unset → `true`/);
      assert.doesNotMatch(markdown, /No vault or address changes/);
    });

    it("a vault created with adoptExisting: true is listed once, by its name, as adopted by this up", () => {
      const markdown = report(
        step("create", VAULT, "treasury", null, {
          protect: true,
          inputs: { adoptExisting: true, name: "Treasury", type: "evm" },
        }),
        step("create", VAULT, "fresh", null, { inputs: { name: "Fresh", type: "evm" } }),
        summary("succeeded"),
      );
      assert.deepEqual(
        [...markdown.matchAll(/^### (.*)$/gm)].map((m) => m[1]),
        ["⚠️ Adopted (`adoptExisting: true`): taken over, not created", "Created"],
      );
      assert.equal(markdown.match(/resource `treasury`/g)?.length, 1, markdown);
      assert.match(
        section(markdown, /^⚠️ Adopted/),
        /^- Vault \*\*Treasury\*\* \(`evm` on every `evm` chain, mainnets included; resource `treasury`\): adopted: this `up` takes over the active vault of this name, without creating one;/m,
      );
      assert.match(section(markdown, /^Created/), /^- Vault \*\*Fresh\*\* .*: created;/m);
      assert.match(markdown, /^1 change\(s\) to review first: 0 replaced, 0 archived, 1 adopted\.$/m);
    });

    it("a change to protect shows, and losing protection is flagged", () => {
      const markdown = report(
        step(
          "same",
          VAULT,
          "treasury",
          {
            id: "858dde20-f56a-4922-92b0-3153f7459539",
            protect: true,
            inputs: { name: "Treasury", type: "evm" },
          },
          { inputs: { name: "Treasury", type: "evm" } },
        ),
        step("same", VAULT, "cold", { ...cold }, { inputs: cold.inputs, protect: true }),
        summary("succeeded"),
      );
      const safety = section(markdown, /Protection and adoption/);
      assert.match(safety, /Vault \*\*Treasury\*\* .*`protect`: `true` → `false`: no longer protected/);
      assert.match(safety, /Vault \*\*Cold\*\* .*`protect`: `false` → `true`/);
    });

    it("an `archived` input that turns true is an Archive, one that turns false a Restore", () => {
      const treasury = {
        id: "858dde20-f56a-4922-92b0-3153f7459539",
        inputs: { name: "Treasury", type: "evm" },
      };
      const markdown = report(
        step("update", VAULT, "treasury", treasury, { inputs: { ...treasury.inputs, archived: true } }),
        step(
          "update",
          VAULT,
          "cold",
          { ...cold, inputs: { ...cold.inputs, archived: true } },
          { inputs: { ...cold.inputs, archived: false } },
        ),
        summary("succeeded"),
      );
      assert.match(
        section(markdown, /Archived/),
        /\*\*Archive\*\*: Vault \*\*Treasury\*\* .*`archived`: unset → `true`/,
      );
      assert.match(
        section(markdown, /^Restored/),
        /\*\*Restore\*\*: Vault \*\*Cold\*\* .*`archived`: `true` → `false`/,
      );
      assert.doesNotMatch(markdown, /### Other updates/);
    });

    it("a change of vault groups shows with the groups", () => {
      const markdown = report(
        step(
          "update",
          VAULT,
          "cold",
          { ...cold, inputs: { ...cold.inputs, vaultGroupIds: ["405a1a60-7075-4457-9d86-26046a4f1930"] } },
          { inputs: { ...cold.inputs, vaultGroupIds: [] } },
        ),
        summary("succeeded"),
      );
      assert.match(
        section(markdown, /^Vault groups/),
        /Vault \*\*Cold\*\* .*`vaultGroupIds`: `\["405a1a60-7075-4457-9d86-26046a4f1930"\]` → `\[\]`/,
      );
    });
  });

  describe("a preview with --refresh", () => {
    it("reads the live inputs as the old ones: what the program leaves unset is not a change, a refresh not a step", () => {
      const deposits = {
        id: "b9ec6344-9bae-42cd-8668-ec18d5ac89fe",
        inputs: { name: "Deposits", vaultId: COLD_ID },
        outputs: {
          address: "tb1qgjzda066gxzx5jm8g235p4jaz29hg5aha5nvcp",
          name: "Deposits",
          vaultId: COLD_ID,
        },
      };
      const live = { ...deposits, inputs: { ...deposits.inputs, name: "Renamed", addressType: "segwit" } };
      const refresh = (name: string, before: State, after: State) =>
        line({
          resOutputsEvent: {
            metadata: {
              op: "refresh",
              urn: urn(ADDRESS, name),
              type: ADDRESS,
              old: { type: ADDRESS, ...before },
              new: { type: ADDRESS, ...after },
            },
          },
        });
      const markdown = report(
        refresh("deposits", deposits, live),
        step("update", ADDRESS, "deposits", live, { inputs: deposits.inputs }),
        refresh(
          "change",
          { ...deposits, id: "c" },
          { ...deposits, id: "c", inputs: { ...deposits.inputs, addressType: "segwit" } },
        ),
        step(
          "same",
          ADDRESS,
          "change",
          { ...deposits, id: "c", inputs: { ...deposits.inputs, addressType: "segwit" } },
          { inputs: deposits.inputs },
        ),
        summary("succeeded"),
      );
      assert.match(
        section(markdown, /^Renamed/),
        /Address \*\*Renamed\*\* .*: `name`: `"Renamed"` → `"Deposits"`\.$/m,
      );
      assert.doesNotMatch(markdown, /addressType/);
      assert.deepEqual(
        [...markdown.matchAll(/^### (.*)$/gm)].map((m) => m[1]),
        ["Renamed"],
      );
    });
  });

  describe("3. a failed preview", () => {
    it("says first that the change cannot be applied, and why; the plan below is marked as not happening", () => {
      const markdown = report(
        diagnostic(
          "warning",
          `vault "Cold" (${COLD_ID}) must be replaced (chain "bitcoin_testnet" -> "bitcoin_mainnet").`,
        ),
        diagnostic(
          "error",
          `unable to replace resource "${urn(VAULT, "cold")}"\nas it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\``,
          urn(VAULT, "cold"),
        ),
        step(
          "replace",
          VAULT,
          "cold",
          { ...cold, protect: true },
          { inputs: { ...cold.inputs, chain: "bitcoin_mainnet" }, protect: true },
          ["chain"],
        ),
        diagnostic("error", "preview failed"),
        summary("failed"),
      );
      const sections = [...markdown.matchAll(/^### (.*)$/gm)].map((m) => m[1]);
      assert.equal(sections[0], "🛑 This change cannot be applied");
      const first = section(markdown, /cannot be applied/);
      assert.match(
        first,
        /^- resource `cold`: unable to replace resource "urn:[^"]*::cold" as it is currently marked for protection\./m,
      );
      assert.doesNotMatch(
        first,
        /^- preview failed/m,
        "the generic line adds nothing when the reason is known",
      );
      assert.match(
        markdown,
        /^This change cannot be applied: 1 error\. Nothing below happens until it is fixed;/m,
      );
      assert.doesNotMatch(markdown, /change\(s\) to review first/);
    });

    it("a preview that failed on mandatory policy violations alone says so", () => {
      const markdown = report(
        step("create", VAULT, "btc", null, {
          inputs: { chain: "bitcoin_mainnet", name: "BTC", type: "utxo" },
        }),
        policy(
          "mandatory",
          "custody-vault-allowed-utxo-chains",
          'Vault "BTC" (resource btc) is on the UTXO chain "bitcoin_mainnet"',
          urn(VAULT, "btc"),
        ),
        diagnostic("error", "preview failed"),
        summary("failed"),
      );
      assert.match(section(markdown, /cannot be applied/), /^- 1 mandatory policy violation \(below\)\.$/m);
    });
  });

  describe("4. values not known until the update", () => {
    it('reads "known after apply", never the placeholder, on a replaced vault\'s address', () => {
      const dep = {
        id: "b9ec6344-9bae-42cd-8668-ec18d5ac89fe",
        inputs: { name: "Deposits", vaultId: COLD_ID },
        outputs: {
          address: "tb1qgjzda066gxzx5jm8g235p4jaz29hg5aha5nvcp",
          name: "Deposits",
          vaultId: COLD_ID,
        },
      };
      const markdown = report(
        step("replace", VAULT, "cold", cold, { inputs: { ...cold.inputs, chain: "bitcoin_mainnet" } }, [
          "chain",
        ]),
        step("replace", ADDRESS, "dep", dep, { inputs: { name: "Deposits", vaultId: UNKNOWN } }),
        step("create-replacement", ADDRESS, "dep", dep, { inputs: { name: "Deposits", vaultId: UNKNOWN } }, [
          "vaultId",
        ]),
        step("create", ADDRESS, "change", null, { inputs: { name: "Change", vaultId: UNKNOWN } }),
        summary("succeeded"),
      );
      assert.doesNotMatch(markdown, new RegExp(UNKNOWN));
      assert.match(
        markdown,
        new RegExp(`Address \\*\\*Deposits\\*\\* .*: \`vaultId\`: \`"${COLD_ID}"\` → known after apply\\.`),
      );
      assert.match(markdown, /Address \*\*Change\*\* \(resource `change`\): in vault \(known after apply\)/);
    });
  });

  describe("5. secret values", () => {
    it("a rename of a vault whose name is a secret is reported as a change of a secret value", () => {
      const hidden = {
        id: "22bf685d-4998-49bc-9014-52409c88f15b",
        inputs: { name: STREAM_SECRET, type: "solana" },
      };
      const markdown = report(
        step("update", VAULT, "hidden", hidden, { inputs: { name: STREAM_SECRET, type: "solana" } }),
        summary("succeeded"),
      );
      assert.doesNotMatch(markdown, /No vault or address changes/);
      assert.match(
        markdown,
        /Vault with a secret name \(`solana` on every `solana` chain, mainnets included; resource `hidden`, id `22bf685d-[^`]*`\): `name`: changed \(secret value\)\./,
      );
      assert.doesNotMatch(markdown, /ciphertext|4dabf18193072939515e22adb298388d/);
    });

    it("a change of secret vault groups is reported the same way, in the digest's form too", () => {
      const digest = {
        steps: [
          {
            op: "update",
            urn: urn(VAULT, "cold"),
            oldState: { ...cold, type: VAULT, inputs: { ...cold.inputs, vaultGroupIds: "[secret]" } },
            newState: { type: VAULT, inputs: { ...cold.inputs, vaultGroupIds: "[secret]" } },
          },
        ],
        diagnostics: [],
      };
      const markdown = reviewReport(parsePreview(JSON.stringify(digest)));
      assert.match(
        section(markdown, /^Vault groups/),
        /Vault \*\*Cold\*\* .*: `vaultGroupIds`: changed \(secret value\)\./,
      );
    });

    it("a secret beside another change may have changed: the report says it cannot tell", () => {
      const markdown = report(
        step(
          "update",
          VAULT,
          "cold",
          { ...cold, inputs: { ...cold.inputs, vaultGroupIds: STREAM_SECRET } },
          { inputs: { ...cold.inputs, name: "Cold 2", vaultGroupIds: STREAM_SECRET } },
        ),
        summary("succeeded"),
      );
      assert.match(markdown, /`name`: `"Cold"` → `"Cold 2"`/);
      assert.match(markdown, /`vaultGroupIds`: secret value, may have changed/);
    });
  });

  describe("6. policy violations by level", () => {
    it("advisory violations alone sit under an advisory heading, not under a stop sign", () => {
      const markdown = report(
        step("same", VAULT, "cold", cold, { inputs: cold.inputs }),
        policy(
          "advisory",
          "custody-vault-protected",
          'Vault "Cold" (resource cold) is not protected',
          urn(VAULT, "cold"),
        ),
        summary("succeeded"),
      );
      const sections = [...markdown.matchAll(/^### (.*)$/gm)].map((m) => m[1]);
      assert.deepEqual(sections, ["⚠️ Advisory policy violations"]);
      assert.doesNotMatch(markdown, /🛑/);
    });

    it("mandatory and advisory violations get a heading each, mandatory first", () => {
      const markdown = report(
        step("create", VAULT, "btc", null, {
          inputs: { chain: "bitcoin_mainnet", name: "BTC", type: "utxo" },
        }),
        policy(
          "advisory",
          "custody-vault-protected",
          'Vault "BTC" (resource btc) is not protected',
          urn(VAULT, "btc"),
        ),
        policy(
          "mandatory",
          "custody-vault-allowed-utxo-chains",
          'Vault "BTC" (resource btc) is on "bitcoin_mainnet"',
          urn(VAULT, "btc"),
        ),
        diagnostic("error", "preview failed"),
        summary("failed"),
      );
      const sections = [...markdown.matchAll(/^### (.*)$/gm)].map((m) => m[1]);
      assert.deepEqual(sections.slice(0, 3), [
        "🛑 This change cannot be applied",
        "🛑 Mandatory policy violations",
        "⚠️ Advisory policy violations",
      ]);
      assert.match(section(markdown, /Mandatory/), /custody-vault-allowed-utxo-chains/);
      assert.doesNotMatch(section(markdown, /Mandatory/), /custody-vault-protected/);
      assert.match(section(markdown, /Advisory/), /custody-vault-protected/);
    });
  });
});
