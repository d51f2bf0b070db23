/**
 * The one schema module of custody API v0.2.0, shared by the client (`sdk/`) and the emulator (`emulator/`).
 * Requests are strict enough to reject mistakes before they are sent; responses are lenient (unknown fields
 * kept, older real shapes accepted).
 */
export * from "./addresses";
export * from "./assets";
export * from "./chains";
export * from "./common";
export * from "./endpoints";
export * from "./enums";
export * from "./errors";
export * from "./name-rules";
export { closedWorld, type UnknownVariant, variantsOfOpenUnion } from "./open";
export * from "./refs";
export * from "./transactions";
export * from "./users";
export * from "./vaults";
export * from "./webhooks";
