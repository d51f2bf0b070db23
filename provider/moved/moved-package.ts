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
  /**
   * @param install - the command that installs it (`npm install @pulumi-custody/sdk`)
   * @param note - what else to know, if anything (the API is the same)
   */
  constructor(subpath: string, newPackage: string, install: string, note = "") {
    super(
      `pulumi-custody/${subpath} is no longer part of pulumi-custody: since 0.2.0 it is the package ${newPackage}. ` +
        `Install it (${install}) and require(${JSON.stringify(newPackage)}) instead${note ? `; ${note}` : ""} ` +
        '(CHANGELOG.md of pulumi-custody, "Migrating from 0.1.0").',
    );
    this.name = "MovedPackageError";
    this.newPackage = newPackage;
  }
}
