/**
 * The state file: the whole emulator state as JSON, with a format version.
 *
 * Writes are atomic: the JSON goes to a temporary file in the same directory, which is fsynced, renamed
 * over the state file, and the directory is fsynced, so a crash (even `kill -9`) leaves either the old or
 * the new file, never a torn one. Background changes are debounced (many changes, one write; longer for a
 * state that takes long to write); writes are serialized (one in flight); `flush()` forces one and resolves
 * once it is durable. The server awaits `flush()` before answering a write request, so what it acknowledged
 * is on disk. A file that cannot be read (corrupt, or
 * another format version) is an error that names the file, and the file is left untouched.
 */
import { readdirSync, readFileSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { type EmulatorState, STATE_FORMAT_VERSION } from "./types";

/** A state file that cannot be used; the message names the file and what is wrong. */
export class StateFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(
      `custody-emulator: cannot use state file ${file}: ${reason}. ` +
        "The file was left untouched; move it away or pass another --state-file.",
    );
    this.name = "StateFileError";
  }
}

const record = z.looseObject({ id: z.string() });
const StateFileShape = z.looseObject({
  format_version: z.number(),
  organization_id: z.string(),
  id_seed: z.string(),
  id_counter: z.number().int().min(0),
  api_user_id: z.string(),
  viewer_user_id: z.string(),
  default_vault_group_id: z.string(),
  credentials: z.looseObject({
    accessToken: z.string().min(1),
    viewerAccessToken: z.string().min(1),
    controlToken: z.string().min(1),
    apiUserPrivateKeyPem: z.string().min(1),
    apiUserPublicKeyPem: z.string().min(1),
    webhookPrivateKeyPem: z.string().min(1),
    webhookPublicKeyPem: z.string().min(1),
  }),
  users: z.array(record),
  memberships: z.array(z.looseObject({ user_id: z.string(), group_id: z.string() })),
  user_groups: z.array(record),
  vault_groups: z.array(record),
  vaults: z.array(record),
  addresses: z.array(record),
  owned_assets: z.array(z.looseObject({ vault_id: z.string(), asset_id: z.string() })),
  proposals: z.array(record),
  transactions: z.array(record),
  audit_log: z.array(record),
  webhook_endpoints: z.array(record),
});

function tempPrefix(file: string): string {
  return `.${basename(file)}.`;
}

/** Reads a state file; undefined when it does not exist. Throws `StateFileError` when it is unusable. */
export function readStateFile(file: string): EmulatorState | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new StateFileError(file, `it cannot be read (${(err as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new StateFileError(file, `it is not valid JSON (${(err as Error).message})`);
  }
  const version = (data as { format_version?: unknown } | null)?.format_version;
  if (typeof data !== "object" || data === null || version === undefined) {
    throw new StateFileError(file, "it is not a custody-emulator state file (no format_version)");
  }
  if (version !== STATE_FORMAT_VERSION) {
    throw new StateFileError(
      file,
      `it has format version ${JSON.stringify(version)}, and this emulator reads version ${STATE_FORMAT_VERSION}`,
    );
  }
  const shape = StateFileShape.safeParse(data);
  if (!shape.success) {
    const issue = shape.error.issues[0]!;
    throw new StateFileError(file, `field ${issue.path.join(".") || "(root)"} is invalid (${issue.message})`);
  }
  removeStaleTempFiles(file);
  return data as EmulatorState;
}

/** Temporary files of writes interrupted by a crash. */
function removeStaleTempFiles(file: string): void {
  const dir = dirname(file);
  const prefix = tempPrefix(file);
  try {
    for (const name of readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith(".tmp"))
        void unlink(join(dir, name)).catch(() => undefined);
    }
  } catch {
    // An unreadable directory only means no clean-up.
  }
}

/** Writes `text` to `file` atomically and durably. */
export async function writeFileAtomic(file: string, text: string, tempSuffix: string): Promise<void> {
  const dir = dirname(file);
  const temp = join(dir, `${tempPrefix(file)}${tempSuffix}.tmp`);
  const handle = await open(temp, "w", 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  const dirHandle = await open(dir, "r");
  try {
    await dirHandle.sync();
  } catch {
    // Some file systems cannot fsync a directory; the rename is still atomic.
  } finally {
    await dirHandle.close();
  }
}

/** Status of the state file, as the control API reports it (`GET /__emulator/persistence`). */
export interface PersistenceStatus {
  /** Path of the state file. The control API leaves it out when the emulator keeps its state in memory. */
  stateFile?: string;
  /** Wall-clock time (ISO-8601) the last write finished; absent before the first write. */
  lastWriteAt?: string;
  /** A change is not on disk yet (a write is scheduled or running). */
  pendingWrite: boolean;
  /** Writes finished since the emulator started. */
  writes: number;
  /** Message of the last failed write; cleared by the next successful one. */
  lastError?: string;
}

/** Debounced, serialized, atomic saving of the state to one file. */
export class StatePersistence {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private writing: Promise<void> | undefined;
  private writes = 0;
  private lastWriteAt: string | undefined;
  private lastError: string | undefined;
  private lastDurationMs = 0;
  private closed = false;

  constructor(
    readonly file: string,
    private readonly snapshot: () => EmulatorState,
    private readonly debounceMs = 50,
  ) {}

  /** Notes a change; a write follows within `debounceMs`. */
  schedule(): void {
    if (this.closed) return;
    this.dirty = true;
    if (this.timer) return;
    // A large state takes a while to serialize and write: wait at least 4 times as long as the last write
    // took, so saving never takes more than a fifth of the time under a stream of changes.
    const delay = Math.max(this.debounceMs, this.lastDurationMs * 4);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch(() => undefined);
    }, delay);
  }

  /** Writes any pending change now; resolves when the file on disk holds it. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.writing) await this.writing.catch(() => undefined);
    if (!this.dirty) return;
    this.dirty = false;
    const started = performance.now();
    const text = JSON.stringify(this.snapshot());
    this.writing = writeFileAtomic(this.file, text, `${process.pid}.${this.writes}`)
      .then(() => {
        this.writes += 1;
        this.lastWriteAt = new Date().toISOString();
        this.lastDurationMs = performance.now() - started;
        this.lastError = undefined;
      })
      .catch((err: Error) => {
        this.dirty = true;
        this.lastError = err.message;
        throw err;
      })
      .finally(() => {
        this.writing = undefined;
      });
    await this.writing;
  }

  /** Writes a last time and stops scheduling. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  status(): PersistenceStatus {
    return {
      stateFile: this.file,
      ...(this.lastWriteAt ? { lastWriteAt: this.lastWriteAt } : {}),
      pendingWrite: this.dirty || this.writing !== undefined,
      writes: this.writes,
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }
}
