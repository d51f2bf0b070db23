/**
 * `@pulumi-custody/cli`: the `custody` command line (review, drift, recover, import, import-file) and its
 * subcommands as functions, for pipelines that call them from code.
 *
 * @packageDocumentation
 */
export type { Command, CommandIo } from "./command";
export { COMMANDS, main } from "./custody";
export type {
  AcceptedChange,
  AcceptHow,
  AcceptReport,
  HandEdit,
  ImportedVault,
} from "./drift/accept/report";
export {
  DRIFT_EXIT_CODES,
  type DriftedField,
  type DriftedResource,
  type DriftInput,
  type DriftReport,
  type DriftStatus,
  driftReport,
} from "./drift/drift";
export { driftMarkdown } from "./drift/markdown";
export { SKIP_CHECKPOINTS_FROM } from "./import/command";
export type { ImportFilter } from "./import/filter";
export type { StackHoldings } from "./import/stacks";
export { type ImportEntry, type ImportFileOptions, importFile } from "./import-file/import-file";
export {
  type PreviewJson,
  type Review,
  type ReviewOptions,
  reviewPreview,
  reviewReport,
} from "./review/report";
