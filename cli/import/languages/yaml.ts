/** YAML, for `custody import`: the engine writes its program (the dynamic provider is Node.js only). */
import type { ImportLanguage } from "./program";

/** YAML; its host reads a program from Main.yaml beside a Pulumi.yaml that has none. */
export const yaml: ImportLanguage = { name: "yaml", runtime: "yaml", programFile: "Main.yaml" };
