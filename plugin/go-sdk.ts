/**
 * The Go SDK of the schema (`pulumi package gen-sdk --language go`): where it lives as a Go module. The
 * repository holds it in `sdk/go/custody`, a module of its own whose path is its import path, released by the
 * tags `sdk/go/custody/v<version>` beside each release tag `v<version>` (scripts/release-artifacts.sh writes its
 * go.mod; plugin/README.md says how a user gets it).
 */
import { PACKAGE } from "./tokens";

/** The Go SDK's module path, which is also its import path: `go get <path>@v<version>`. */
export const GO_MODULE_PATH = `github.com/pulumi-custody/pulumi-custody/sdk/go/${PACKAGE}`;

/**
 * The schema's `go` options: the import path above, and the schema's version in the SDK (the plugin it names),
 * as the Node.js and Python SDKs claim it.
 */
export function goLanguageOptions(): Record<string, unknown> {
  return { importBasePath: GO_MODULE_PATH, respectSchemaVersion: true };
}
