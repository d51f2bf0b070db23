import * as assert from "node:assert/strict";
import { engineRole } from "../../../bench/support/process-tree";

describe("bench: engine roles from command lines", () => {
  it("tells the CLI, the language host, the program and both kinds of provider apart", () => {
    const cases: [string, string][] = [
      ["/cache/bin/pulumi up --yes", "pulumi CLI"],
      ["/cache/bin/pulumi-language-nodejs 127.0.0.1:4000", "language host"],
      ["/usr/bin/node /p/node_modules/@pulumi/pulumi/cmd/run --monitor=x .", "program"],
      ["/usr/bin/node /p/node_modules/@pulumi/pulumi/cmd/dynamic-provider 127.0.0.1:4000", "provider"],
      // The custody plugin, through the launcher of test/support/pulumi-engine.ts (pluginLauncherDir).
      ["node /repo/plugin/dist/cli.js 127.0.0.1:4000", "provider"],
      ["/usr/bin/node /repo/emulator/dist/cli.js --port 0", "other"],
    ];
    for (const [cmdline, role] of cases) assert.equal(engineRole(cmdline), role, cmdline);
  });
});
