/** TypeScript, for `custody import`: the engine writes its program, and so does the dynamic path. */
import type { DynamicProgramWriter, ImportLanguage, ProgramValue } from "./program";

/** Words TypeScript does not allow as a variable name. */
const RESERVED_WORDS = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if import in instanceof new null return super switch this throw true try typeof var void " +
    "while with as implements interface let package private protected public static yield await"
  ).split(" "),
);

/**
 * The variable of a resource name: `btc-cold-storage` → `btcColdStorage`, `ops-2` → `ops_2`, a reserved word
 * with a `_` after it. Resource names are lower-case words joined by `-`, so no two get the same variable.
 */
export function variableOf(resourceName: string): string {
  const camel = resourceName
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
    .replace(/-([0-9])/g, "_$1");
  return RESERVED_WORDS.has(camel) ? `${camel}_` : camel;
}

function code(value: ProgramValue): string {
  return "idOf" in value ? `${value.idOf}.id` : JSON.stringify(value.literal);
}

/** The dynamic provider's program in TypeScript: `new Vault("name", { … }, { protect: true });`. */
const dynamic: DynamicProgramWriter = {
  variable: variableOf,
  header: (kinds) => [
    "// Written by `custody import --provider dynamic`: the vaults (and addresses) below exist already; each is",
    "// declared as it is and adopted by its exact name, so the first `pulumi up` takes them over and changes nothing.",
    `import { ${kinds.join(", ")} } from "pulumi-custody";`,
  ],
  declaration: (resource) => {
    const args = `{ ${resource.inputs.map(([key, value]) => `${key}: ${code(value)}`).join(", ")} }`;
    const statement = `new ${resource.kind}(${JSON.stringify(resource.name)}, ${args}${resource.protect ? ", { protect: true }" : ""});`;
    return resource.variable ? `const ${resource.variable} = ${statement}` : statement;
  },
};

/** TypeScript. */
export const typescript: ImportLanguage = {
  name: "typescript",
  runtime: "nodejs",
  programFile: "index.ts",
  dynamic,
};
