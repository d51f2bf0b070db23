/**
 * `@pulumi-custody/plugin`: the `custody` provider plugin. Its bin, `pulumi-resource-custody`, is what the
 * Pulumi engine runs; this entry point gives its schema and server to code that builds on them.
 *
 * @packageDocumentation
 */
export { PLUGIN_VERSION, packageSchema } from "./schema";
export { serve } from "./server";
