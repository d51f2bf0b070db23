/** What the dynamic resource classes derive from the resources' descriptors (provider/core/resources.ts). */
import * as pulumi from "@pulumi/pulumi";
import { type ProgramInputsOf, secretOutputs } from "../core/fields/declare";
import { IllFormedInputError, refusedInput, refuseIllFormedInputs } from "../core/inputs/well-formed";
import { DYNAMIC_RESOURCE_MODULE, type ResourceDescriptor } from "../core/resources";

/**
 * A declared input's value as a program gives it: a Pulumi `Input`, and each item of a list or each field of
 * an object an `Input` too.
 */
type ArgValue<T> = [T] extends [readonly (infer U)[]]
  ? pulumi.Input<pulumi.Input<U>[]>
  : [T] extends [object]
    ? pulumi.Input<{ [K in keyof T]: pulumi.Input<T[K]> }>
    : pulumi.Input<T>;

/**
 * The arguments of a resource class, from its field declarations (provider/core/fields/declare.ts): each input
 * a program declares, required or optional as declared, with the field's documentation.
 */
export type ArgsOf<D> = {
  [K in keyof ProgramInputsOf<D>]: ArgValue<Exclude<ProgramInputsOf<D>[K], undefined>>;
};

import { withoutPromiseStacks } from "./promise-stacks";
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
 *   program's host prints its message alone, in one line, without a stack trace. An input given as an Output or
 *   a Promise is checked once it resolves, before it is sent: the reason is sent in its place, and the
 *   provider's `check` fails the resource with it, on the resource's row.
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
    throw err instanceof IllFormedInputError ? new IllFormedInputRunError(err.message) : err;
  }
  const refuse = (path: string, resolved: unknown) =>
    refuseIllFormedInputs(descriptor.kind, name, { [path]: resolved });
  const guarded: Record<string, unknown> = {};
  // Each Output made here costs promises with stacks, as the base constructor's do (./promise-stacks.ts).
  const restore = withoutPromiseStacks();
  try {
    for (const [key, value] of Object.entries(inputs)) guarded[key] = checkedWhenResolved(value, key, refuse);
  } finally {
    restore();
  }
  loadBuiltinsQuietly();
  // Outputs that hold a secret input are secret in the state, whether or not the program made them secret.
  const secret = secretOutputs(descriptor.fields);
  const options =
    secret.length > 0
      ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secret] }
      : opts;
  return [name, declaredProps(descriptor, guarded), options, DYNAMIC_RESOURCE_MODULE, descriptor.kind];
}

/** A `RunError`, so that the program's host prints the message alone, in one line. */
class IllFormedInputRunError extends pulumi.RunError {
  constructor(message: string) {
    super(message);
    // The host prints no frames for a RunError, but formats them all the same (`defaultErrorMessage` in
    // `@pulumi/pulumi/cmd/run/error.js`); without them, nothing is formatted that is not shown.
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * `value` with every Output and Promise in it (at the top, or in a list or a plain object) replaced by an Output
 * that checks what it resolves to with `refuse`, keyed by its path (`name`, `vaultGroupIds[1]`); any other value
 * is returned as it is (the caller has checked it). A refused value is sent as its reason
 * (`refusedInput`), never as it is. The registration itself does not fail: that would reject every output of
 * the resource, and Node 22 and later would print a warning for each one the stack's outputs await later.
 * `apply` keeps the secretness and the dependencies of the value, and skips values unknown during a preview
 * (they are checked in the update, once known).
 */
function checkedWhenResolved(
  value: unknown,
  path: string,
  refuse: (path: string, resolved: unknown) => void,
): unknown {
  if (isDeferred(value)) {
    // `Unwrap<unknown>` is `never`: the value's type is not known here.
    const output = pulumi.output(value) as pulumi.Output<unknown>;
    return output.apply((resolved) => {
      try {
        refuse(path, resolved);
      } catch (err) {
        if (err instanceof IllFormedInputError) return refusedInput(err);
        throw err;
      }
      // What resolved may still hold an Output (a Promise of a list of Outputs).
      return checkedWhenResolved(resolved, path, refuse);
    });
  }
  if (!holdsDeferred(value)) return value;
  if (Array.isArray(value))
    return value.map((item, index) => checkedWhenResolved(item, `${path}[${index}]`, refuse));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [
      key,
      checkedWhenResolved(item, `${path}.${key}`, refuse),
    ]),
  );
}

/** An Output or a Promise: resolved later, by the SDK. */
function isDeferred(value: unknown): value is pulumi.Output<unknown> | PromiseLike<unknown> {
  return (
    pulumi.Output.isInstance(value) ||
    (value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function")
  );
}

/** Whether `value` is, or holds in a list or a plain object, an Output or a Promise. */
function holdsDeferred(value: unknown): boolean {
  if (isDeferred(value)) return true;
  if (Array.isArray(value)) return value.some(holdsDeferred);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.values(value).some(holdsDeferred);
  return false;
}
