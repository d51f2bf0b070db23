/**
 * The functions of the `custody` provider (`custody:index:getVaults` and the others): the data sources of
 * `provider/data-sources`, served through the engine's `Invoke` with the provider's configuration. A list is
 * returned as `{ items: [...] }` and a keyed result as `{ items: { <id>: ... } }`, since an invoke answers with an
 * object of fixed fields.
 */
import { providerClient } from "pulumi-custody/core";
import { DATA_SOURCES, type DataSourceSpec } from "pulumi-custody/data-sources";
import { unwrap } from "./properties";
import type { Failure } from "./provider";
import { PACKAGE } from "./tokens";

/** Each function's arguments, result kind and fields, by name: what the schema declares of it. */
export const FUNCTION_SPECS: Readonly<Record<string, DataSourceSpec>> = Object.fromEntries(
  Object.entries(DATA_SOURCES).map(([name, entry]) => [name, entry.spec]),
);

/** The token of a function (`getVaults` → `custody:index:getVaults`). */
export function functionToken(name: string): string {
  return `${PACKAGE}:index:${name}`;
}

/** Runs the function of `token` with the configured client. */
export async function invoke(
  token: string,
  args: Record<string, unknown>,
): Promise<{ value: Record<string, unknown>; failures: Failure[] }> {
  const name = token.startsWith(`${PACKAGE}:index:`) ? token.slice(PACKAGE.length + 7) : undefined;
  const run = name === undefined ? undefined : DATA_SOURCES[name]?.run;
  if (!run) {
    throw new Error(
      `unknown function ${token}: the ${PACKAGE} provider has ${Object.keys(DATA_SOURCES).map(functionToken).join(", ")}`,
    );
  }
  const result = await run(unwrap(args).values, { client: await providerClient() });
  const kind = FUNCTION_SPECS[name!]?.kind;
  const value = kind === "list" || kind === "keyed" ? { items: result } : (result as Record<string, unknown>);
  return { value: JSON.parse(JSON.stringify(value ?? {})), failures: [] };
}
