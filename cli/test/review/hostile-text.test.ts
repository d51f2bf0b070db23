/**
 * The review shows the service's, the program's and the engine's text as data (SECURITY.md, "The service's text
 * is data"): whatever a vault or address name, an id, an address, a value, a policy violation or a diagnostic
 * holds, the Markdown has no raw control (C0, DEL, C1), bidi, zero-width or other format character and no lone
 * surrogate, no line break of its own inside a list item, no markup of its own (an HTML tag or comment, an
 * entity, a link), and every piece is cut to a bounded length. A property test over event streams in the
 * engine's shapes, each piece of text drawn from hostile text.
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { parsePreview } from "../../review/preview-input";
import { reviewReport } from "../../review/report";

/** What must never reach the report raw (the newlines between its own lines aside). */
const UNSAFE =
  /[^\P{Cc}\n]|\p{Cf}|[\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

const HOSTILE_TEXT = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "\r\n- forged item",
        "\n### Forged heading\n",
        "\r",
        "\u2028- forged",
        "\u0007",
        "\u001b[31m",
        "\u009b31m",
        "\u0085",
        "\u007f",
      ),
      fc.constantFrom(
        "\u202e",
        "\u2066",
        "\u200b",
        "\u200d",
        "\ufeff",
        "\u00ad",
        "\u{e0041}",
        "\ud800",
        "\udc00",
      ),
      fc.constantFrom(
        "<!--",
        "<details>",
        "&#x202e;",
        "&lt;",
        "[approved](https://example.invalid)",
        "![x](https://example.invalid/x.png)",
        "`",
        "**",
        "\\",
        "# ",
        "> ",
        "|",
        "🏦",
      ),
      fc.constantFrom(..."abc XYZ-_:.\"'"),
    ),
    { minLength: 1, maxLength: 25 },
  )
  .map((parts) => parts.join(""));

const VAULT = "pulumi-nodejs:dynamic/custody:Vault";
const ADDRESS = "custody:index:VaultAddress";
const urn = (type: string, name: string) => `urn:pulumi:dev::review-program::${type}::${name}`;

function line(body: Record<string, unknown>): string {
  return JSON.stringify({ sequence: 1, timestamp: 0, ...body });
}

interface State {
  id?: string;
  protect?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

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

function policy(level: string, texts: { name: string; message: string; pack: string }, resource: string) {
  return line({
    policyEvent: {
      resourceUrn: resource,
      message: `${texts.message}\n`,
      color: "never",
      policyName: texts.name,
      policyPackName: texts.pack,
      policyPackVersion: texts.pack,
      policyPackVersionTag: texts.pack,
      enforcementLevel: level,
    },
  });
}

const summary = (result: "succeeded" | "failed") =>
  line({ summaryEvent: { resourceChanges: {}, PolicyPacks: {}, isPreview: true, result } });

/** The texts one preview is made of. */
interface Texts {
  resource: string;
  name: string;
  other: string;
  id: string;
  value: string;
  key: string;
  message: string;
}

/**
 * A preview that puts each text everywhere a report shows one: a create (its name, its resource name, a type
 * and a chain), an adoption, a rename and an update of a list and of an input the review has never heard of, a
 * replacement with the provider's warning, an archive, an address in a vault named by id, an error diagnostic, and
 * mandatory and advisory violations of a pack. Returns the stream and how many list items the report must have.
 */
function hostilePreview(t: Texts): { stream: string; items: number } {
  // A URN's resource name ends at its last `::`: the text keeps none, so that it is the whole resource name.
  const resource = t.resource.replaceAll("::", ":");
  const id = t.id;
  const lines = [
    step("create", VAULT, resource, null, {
      inputs: { name: t.name, type: t.other, chain: t.value },
    }),
    step("create", VAULT, `${resource}-adopted`, null, {
      protect: true,
      inputs: { name: t.name, type: "utxo", chain: t.other, adoptExisting: true },
    }),
    step(
      "update",
      VAULT,
      `${resource}-renamed`,
      { id, inputs: { name: t.name, type: "evm" }, outputs: { name: t.name, address: t.value } },
      { inputs: { name: t.other, type: "evm", [t.key]: t.value } },
    ),
    step(
      "update",
      VAULT,
      `${resource}-grouped`,
      { id, inputs: { name: t.name, type: "evm", vaultGroupIds: [t.value] } },
      { inputs: { name: t.name, type: "evm", vaultGroupIds: [t.other, { nested: t.value }] } },
    ),
    diagnostic(
      "warning",
      `vault "${t.name}" must be replaced: ${t.message}`,
      urn(VAULT, `${resource}-replaced`),
    ),
    step(
      "replace",
      VAULT,
      `${resource}-replaced`,
      { id, inputs: { name: t.name, type: "black_box", keyType: t.other } },
      { inputs: { name: t.name, type: "black_box", keyType: t.value } },
      ["keyType"],
    ),
    step("delete", VAULT, `${resource}-deleted`, { id, inputs: { name: t.name, type: t.other } }, null),
    step("create", ADDRESS, `${resource}-address`, null, { inputs: { name: t.other, vaultId: id } }),
    diagnostic("error", t.message, urn(VAULT, resource)),
    policy("mandatory", { name: t.key, message: t.message, pack: t.other }, urn(VAULT, resource)),
    policy("advisory", { name: t.other, message: t.message, pack: t.other }, urn(VAULT, resource)),
    summary("failed"),
  ];
  const items = {
    cannotApply: 2, // the error, and the count of mandatory violations
    violations: 2,
    adopted: 1,
    created: 2, // a vault and an address
    renamed: 1,
    updated: 1, // the renamed vault's input the review has never heard of
    groups: 1,
    replaced: 1, // and its warning, on a line of its own under it
    archived: 1,
  };
  return { stream: lines.join("\n"), items: Object.values(items).reduce((a, b) => a + b) };
}

/** The texts, each made different from the others (a rename of a name to itself would be no change). */
function distinct(t: Texts): Texts {
  return {
    resource: `r${t.resource}`,
    name: `N${t.name}`,
    other: `O${t.other}`,
    id: `I${t.id}`,
    value: `V${t.value}`,
    // No input is named so, and none starts with `__`, which the review leaves out as the provider's own.
    key: `k${t.key}`,
    message: `M${t.message}`,
  };
}

/** The report's own lines, which no text from outside can make. */
const OWN_LINES = [
  /^## Custody changes$/,
  /^### (🛑|⚠️|Created$|Restored$|Renamed$|Vault groups |Other updates$)/,
  /^This change cannot be applied: /,
  /^Policy packs? .* ran: /,
];

/** The Markdown outside its code spans (a code span shows its text as it is: no markup, no entity). */
function outsideCodeSpans(markdown: string): string {
  let out = "";
  let i = 0;
  while (i < markdown.length) {
    // An escaped character is no markup: left out, so that what remains is what a renderer reads as markup.
    if (markdown[i] === "\\") {
      out += "·";
      i += 2;
      continue;
    }
    const fence = /^`+/.exec(markdown.slice(i))?.[0];
    if (!fence) {
      out += markdown[i];
      i++;
      continue;
    }
    // The span ends at the next run of exactly as many backticks, on the same line.
    const rest = markdown.slice(i + fence.length);
    const close = new RegExp(`(?<!\`)${fence}(?!\`)`).exec(rest.split("\n")[0] ?? "");
    if (!close) {
      out += fence;
      i += fence.length;
      continue;
    }
    out += "`code`";
    i += fence.length + close.index + fence.length;
  }
  return out;
}

/** The start of a report, for a failure's message (a report of raw megabytes would flood the log). */
function brief(markdown: string): string {
  const json = JSON.stringify(markdown);
  return json.length > 3000 ? `${json.slice(0, 3000)}… (${markdown.length} characters)` : json;
}

/** Every way the report could hold the text raw or let it make markup or lines of its own. */
function assertShownAsData(markdown: string, items: number): void {
  assert.doesNotMatch(markdown, UNSAFE, brief(markdown));
  const lines = markdown.split("\n");
  const listed = lines.filter((l) => l.startsWith("- ") || l.startsWith("  > "));
  // One warning of the replacement under its item.
  assert.equal(listed.length, items + 1, brief(markdown));
  for (const l of lines) {
    if (l === "" || l.startsWith("- ") || l.startsWith("  > ")) continue;
    assert.ok(
      OWN_LINES.some((own) => own.test(l)),
      `a line the report does not write: ${brief(l)}`,
    );
  }
  // Outside code spans, no character that starts a tag, a comment or an entity, and no link, unescaped.
  const prose = outsideCodeSpans(markdown);
  assert.doesNotMatch(prose, /[<&]|\]\(/, brief(prose));
}

describe("custody review: the text of the service, the program and the engine, shown as data (property)", () => {
  it("any name, id, value, input, policy or message: no raw control, bidi, zero-width or lone surrogate, no line or markup of its own", () => {
    const texts = fc.record({
      resource: HOSTILE_TEXT,
      name: HOSTILE_TEXT,
      other: HOSTILE_TEXT,
      id: HOSTILE_TEXT,
      value: HOSTILE_TEXT,
      key: HOSTILE_TEXT,
      message: HOSTILE_TEXT,
    });
    fc.assert(
      fc.property(texts, (t) => {
        const { stream, items } = hostilePreview(distinct(t));
        assertShownAsData(reviewReport(parsePreview(stream)), items);
      }),
      { numRuns: 300 },
    );
  });

  it("a very long name, value or message is cut: the report stays short", () => {
    const long = `\u202e${"x".repeat(1024 * 1024)}`;
    const { stream, items } = hostilePreview(
      distinct({ resource: long, name: long, other: long, id: long, value: long, key: long, message: long }),
    );
    const markdown = reviewReport(parsePreview(stream));
    assertShownAsData(markdown, items);
    assert.ok(markdown.length < 40_000, `${markdown.length} characters`);
    for (const l of markdown.split("\n")) assert.ok(l.length <= 4_000, `a line of ${l.length}`);
    assert.ok(/Vault \*\*N\\u202exxx+…\*\*/.test(markdown), brief(markdown));
  });
});
