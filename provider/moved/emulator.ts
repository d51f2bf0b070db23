/**
 * `pulumi-custody/emulator`, as release 0.1.0 exported it: the emulator is the package `@pulumi-custody/emulator`
 * now (a dev dependency, with the same `custody-emulator` bin). Requiring this subpath throws an error that says
 * so (./moved-package.ts).
 */
import { MovedPackageError } from "./moved-package";

throw new MovedPackageError(
  "emulator",
  "@pulumi-custody/emulator",
  "npm install --save-dev @pulumi-custody/emulator",
  "its bin is custody-emulator, as before",
);
