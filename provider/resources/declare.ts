/** What the dynamic resource classes derive from the resources' descriptors (provider/core/resources.ts). */
import * as pulumi from "@pulumi/pulumi";
import { IllFormedInputError, refuseIllFormedInputs } from "../core/inputs/well-formed";
import { DYNAMIC_RESOURCE_MODULE, type ResourceDescriptor } from "../core/resources";
import { loadBuiltinsQuietly } from "./quiet-builtins";

/**
 * The props a dynamic resource passes to its base constructor: every output of the descriptor declared (as
 * `undefined`, so that the engine's values reach the properties) and the inputs it accepts. A fresh object
 * every time, because the base constructor adds `__provider` to it.
 */
export function declaredProps(
  descriptor: ResourceDescriptor,
  inputs: Record<string, unknown>,
): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const output of descriptor.outputNames) props[output] = undefined;
  for (const input of descriptor.inputNames) props[input] = inputs[input];
  return props;
}

/** The arguments of `pulumi.dynamic.Resource`'s constructor after the provider, for a descriptor. */
export type DynamicResourceArgs = [
  name: string,
  props: Record<string, unknown>,
  opts: pulumi.CustomResourceOptions | undefined,
  module: string,
  type: string,
];

/**
 * The base constructor's arguments for a resource of `descriptor`.
 *
 * @throws {pulumi.RunError} for an input that cannot reach the engine as declared (a lone surrogate): only
 *   here, in the program, can it still be seen (../core/inputs/well-formed.ts). A `RunError`, so that the
 *   program's host prints its message alone, in one line, without a stack trace.
 */
export function dynamicResourceArgs(
  descriptor: ResourceDescriptor,
  name: string,
  inputs: Record<string, unknown>,
  opts: pulumi.CustomResourceOptions | undefined,
): DynamicResourceArgs {
  try {
    refuseIllFormedInputs(descriptor.kind, name, inputs);
  } catch (err) {
    throw err instanceof IllFormedInputError ? new pulumi.RunError(err.message) : err;
  }
  loadBuiltinsQuietly();
  return [name, declaredProps(descriptor, inputs), opts, DYNAMIC_RESOURCE_MODULE, descriptor.kind];
}
