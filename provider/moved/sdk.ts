/**
 * `pulumi-custody/sdk`, as release 0.1.0 exported it: the client is the package `@pulumi-custody/sdk` now.
 * Requiring this subpath throws an error that says so (./moved-package.ts).
 */
import { MovedPackageError } from "./moved-package";

throw new MovedPackageError(
  "sdk",
  "@pulumi-custody/sdk",
  "npm install @pulumi-custody/sdk",
  "its client is the one 0.1.0 exported here",
);
