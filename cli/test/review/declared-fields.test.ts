/**
 * Where the review lists a change of an input, and how it names it, come from the input's declaration
 * (`review` of each input in pulumi-custody/core), not from names written in the review: an update of any one
 * input of either resource is listed under the section its declaration names, with its declared label; and an
 * input the review has never heard of lands in the section a new declaration gives it.
 */
import { strict as assert } from "node:assert";
import {
  CUSTODY_RESOURCES,
  inputNames,
  inputOf,
  type ReviewSection,
  valueKindOf,
  vaultResource,
} from "pulumi-custody/core";
import type { PreviewJson } from "../../review/preview";
import { reviewReport } from "../../review/report";

/** The heading each section is listed under (for `archive`, a change to `true`). */
const HEADING: Record<ReviewSection, string> = {
  renamed: "### Renamed",
  groups: "### Vault groups",
  archive: "### ⚠️ Archived",
  safety: "### ⚠️ Protection and adoption",
  updated: "### Other updates",
};

/** An old and a new value of an input, by the kind of its values. */
function twoValues(kind: string): [unknown, unknown] {
  switch (kind) {
    case "boolean":
      return [false, true];
    case "list":
      return [["11111111-1111-4111-8111-111111111111"], ["22222222-2222-4222-8222-222222222222"]];
    case "number":
      return [1, 2];
    case "object":
      return [{ a: "1" }, { a: "2" }];
    default:
      return ["before", "after"];
  }
}

/** A planned update of one input of a resource, as `pulumi preview --json` prints it. */
function updateOf(type: string, field: string, old: unknown, now: unknown): PreviewJson {
  const base = { name: "Declared", type: "evm" };
  return {
    steps: [
      {
        op: "update",
        urn: `urn:pulumi:dev::p::${type}::thing`,
        oldState: { type, id: "id-1", inputs: { ...base, [field]: old }, outputs: { name: "Declared" } },
        newState: { type, inputs: { ...base, [field]: now } },
      },
    ],
    diagnostics: [],
  };
}

/** The section (heading) a line that names `label` is listed under. */
function sectionOf(report: string, label: string): string | undefined {
  let heading: string | undefined;
  for (const line of report.split("\n")) {
    if (line.startsWith("### ")) heading = line;
    else if (line.includes(`\`${label}\``)) return heading;
  }
  return undefined;
}

describe("custody review: each input's section and label come from its declaration", () => {
  for (const resource of CUSTODY_RESOURCES) {
    for (const field of inputNames(resource.fields)) {
      const spec = inputOf(resource.fields, field)!;
      it(`${resource.kind}.${field}: listed under its declared section, as its declared label`, () => {
        const [old, now] = twoValues(valueKindOf(spec.type).kind);
        const report = reviewReport(updateOf(resource.dynamicType, field, old, now));
        const section = spec.review?.section ?? "updated";
        const label = spec.review?.label ?? field;
        const heading = sectionOf(report, label);
        assert.ok(
          heading?.startsWith(HEADING[section]),
          `${field}: under ${heading}, not ${HEADING[section]}\n${report}`,
        );
      });
    }
  }

  it("a section and a label given in a declaration are the ones the review uses", () => {
    // The declaration is the review's only source: a copy of the Vault's descriptor whose `endUserId` says
    // another section and label is listed there, under that label.
    const endUserId = inputOf(vaultResource.fields, "endUserId")!;
    const original = endUserId.review;
    try {
      (endUserId as { review?: unknown }).review = { section: "safety", label: "end user" };
      const report = reviewReport(updateOf(vaultResource.dynamicType, "endUserId", "before", "after"));
      assert.equal(sectionOf(report, "end user"), "### ⚠️ Protection and adoption");
      assert.doesNotMatch(report, /`endUserId`/);
    } finally {
      (endUserId as { review?: unknown }).review = original;
    }
  });
});
