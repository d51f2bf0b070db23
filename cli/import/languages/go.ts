/** Go, for `custody import`: the engine writes its program (the dynamic provider is Node.js only). */
import { GO_PROGRAM_FILE } from "../go-program";
import type { ImportLanguage } from "./program";

/** Go; the program is the `main` package in the project's directory. */
export const go: ImportLanguage = { name: "go", runtime: "go", programFile: GO_PROGRAM_FILE };
