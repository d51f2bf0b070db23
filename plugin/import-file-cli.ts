#!/usr/bin/env node
/**
 * `custody-import-file [--with-addresses] [--out FILE]`: writes the `pulumi import --file` file of every
 * active vault of the organization. The API is found as the provider finds it without stack config:
 * CUSTODY_BASE_URL and CUSTODY_ACCESS_TOKEN (the token is read from the environment only, never from the
 * command line, where other users of the machine could see it).
 */
import * as fs from "node:fs";
import { CustodySettingsError, resolveSettings } from "../provider/config";
import { clientFor } from "../provider/runtime/client";
import { importFile } from "./import-file";

const USAGE = "usage: custody-import-file [--with-addresses] [--out FILE]";

async function main(argv: string[]): Promise<void> {
  let out: string | undefined;
  let withAddresses = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--with-addresses") withAddresses = true;
    else if (arg === "--out" && argv[i + 1] !== undefined) out = argv[++i];
    else if (arg === "--help" || arg === "-h") {
      process.stdout.write(`${USAGE}\n`);
      return;
    } else throw new Error(`unknown argument ${JSON.stringify(arg)}; ${USAGE}`);
  }
  const client = clientFor(resolveSettings(() => undefined));
  try {
    const text = `${JSON.stringify(await importFile(client, { withAddresses }), null, 2)}\n`;
    if (out === undefined) process.stdout.write(text);
    else fs.writeFileSync(out, text);
  } finally {
    await client.close();
  }
}

main(process.argv.slice(2)).catch((err) => {
  const message = err instanceof CustodySettingsError || err instanceof Error ? err.message : String(err);
  process.stderr.write(`custody-import-file: ${message}\n`);
  process.exit(1);
});
