/**
 * The provider of `pulumi-nodejs:dynamic/custody:Vault`: this module's exports are the provider object (see
 * ./index.ts for why a module). State written by every release requires it as
 * `pulumi-custody/provider-runtime/vault`.
 */
import { providerOf } from "./provider-of";

export = providerOf("Vault");
