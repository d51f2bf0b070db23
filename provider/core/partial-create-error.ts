/**
 * A create that made its object but could not finish (for example, the vault exists but its group proposal
 * failed). The dynamic-provider host turns an error carrying `id` and `properties` into
 * `ErrorResourceInitFailed`, so the engine keeps the object in state instead of losing track of it; the next
 * `up` then finishes the job through `update`.
 */
export class PartialCreateError extends Error {
  /** Id of the object that was created. */
  readonly id: string;
  /** Its outputs as far as they are known. */
  readonly properties: Record<string, unknown>;
  /** Why it is not complete. */
  readonly reasons: string[];

  constructor(id: string, properties: object, reason: string) {
    super(reason);
    this.name = "PartialCreateError";
    this.id = id;
    this.properties = { ...properties };
    this.reasons = [reason];
  }
}
