/**
 * What a language of `custody import` is: its Pulumi runtime, the file its program goes in, and, when the
 * dynamic provider can run it, how a program that adopts the selection is written in it (`--provider dynamic`).
 * Each language is one file of this folder (./typescript.ts, ./python.ts, ./yaml.ts), listed in ./index.ts: a new
 * language is one more file and one more line there.
 */

/** A value of a declaration as code: a literal (written by the language), or code that refers to another resource. */
export type ProgramValue = { readonly literal: unknown } | { readonly idOf: string };

/** One resource of a program: its class, its resource name, its inputs in order, and where it is kept. */
export interface ProgramResource {
  /** The resource class (`Vault`, `VaultAddress`). */
  readonly kind: string;
  /** Its Pulumi resource name. */
  readonly name: string;
  /** Its inputs, in the order of its declaration. */
  readonly inputs: readonly (readonly [string, ProgramValue])[];
  /** Mark it `protect: true`. */
  readonly protect: boolean;
  /** The variable that keeps it, when another resource refers to it. */
  readonly variable?: string;
}

/** How a program that declares resources of the dynamic provider is written in one language. */
export interface DynamicProgramWriter {
  /** The variable of a resource name, one no two resource names share. */
  variable(resourceName: string): string;
  /** The program's first lines: what wrote it, and the import of the resource classes it uses. */
  header(kinds: readonly string[]): string[];
  /** The statement that declares one resource. */
  declaration(resource: ProgramResource): string;
}

/** One language of `custody import`. */
export interface ImportLanguage {
  /** Its name, as `--language` takes it. */
  readonly name: string;
  /** Its Pulumi runtime (`runtime:` of `Pulumi.yaml`). */
  readonly runtime: string;
  /** The program's file in the project directory (the one its language host runs). */
  readonly programFile: string;
  /** How it writes a program of the dynamic provider; none where the dynamic provider does not run. */
  readonly dynamic?: DynamicProgramWriter;
}
