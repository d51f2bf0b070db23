/**
 * What `custody drift --accept` reports: each drifted input it brought in line with the service (where, and
 * how), each it left to a hand edit (the file and line, why, and the value to declare), the files it changed and
 * their diff. It is the `accept` of the drift report (drift/report.schema.json), and the Markdown report's last
 * section.
 */

/** How an accepted input was brought in line. */
export type AcceptHow = "rewritten" | "added" | "removed" | "config";

/** A drifted input brought in line with the service. */
export interface AcceptedChange {
  /** The resource's name. */
  readonly resource: string;
  /** Its URN. */
  readonly urn: string;
  /** The input (`name`, `vaultGroupIds`, `archived`). */
  readonly field: string;
  /** How: its literal rewritten, the input added or removed, or its config value set. */
  readonly how: AcceptHow;
  /** The file changed, relative to the working directory (the stack's config file for `config`). */
  readonly file: string;
  /** The line of the program that declares the value (for `config`: where the program reads it). */
  readonly line: number;
  /** The program file of `line` (for `config`: the program's, not the config file). */
  readonly declaredIn: string;
  /** The config key set (`config` only; `null` otherwise). */
  readonly configKey: string | null;
  /** The value now declared; `null` when it is a secret or the input was removed. */
  readonly value: unknown;
  /** Whether the value is a secret (never shown). */
  readonly secret: boolean;
}

/** A drifted input an accept cannot bring in line: the hand edit it needs. */
export interface HandEdit {
  /** The resource's name. */
  readonly resource: string;
  /** Its URN. */
  readonly urn: string;
  /** The input; `null` when the drift is not an input's (a vault gone from the service). */
  readonly field: string | null;
  /** The file to edit, relative to the working directory; `null` when the declaration was not found. */
  readonly file: string | null;
  /** Its 1-based line; `null` with `file`. */
  readonly line: number | null;
  /** Why it needs a hand edit, and what to do. */
  readonly reason: string;
  /** The value the service has, to declare; `null` when it is a secret or not known. */
  readonly value: unknown;
  /** Whether that value is a secret (never shown). */
  readonly secret: boolean;
}

/** The accept's part of the drift report. */
export interface AcceptReport {
  /** Whether nothing was written (`--dry-run`). */
  readonly dryRun: boolean;
  /** The command's exit status: 0 every drift accepted, 3 some left to a hand edit, 1 the accept could not run. */
  readonly exitCode: 0 | 1 | 3;
  /** Why the accept could not run, in one line; `null` unless `exitCode` is 1. */
  readonly reason: string | null;
  /** The drifted inputs brought in line. */
  readonly accepted: readonly AcceptedChange[];
  /** The drift left to a hand edit. */
  readonly handEdits: readonly HandEdit[];
  /** Vaults made in the console that the program now declares (`--accept-new`), by resource name. */
  readonly imported: readonly ImportedVault[];
  /** The files changed (or, with `dryRun`, that would be), relative to the working directory. */
  readonly files: readonly string[];
  /** Their unified diff (`git apply` reads it); empty when nothing changes. */
  readonly diff: string;
}

/** A vault made in the console that an accept declares (`--accept-new`). */
export interface ImportedVault {
  /** The resource name it gets. */
  readonly resource: string;
  /** The vault's id. */
  readonly vaultId: string;
  /** Its name. */
  readonly vaultName: string;
  /** The program file it is declared in, relative to the working directory. */
  readonly file: string;
}
