/** Every language of `custody import`, one file each (./program.ts says what a language is). */
import { go } from "./go";
import type { ImportLanguage } from "./program";
import { python } from "./python";
import { typescript } from "./typescript";
import { yaml } from "./yaml";

export type { DynamicProgramWriter, ImportLanguage, ProgramResource, ProgramValue } from "./program";

/** The languages, by name, in the order usage lines list them. */
export const IMPORT_LANGUAGES = { typescript, python, yaml, go } as const satisfies Record<
  string,
  ImportLanguage
>;

/** The languages a program can be generated in. */
export const LANGUAGES = Object.keys(IMPORT_LANGUAGES) as readonly Language[];

/** One of {@link LANGUAGES}. */
export type Language = keyof typeof IMPORT_LANGUAGES;

/** The Pulumi runtime of each language. */
export const RUNTIME_OF: Readonly<Record<Language, string>> = Object.fromEntries(
  LANGUAGES.map((name) => [name, IMPORT_LANGUAGES[name].runtime]),
) as Record<Language, string>;

/** The program file of each language, in a project directory. */
export const PROGRAM_FILE_OF: Readonly<Record<Language, string>> = Object.fromEntries(
  LANGUAGES.map((name) => [name, IMPORT_LANGUAGES[name].programFile]),
) as Record<Language, string>;
