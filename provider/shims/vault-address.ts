/**
 * The provider of `pulumi-nodejs:dynamic/custody:VaultAddress`: this module's exports are the provider object (see
 * ./index.ts for why a module). Each method loads the runtime in the provider process and delegates.
 */
import type * as pulumi from "@pulumi/pulumi";
import { loadCustodyRuntime } from "./load-runtime";

type Provider = Required<pulumi.dynamic.ResourceProvider>;

export const configure: Provider["configure"] = async (req) => loadCustodyRuntime().configure(req.config);
export const check: Provider["check"] = async (olds, news) =>
  loadCustodyRuntime().vaultAddress.check(olds, news);
export const diff: Provider["diff"] = async (id, olds, news) =>
  loadCustodyRuntime().vaultAddress.diff(id, olds, news);
export const create: Provider["create"] = async (inputs) => loadCustodyRuntime().vaultAddress.create(inputs);
export const read: Provider["read"] = async (id, props) => loadCustodyRuntime().vaultAddress.read(id, props);
export const update: Provider["update"] = async (id, olds, news) =>
  loadCustodyRuntime().vaultAddress.update(id, olds, news);
// `delete` is a reserved word, so it cannot be a `const`; exported under its name all the same.
const deleteVaultAddress: Provider["delete"] = async (id, props) =>
  loadCustodyRuntime().vaultAddress.delete(id, props);

export { deleteVaultAddress as delete };
