/**
 * The Go program of an import. The engine's code generation writes it (our Go language host, language-hosts/go,
 * `GenerateProgram`), importing the Go SDK generated from the plugin's schema; what a Go program needs beyond the
 * code is that module in its go.mod, which the next steps say how to get.
 */
import { PLUGIN_VERSION } from "./plugin-source";

/**
 * The Go SDK's module path, which is also its import path (plugin/go-sdk.ts's `GO_MODULE_PATH`, the schema's
 * `language.go.importBasePath`; a unit test keeps the two equal).
 */
export const GO_SDK_MODULE = "github.com/pulumi-custody/pulumi-custody/sdk/go/custody";

/** The program file of a Go project: the `main` package in the project's directory. */
export const GO_PROGRAM_FILE = "main.go";

/** What a Go project needs before the generated program builds: the SDK of the plugin's version in its go.mod. */
export function goModuleSteps(version = PLUGIN_VERSION): string[] {
  return [
    `The program imports the Go SDK: run \`go get ${GO_SDK_MODULE}@v${version}\` in the project (its go.mod).`,
  ];
}
