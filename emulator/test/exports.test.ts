// Balance export downloads: `download_url` is a signed, expiring link (emulator/README.md, "Vaults"), the
// export id comes from a CSPRNG, nobody gets an export's CSV without its link, and the link points at the
// emulator's own address whatever Host header the client sent.
import assert from "node:assert/strict";
import { assertError, type Harness, rawCall, startHarness } from "@pulumi-custody/testing";
import { deterministicUuid } from "../prng";

describe("emulator: balance export downloads", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.close());
  afterEach(async () => h.emulator.control.resetClock());

  /** A fresh export of every vault, as `token`'s user (default: the trader). */
  async function exportAll(token?: string): Promise<{ id: string; download_url: string; user_id: string }> {
    const res = await h.api("GET", "/api/v1/vaults/export_async", token ? { token } : {});
    assert.equal(res.status, 200, res.text);
    return res.body;
  }
  /** GET of a URL path (with its query) on the emulator, with no token unless one is given. */
  const download = (pathAndQuery: string, token?: string) =>
    rawCall(h.emulator.baseUrl, "GET", pathAndQuery, token ? { token } : {});
  const pathOf = (url: string) => {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  };

  it("serves the CSV at download_url, without a token", async () => {
    const exported = await exportAll();
    const res = await download(pathOf(exported.download_url));
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers["content-type"]), /^text\/csv/);
    assert.match(res.text, /^vault_id,vault_name,/);
    assert.match(String(res.headers["cache-control"]), /no-store/);
  });

  it("an export id cannot be guessed from the data seed: enumerating the seeded ids finds nothing", async () => {
    const exported = await exportAll();
    for (let n = 1; n <= 300; n++) {
      const guess = deterministicUuid("custody-emulator", n);
      assert.notEqual(guess, exported.id, `the export id is deterministicUuid(seed, ${n})`);
      const res = await download(`/__emulator/exports/${guess}/download`);
      assert.equal(res.status, 404, `guess ${n} answered ${res.status}`);
    }
  });

  it("two emulators with the same data seed hand out different export ids and links", async () => {
    const other = await startHarness();
    try {
      const a = await exportAll();
      const res = await other.api("GET", "/api/v1/vaults/export_async");
      assert.notEqual(res.body.id, a.id);
      assert.notEqual(new URL(res.body.download_url).search, new URL(a.download_url).search);
    } finally {
      await other.close();
    }
  });

  it("without its signature, with another export's signature, or expired, a link is a 404 that reveals nothing", async () => {
    const a = await exportAll();
    const b = await exportAll();
    const bare = `/__emulator/exports/${a.id}/download`;
    const cases: [string, string][] = [
      ["no signature", bare],
      ["no signature, with the owner's bearer token", bare],
      ["b's signature on a's id", `${bare}${new URL(b.download_url).search}`],
      [
        "a tampered expiry",
        pathOf(a.download_url).replace(/expires=(\d+)/, (_m, s) => `expires=${Number(s) + 1}`),
      ],
    ];
    for (const [label, path] of cases) {
      const res = await download(path, label.includes("bearer") ? h.emulator.accessToken : undefined);
      assertError(res, 404, { resource: "export" });
      assert.doesNotMatch(res.text, /vault_id,/, label);
    }
    // The unknown id answers exactly as the known one does: same status, same title and detail.
    const unknown = await download(`/__emulator/exports/${deterministicUuid("x", 1)}/download`);
    const known = await download(bare);
    assert.equal(unknown.status, known.status);
    assert.equal(unknown.body.title, known.body.title);
    assert.equal(
      unknown.body.detail.replace(/[0-9a-f-]{36}/, "ID"),
      known.body.detail.replace(/[0-9a-f-]{36}/, "ID"),
    );
    // Expired: a day and a second later on the emulator clock.
    await h.emulator.control.advanceClock(24 * 3600_000 + 1000);
    assertError(await download(pathOf(a.download_url)), 404, { resource: "export" });
  });

  it("another API user cannot download an export: the viewer gets a 404 with its own token and link", async () => {
    const traders = await exportAll();
    const viewers = await exportAll(h.emulator.viewerAccessToken);
    assert.notEqual(viewers.user_id, traders.user_id);
    const viewerSearch = new URL(viewers.download_url).search;
    for (const path of [
      `/__emulator/exports/${traders.id}/download`,
      `/__emulator/exports/${traders.id}/download${viewerSearch}`,
    ]) {
      const res = await download(path, h.emulator.viewerAccessToken);
      assertError(res, 404, { resource: "export" });
    }
  });

  it("a malformed export id or signature is a 404, never a 422 or 500", async () => {
    const a = await exportAll();
    for (const path of [
      "/__emulator/exports/not-a-uuid/download",
      `/__emulator/exports/${"9".repeat(150)}/download`,
      `/__emulator/exports/${a.id}/download?expires=soon&signature=%%%`,
      `/__emulator/exports/${a.id}/download?expires=1&expires=2&signature=a&signature=b`,
      `/__emulator/exports/${a.id}/download?signature=${"A".repeat(5000)}`,
    ]) {
      const res = await download(path);
      assertError(res, 404, { resource: "export" });
    }
  });

  it("download_url points at the emulator's own address, whatever the Host header says", async () => {
    const res = await h.api("GET", "/api/v1/vaults/export_async", {
      headers: { host: "attacker.example:9" },
    });
    assert.equal(res.status, 200, res.text);
    assert.ok(
      res.body.download_url.startsWith(`${h.emulator.baseUrl}/__emulator/exports/`),
      res.body.download_url,
    );
  });

  it("refuses a publicUrl that is not an http(s) URL without query or fragment, naming the option", async () => {
    for (const publicUrl of [
      "localhost:8787",
      "ftp://x.example",
      "http://x.example/?a=1",
      "http://x.example/#f",
    ]) {
      await assert.rejects(startHarness({ publicUrl }), /publicUrl must/, publicUrl);
    }
  });

  it("download_url starts with publicUrl when one is configured", async () => {
    const other = await startHarness({ publicUrl: "https://custody.test.invalid:8443/" });
    try {
      const res = await other.api("GET", "/api/v1/vaults/export_async", {
        headers: { host: "attacker.example" },
      });
      assert.match(res.body.download_url, /^https:\/\/custody\.test\.invalid:8443\/__emulator\/exports\//);
      // The path and query of that link work on the emulator's own address.
      const csv = await rawCall(other.emulator.baseUrl, "GET", pathOf(res.body.download_url));
      assert.equal(csv.status, 200, csv.text);
    } finally {
      await other.close();
    }
  });
});
