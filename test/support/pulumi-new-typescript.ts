/**
 * The TypeScript setup of a project that `pulumi new typescript` makes: its `tsconfig.json` (the template of
 * v3.248.0: CommonJS, `moduleResolution: node`, strict), which users' programs, and so every TypeScript example of
 * the docs, must compile under.
 *
 * @module
 */

/** The `compilerOptions` of the template's `tsconfig.json`. */
export const PULUMI_NEW_TYPESCRIPT_OPTIONS = {
  strict: true,
  outDir: "bin",
  target: "es2020",
  module: "commonjs",
  moduleResolution: "node",
  sourceMap: true,
  experimentalDecorators: true,
  pretty: true,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
} as const;

/**
 * The template's options as TypeScript `major` needs them: from TypeScript 6, `moduleResolution: node` (node10)
 * is an error (TS5107) unless `ignoreDeprecations: "6.0"` is set, as README.md says where it lists the supported
 * setups.
 */
export function pulumiNewTypescriptOptions(major: number): Record<string, unknown> {
  return major >= 6
    ? { ...PULUMI_NEW_TYPESCRIPT_OPTIONS, ignoreDeprecations: "6.0" }
    : { ...PULUMI_NEW_TYPESCRIPT_OPTIONS };
}
