// Code written for release 0.1.0 requires `pulumi-custody/sdk` or `pulumi-custody/emulator`, which 0.2.0 moved to
// packages of their own. Required from the package as a program installs it (./installed-package.ts), each
// subpath fails with an error that names the new package and how to install it, not with Node's bare
// ERR_PACKAGE_PATH_NOT_EXPORTED; the subpaths 0.2.0 keeps for 0.1.0's state still load.
import * as assert from "node:assert/strict";
import { installedPackage } from "./installed-package";

describe("the subpaths release 0.1.0 exported", () => {
  for (const [subpath, newPackage, install] of [
    ["sdk", "@pulumi-custody/sdk", "npm install @pulumi-custody/sdk"],
    ["emulator", "@pulumi-custody/emulator", "npm install --save-dev @pulumi-custody/emulator"],
  ] as const) {
    it(`require("pulumi-custody/${subpath}") names ${newPackage} and how to install it`, () => {
      const { require } = installedPackage();
      assert.throws(
        () => require(`pulumi-custody/${subpath}`),
        (err: NodeJS.ErrnoException) => {
          assert.notEqual(err.code, "ERR_PACKAGE_PATH_NOT_EXPORTED", err.message);
          assert.equal(err.code, "ERR_PULUMI_CUSTODY_MOVED");
          assert.match(
            err.message,
            new RegExp(`^pulumi-custody/${subpath} is no longer part of pulumi-custody`),
          );
          assert.ok(err.message.includes(`the package ${newPackage}`), err.message);
          assert.ok(err.message.includes(`(${install})`), err.message);
          assert.ok(err.message.includes(`require("${newPackage}")`), err.message);
          assert.match(err.message, /Migrating from 0\.1\.0/);
          return true;
        },
      );
    });
  }

  it("the subpaths 0.2.0 keeps for 0.1.0's state still load", () => {
    const { require } = installedPackage();
    assert.equal(typeof require("pulumi-custody/provider-runtime").vault.create, "function");
    assert.equal(typeof require("pulumi-custody/provider-runtime/vault").create, "function");
    assert.equal(typeof require("pulumi-custody/provider-runtime/vault-address").create, "function");
  });
});
