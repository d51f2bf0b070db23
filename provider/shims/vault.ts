/**
 * The provider of `pulumi-nodejs:dynamic/custody:Vault`: this module's exports are the provider object (see
 * ./index.ts for why a module). Each method loads the runtime in the provider process and delegates.
 */
import type * as pulumi from "@pulumi/pulumi";
import { loadCustodyRuntime } from "./load-runtime";

type Provider = Required<pulumi.dynamic.ResourceProvider>;

export const configure: Provider["configure"] = async (req) => loadCustodyRuntime().configure(req.config);
export const check: Provider["check"] = async (olds, news) => loadCustodyRuntime().vault.check(olds, news);
export const diff: Provider["diff"] = async (id, olds, news) =>
  loadCustodyRuntime().vault.diff(id, olds, news);
export const create: Provider["create"] = async (inputs) => loadCustodyRuntime().vault.create(inputs);
export const read: Provider["read"] = async (id, props) => loadCustodyRuntime().vault.read(id, props);
export const update: Provider["update"] = async (id, olds, news) =>
  loadCustodyRuntime().vault.update(id, olds, news);
// `delete` is a reserved word, so it cannot be a `const`; exported under its name all the same.
const deleteVault: Provider["delete"] = async (id, props) => loadCustodyRuntime().vault.delete(id, props);

export { deleteVault as delete };
