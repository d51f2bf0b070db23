/** A bounded log of the API requests the emulator answered, for tests to inspect (`GET /__emulator/requests`). */
export interface RequestLogEntry {
  /** Emulator time the request arrived, ISO-8601. */
  time: string;
  method: string;
  /** Path without the query string. */
  path: string;
  /** Path plus query string, as received. */
  url: string;
  /** The endpoint table's route template, when the path matched one (`/api/v1/vaults/{id}`). */
  route?: string;
  /** HTTP status sent; 0 when the connection was reset by a fault. */
  status: number;
  request_id: string;
  duration_ms: number;
  /** The injected fault, if any. */
  fault?: string;
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  constructor(public capacity = 1000) {}

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** The newest `limit` entries, oldest first. */
  list(limit = this.capacity): RequestLogEntry[] {
    return this.entries.slice(-limit);
  }

  clear(): void {
    this.entries = [];
  }
}
