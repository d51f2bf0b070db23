#!/usr/bin/env node
/**
 * `pulumi-resource-custody`: the `custody` resource provider plugin. The engine starts it with its own address
 * as the first argument and reads the port of the plugin's gRPC service from its first line of output.
 */
import { serve } from "./server";

serve(process.argv[2])
  .then((port) => {
    // The engine reads exactly one line with the port.
    process.stdout.write(`${port}\n`);
  })
  .catch((err) => {
    console.error(`pulumi-resource-custody: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
