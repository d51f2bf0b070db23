/**
 * What the Go SDK generated from the schema needs of it (`pulumi package gen-sdk --language go`; the end-to-end
 * suite compiles and runs it, test/e2e/go-program.test.ts): an import path that is the module the repository
 * holds, and no type whose Go name is a function's own result type.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { GO_MODULE_PATH } from "../go-sdk";
import { packageSchema } from "../schema";

const root = path.resolve(__dirname, "..", "..", "..");

describe("the schema, for the Go SDK", () => {
  const schema = packageSchema() as {
    language: { go: { importBasePath: string; respectSchemaVersion: boolean } };
    types: Record<string, unknown>;
    functions: Record<string, unknown>;
  };

  it("names the Go module the repository holds in sdk/go/custody, and claims the schema's version", () => {
    assert.equal(schema.language.go.importBasePath, GO_MODULE_PATH);
    assert.equal(schema.language.go.respectSchemaVersion, true);
    const goMod = fs.readFileSync(path.join(root, "sdk", "go", "custody", "go.mod"), "utf8");
    assert.equal(/^module (\S+)$/m.exec(goMod)?.[1], GO_MODULE_PATH);
  });

  it("declares no type named as a function's result (`<Function>Result`), which Go gives the function itself", () => {
    const clashes = Object.keys(schema.functions)
      .map((token) =>
        token.replace(
          /:([a-z])([^:]*)$/,
          (_, first: string, rest: string) => `:${first.toUpperCase()}${rest}Result`,
        ),
      )
      .filter((resultToken) => resultToken in schema.types);
    assert.deepEqual(clashes, []);
  });
});
