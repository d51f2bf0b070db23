/**
 * `custody import-file [--with-addresses] [--out FILE]`: writes the `pulumi import --file` file of every
 * active vault of the organization. The API is found as the provider finds it without stack config:
 * CUSTODY_BASE_URL and CUSTODY_ACCESS_TOKEN (the token is read from the environment only, never from the
 * command line, where other users of the machine could see it).
 */
import * as fs from "node:fs";
import { configure, readyClient } from "pulumi-custody/core";
import { type Command, parseArgs } from "../command";
import { importFile } from "./import-file";

/** `custody import-file`. */
export const importFileCommand: Command = {
  name: "import-file",
  summary: "the `pulumi import --file` file of the organization's active vaults",
  usage: [
    "usage: custody import-file [--with-addresses] [--out FILE]",
    "",
    "  --with-addresses   add the addresses of UTXO vaults",
    "  --out FILE         write the file there (default: standard output)",
    "",
    "Settings: CUSTODY_BASE_URL and CUSTODY_ACCESS_TOKEN.",
  ].join("\n"),
  async run(argv, io) {
    const args = parseArgs(argv, { flags: { "with-addresses": "boolean", out: "string" } });
    if (args.help) {
      io.stdout.write(`${this.usage}\n`);
      return 0;
    }
    configure(undefined);
    const client = await readyClient();
    const text = `${JSON.stringify(await importFile(client, { withAddresses: args.flags["with-addresses"] === true }), null, 2)}\n`;
    const out = args.flags.out as string | undefined;
    if (out === undefined) io.stdout.write(text);
    else fs.writeFileSync(out, text);
    return 0;
  },
};
