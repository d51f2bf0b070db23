/**
 * The review report leaves out the provider's internal inputs (`__`-prefixed, which the engine does not
 * display either): `__provider`, and `__nameIsSecret`, which the `Vault` class adds for a secret name.
 */
import { strict as assert } from "node:assert";
import fs from "node:fs";
import path from "node:path";
import { type PreviewJson, reviewReport } from "../../review/report";

const fixture = path.join(
  __dirname,
  "..",
  "..",
  "..",
  "test",
  "fixtures",
  "review",
  "preview-rename-replace-archive.json",
);

describe("custody review: internal inputs", () => {
  it("a name that turns secret: the report shows the name's change, not __nameIsSecret", () => {
    const preview = JSON.parse(fs.readFileSync(fixture, "utf8")) as PreviewJson;
    const rename = (preview.steps ?? []).find((s) => s.op === "update" && s.urn.endsWith("::treasury"));
    assert.ok(rename?.newState?.inputs, "the fixture has the rename of treasury");
    rename.newState.inputs.__nameIsSecret = true;
    const report = reviewReport(preview);
    assert.doesNotMatch(report, /__nameIsSecret/);
    assert.match(report, /Vault \*\*Treasury\*\* .*: `name`: `"Treasury"` → `"Treasury Main"`\./);
  });
});
