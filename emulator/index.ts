/**
 * `@pulumi-custody/emulator`: a local, stateful custody API v0.2.0 for tests and demos.
 *
 * ```ts
 * import { startEmulator } from "@pulumi-custody/emulator";
 * const emulator = await startEmulator({ port: 0 });
 * // … call `${emulator.baseUrl}/api/v1/...` with `Authorization: Bearer ${emulator.accessToken}` …
 * await emulator.control.reset();
 * await emulator.close();
 * ```
 *
 * @module
 */

export type {
  ClockSnapshot,
  DeliveryRecord,
  FaultConfig,
  FaultKind,
  FaultRule,
  PersistenceStatus,
  ProgressionMode,
  ProgressionSettings,
  ProposalRecord,
  RequestLogEntry,
  WebhookEndpointRecord,
  WebhookSettings,
} from "./control/client";
export {
  EmulatorControlClient,
  type EmulatorControlClientOptions,
  EmulatorControlError,
  type EmulatorInfo,
  type StateCollection,
  type StateSummary,
} from "./control/client";
export type { CredentialOptions } from "./credentials";
export { type EmulatorOptions, type RunningEmulator, startEmulator } from "./start-emulator";
export { StateFileError } from "./state/persistence";
