/**
 * Balance exports and their download links.
 *
 * The published `Export` gives `download_url` next to `expiration_time`: the shape of a presigned
 * object-storage link, fetched without the API's token and good until it expires (emulator/README.md,
 * "Vaults"). The emulator hands out the same kind of link: the export id comes from a CSPRNG, and the link
 * carries its expiry and an HMAC of id and expiry under a key drawn at start, so a link cannot be guessed,
 * moved to another export or extended. Whatever is wrong with a link (unknown id, bad or missing signature,
 * expired) gets the same 404, so a caller learns nothing about other users' exports.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

/** Exports kept for download; older ones are dropped first. */
export const EXPORT_LIMIT = 50;
/** How long a download link is good for, from the export's creation (emulator clock). */
export const EXPORT_LIFETIME_MS = 24 * 3600_000;

/** Where an export's CSV is served, under the control prefix (no control token needed). */
export const EXPORT_DOWNLOAD_ROUTE = "/__emulator/exports/:id/download";

/** A new export's id, the path and query of its download link, and when the link expires. */
export interface ExportTicket {
  id: string;
  /** `/__emulator/exports/{id}/download?expires=…&signature=…`; prefix it with the emulator's base URL. */
  downloadPath: string;
  /** Epoch milliseconds (a whole second) after which the link answers 404. */
  expiresAtMs: number;
}

interface ExportEntry {
  csv: string;
  expiresAtMs: number;
}

/** The exports of one running emulator; nothing here is persisted (a restart invalidates every link). */
export class ExportStore {
  private readonly key = randomBytes(32);
  private readonly entries = new Map<string, ExportEntry>();

  /** @param now - emulator time in epoch milliseconds, so tests can expire links by moving the clock. */
  constructor(private readonly now: () => number) {}

  /** Reserves an id and signs its download link; {@link ExportStore.add} stores the export under it. */
  ticket(): ExportTicket {
    const id = randomUUID();
    const expiresSeconds = Math.floor((this.now() + EXPORT_LIFETIME_MS) / 1000);
    const query = new URLSearchParams({
      expires: String(expiresSeconds),
      signature: this.sign(id, String(expiresSeconds)),
    });
    return {
      id,
      downloadPath: `${EXPORT_DOWNLOAD_ROUTE.replace(":id", id)}?${query}`,
      expiresAtMs: expiresSeconds * 1000,
    };
  }

  /** Stores a finished export under its ticket; the oldest exports beyond {@link EXPORT_LIMIT} are dropped. */
  add(ticket: ExportTicket, csv: string): void {
    this.entries.set(ticket.id, { csv, expiresAtMs: ticket.expiresAtMs });
    while (this.entries.size > EXPORT_LIMIT) this.entries.delete(this.entries.keys().next().value as string);
  }

  /**
   * The CSV behind a download link (`id` from the path, `query` as parsed), or undefined when the link does
   * not open it, for whatever reason.
   */
  open(id: string, query: unknown): string | undefined {
    const entry = this.entries.get(id);
    if (!entry || query === null || typeof query !== "object") return undefined;
    const { expires, signature } = query as Record<string, unknown>;
    if (typeof expires !== "string" || typeof signature !== "string" || !/^\d{1,15}$/.test(expires))
      return undefined;
    const expected = Buffer.from(this.sign(id, expires));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    if (Number(expires) * 1000 !== entry.expiresAtMs || this.now() > entry.expiresAtMs) return undefined;
    return entry.csv;
  }

  /** Drops every export (control API reset). */
  clear(): void {
    this.entries.clear();
  }

  private sign(id: string, expires: string): string {
    return createHmac("sha256", this.key).update(`${id}\n${expires}`).digest("base64url");
  }
}
