/**
 * The README of the SDKs generated from the schema (the `readme` of the schema's `nodejs` and `python`
 * options, and the Go module's README.md, which scripts/release-artifacts.sh writes): what the npm page, PyPI and
 * pkg.go.dev show, and the Python packages' long description. It says how to get the
 * plugin the SDK needs, with and without network access, since a missing plugin is the first thing a user of a
 * plugin's SDK meets.
 */

import { GO_MODULE_PATH } from "./go-sdk";

/** What the README needs to know of the schema. */
export interface SdkReadmeFacts {
  /** The plugin's version, which the SDK names. */
  version: string;
  /** The project's repository (its releases hold the plugin archives). */
  repository: string;
}

const LANGUAGES = {
  go: {
    title: `\`${GO_MODULE_PATH}\`: the Go SDK`,
    install: `go get ${GO_MODULE_PATH}@v{version}`,
    use: `import "${GO_MODULE_PATH}"`,
  },
  nodejs: {
    title: "`@pulumi-custody/custody`: the Node.js SDK",
    install: "npm install @pulumi-custody/custody",
    use: 'import * as custody from "@pulumi-custody/custody";',
  },
  python: {
    title: "`pulumi_custody`: the Python SDK",
    install: "pip install pulumi_custody",
    use: "import pulumi_custody as custody",
  },
} as const;

/** The README text of the SDK of `language`. */
export function sdkReadme(language: keyof typeof LANGUAGES, facts: SdkReadmeFacts): string {
  const { version, repository } = facts;
  const { title, use } = LANGUAGES[language];
  const install = LANGUAGES[language].install.replace("{version}", version);
  return `# ${title} of the \`custody\` Pulumi provider

Custody vaults and vault addresses, and read-only data sources of the custody API, for Pulumi programs:
\`custody.Vault\`, \`custody.VaultAddress\` and the \`get*\` functions, generated from the schema of the
provider plugin \`pulumi-resource-custody\` (${repository}).

## Install

\`\`\`sh
${install}
\`\`\`

\`\`\`
${use}
\`\`\`

## The provider plugin

This SDK names the plugin of its own version, ${version}. The Pulumi engine downloads it from the project's
release of that version (${repository}/releases/tag/v${version}) the first time a program needs it. The plugin is
one executable that needs nothing else (no Node.js), for linux, darwin and windows, amd64 and arm64.

Without network access, the engine cannot download it and stops with \`no resource plugin
'pulumi-resource-custody' found\`. Download the archive of your platform (\`linux\`, \`darwin\` or \`windows\`,
\`amd64\` or \`arm64\`) from the release page on a machine that has access, and install it from the file:

\`\`\`sh
pulumi plugin install resource custody ${version} --file pulumi-resource-custody-v${version}-linux-amd64.tar.gz
\`\`\`

## Configuration

\`custody:baseUrl\` and \`custody:accessToken\` (a secret: \`pulumi config set --secret custody:accessToken …\`),
or the environment variables \`CUSTODY_BASE_URL\` and \`CUSTODY_ACCESS_TOKEN\`. The resources, their inputs and
outputs: ${repository}/blob/main/docs/provider.md.
`;
}
