/**
 * The subpaths that release 0.1.0 exported and 0.2.0 moved to packages of their own (CHANGELOG.md, "Migrating
 * from 0.1.0"): requiring one throws an error that names the new package, instead of Node's bare
 * `ERR_PACKAGE_PATH_NOT_EXPORTED`.
 */

/** The error of a `require("pulumi-custody/<subpath>")` that moved to `newPackage`. */
export class MovedPackageError extends Error {
  /** Stable code, like Node's own module errors. */
  readonly code = "ERR_PULUMI_CUSTODY_MOVED";
  /** The package to install and require instead (`@pulumi-custody/sdk`). */
  readonly newPackage: string;
  constructor(subpath: string, newPackage: string, how: string) {
    super(
      `pulumi-custody/${subpath} is no longer part of pulumi-custody: since 0.2.0 it is the package ${newPackage}. ` +
        `${how} (CHANGELOG.md of pulumi-custody, "Migrating from 0.1.0").`,
    );
    this.name = "MovedPackageError";
    this.newPackage = newPackage;
  }
}
