/**
 * The serialized providers. Pulumi serializes the provider object of a dynamic resource into every resource's
 * state (`__provider`), and checkpoints that state after each step, so its size is paid per resource, twice
 * (inputs and outputs).
 *
 * Each provider object is a whole module's exports (./vault.ts, ./vault-address.ts). When that module was
 * loaded from a `node_modules` folder, as in every program that installs `pulumi-custody` (and in this
 * repository's own programs, which run from projects that install its packed tarball),
 * Pulumi's closure serializer writes a bare `require("pulumi-custody/provider-runtime/vault")` instead of
 * the object's code. Where it cannot (a linked or bundled copy), it serializes the module by value: a few
 * delegating methods and the loader of ./load-runtime.ts, no client, no setting, no credential.
 */
import type * as pulumi from "@pulumi/pulumi";

// `import = require`, not `import * as`: the provider must be the very object the module exports, which is how
// the serializer recognizes it (an `import * as` copy under esModuleInterop would be serialized by value).
import vaultModule = require("./vault");
import vaultAddressModule = require("./vault-address");

/** The provider of `pulumi-nodejs:dynamic/custody:Vault` (the exports of `pulumi-custody/provider-runtime/vault`). */
export const vaultProvider: pulumi.dynamic.ResourceProvider = vaultModule;

/** The provider of `pulumi-nodejs:dynamic/custody:VaultAddress` (`pulumi-custody/provider-runtime/vault-address`). */
export const vaultAddressProvider: pulumi.dynamic.ResourceProvider = vaultAddressModule;
