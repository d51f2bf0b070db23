/** Python, for `custody import`: the engine writes its program (the dynamic provider is Node.js only). */
import type { ImportLanguage } from "./program";

/** Python. */
export const python: ImportLanguage = { name: "python", runtime: "python", programFile: "__main__.py" };
