/**
 * Where a generated YAML program's engine gets the `custody` plugin. A TypeScript or Python program names the
 * plugin's version and download URL through its SDK (the schema's `pluginDownloadURL`); a YAML program has no
 * SDK, and without them the engine looks for the latest release of github.com/pulumi/pulumi-custody, which is
 * not this project's. The YAML language host takes both from a resource's `version` and `pluginDownloadURL`
 * options (pulumi-yaml: `GetReferencedPackages` for the plugins it asks the engine to install, and the options
 * of each registration), so every resource of the program carries them, as the SDKs do for theirs.
 */

/** The schema's `pluginDownloadURL` (plugin/schema.ts; a unit test keeps the two equal). */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/pulumi-custody/pulumi-custody";

/** The plugin's version: the one version of a release, which this package shares (scripts/stamp-version.js). */
export const PLUGIN_VERSION: string = (require("../../package.json") as { version: string }).version;

/**
 * `program` (YAML as the engine's code generation writes it: `resources:`, each resource two spaces in, its
 * fields four) with `version` and `pluginDownloadURL` in the options of every resource.
 */
export function withPluginSource(
  program: string,
  version = PLUGIN_VERSION,
  url = PLUGIN_DOWNLOAD_URL,
): string {
  const lines = program.split("\n");
  const out: string[] = [];
  const source = [`      version: ${version}`, `      pluginDownloadURL: ${url}`];
  let inResources = false;
  let block: string[] | undefined;
  const flush = () => {
    if (!block) return;
    const options = block.indexOf("    options:");
    if (options >= 0) block.splice(options + 1, 0, ...source);
    else {
      // Before the blank lines that end the block.
      let end = block.length;
      while (end > 1 && block[end - 1]?.trim() === "") end--;
      block.splice(end, 0, "    options:", ...source);
    }
    out.push(...block);
    block = undefined;
  };
  for (const line of lines) {
    if (/^\S/.test(line)) {
      flush();
      inResources = line === "resources:";
      out.push(line);
    } else if (inResources && /^ {2}\S/.test(line)) {
      flush();
      block = [line];
    } else if (block) block.push(line);
    else out.push(line);
  }
  flush();
  return out.join("\n");
}
