/**
 * `@pulumi-custody/cli`: the `custody` command line (review, recover, import, import-file) and its subcommands
 * as functions, for pipelines that call them from code.
 *
 * @packageDocumentation
 */
export type { Command, CommandIo } from "./command";
export { COMMANDS, main } from "./custody";
export type { ImportFilter } from "./import/filter";
export type { StackHoldings } from "./import/stacks";
export { type ImportEntry, type ImportFileOptions, importFile } from "./import-file/import-file";
export { type PreviewJson, reviewReport } from "./review/report";
