/**
 * What the packages' tests share, imported by name (`@pulumi-custody/testing`) so that no test reaches into
 * another package's sources. Never published.
 *
 * @module
 */
export * from "./emulator-cli";
export * from "./emulator-harness";
export * from "./free-port";
export * from "./loopback-network";
export * from "./loopback-server";
export * from "./service-records";
export * from "./vendor-instances";
export * from "./vendor-openapi";
