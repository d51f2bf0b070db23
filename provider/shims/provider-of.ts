/**
 * The serialized provider of a resource kind: every method loads the runtime core in the provider process and
 * calls the lifecycle of that kind's descriptor (provider/core/resources.ts). Nothing else is held, so
 * whatever Pulumi serializes of it is a few lines.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { CustodyResourceKind } from "../core";
import { loadCustodyRuntime } from "./load-runtime";

/** The provider object of `kind`, for `pulumi.dynamic.Resource`. */
export function providerOf(kind: CustodyResourceKind): Required<pulumi.dynamic.ResourceProvider> {
  const lifecycle = () => loadCustodyRuntime().resourceOfKind(kind).lifecycle;
  return {
    configure: async (req) => loadCustodyRuntime().configure(req.config),
    check: async (olds, news) => lifecycle().check(olds, news),
    diff: async (id, olds, news) => lifecycle().diff(id, olds, news),
    create: async (inputs) => lifecycle().create(inputs),
    read: async (id, props) => lifecycle().read(id, props),
    update: async (id, olds, news) => lifecycle().update(id, olds, news),
    delete: async (id, props) => lifecycle().delete(id, props),
  };
}
