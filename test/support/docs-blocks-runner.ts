/**
 * Runs a Pulumi program of the docs (a compiled code block) the way a unit test of a Pulumi program does: with
 * Pulumi's mocks in place of the engine, so that its resources are registered without a deployment, while its
 * data sources call the API the environment names (`CUSTODY_BASE_URL`, `CUSTODY_ACCESS_TOKEN`). It waits for
 * every exported value; a failure anywhere (a rejected export, an unhandled rejection) exits non-zero.
 *
 * Usage: `node docs-blocks-runner.js <compiled program>`.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";

async function main(program: string): Promise<void> {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => args.inputs,
    },
    "docs",
    "test",
    false,
  );
  const exported = require(program) as Record<string, unknown>;
  await Promise.all(
    Object.values(exported).map(
      (value) => new Promise((resolve) => (pulumi.output(value) as pulumi.Output<unknown>).apply(resolve)),
    ),
  );
}

const program = process.argv[2];
if (!program) {
  console.error("usage: docs-blocks-runner <compiled program>");
  process.exit(2);
}
main(program).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
