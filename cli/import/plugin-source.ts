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
 * fields four) with `version` and `pluginDownloadURL` in the options of every resource, and a comment that says
 * how to install the plugin without network access.
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
  const header = [
    `# The custody provider plugin: the engine downloads version ${version} from ${url} (the \`version\` and`,
    "# `pluginDownloadURL` of each resource). Without network access, install it from the release archive:",
    `# pulumi plugin install resource custody ${version} --file pulumi-resource-custody-v${version}-${platform()}.tar.gz`,
  ];
  return [...header, ...out].join("\n");
}

/** The plugin archive's platform name for this machine (`linux-amd64`, `darwin-arm64`, `windows-amd64`). */
function platform(): string {
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string] ?? process.arch;
  const os = process.platform === "win32" ? "windows" : process.platform;
  return `${os}-${arch}`;
}

/** The engine's words when the plugin is missing and its download failed or was not allowed. */
const MISSING_PLUGIN = [
  /no resource plugin 'pulumi-resource-custody' found/,
  /Could not automatically download and install resource plugin 'pulumi-resource-custody'/,
  /could not find latest version for provider custody\b/,
];

/**
 * One message for the plugin missing from a machine, in place of the engine's: its error suggests a `--server`
 * command that needs the network too (after five download attempts), and nothing points to the archive.
 * `undefined` when `message` is about something else.
 */
export function missingPluginMessage(message: string, version = PLUGIN_VERSION): string | undefined {
  if (!MISSING_PLUGIN.some((pattern) => pattern.test(message))) return undefined;
  return (
    `the custody provider plugin (pulumi-resource-custody ${version}) is not installed, and the engine could not ` +
    `download it. Without network access, download pulumi-resource-custody-v${version}-${platform()}.tar.gz from ` +
    `the release (https://github.com/pulumi-custody/pulumi-custody/releases/tag/v${version}) and install it from the ` +
    `file: pulumi plugin install resource custody ${version} --file pulumi-resource-custody-v${version}-${platform()}.tar.gz`
  );
}
