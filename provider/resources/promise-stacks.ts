/**
 * Declaring a resource costs the program CPU in `@pulumi/pulumi` itself: for every declared output it makes
 * promises that `debuggablePromise` (runtime/debuggable.js) tags with `new Error().stack`, formatted at once and
 * frame by frame through `source-map-support`, which `@pulumi/pulumi/cmd/run` registers. That stack is read only
 * when `PULUMI_DEBUG_PROMISE_LEAKS` is set, to report leaked promises. With the frames captured, a `Vault` cost
 * about 7 ms of program CPU on every `up` and `preview`; without, about 1 ms (BENCHMARKS.md, figure 1).
 *
 * The resource's source position is unaffected: `Resource.callsites` raises the limit itself while it reads it.
 * What is lost is the stack of the error `@pulumi/pulumi` preallocates for a failed registration, whose message
 * still names the resource and its type.
 */

/**
 * Stops V8 from capturing stack frames until the returned function is called, unless promise-leak debugging
 * is on. Call it right before `super(...)` of a resource constructor and restore in `finally`:
 *
 * ```ts
 * const restore = withoutPromiseStacks();
 * try {
 *   super(provider, name, props, opts, module, type);
 * } finally {
 *   restore();
 * }
 * ```
 */
export function withoutPromiseStacks(): () => void {
  if (process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}
