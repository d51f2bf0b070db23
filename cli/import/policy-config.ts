/**
 * The policy configuration an import's declarations need. The program an import writes declares some vaults
 * `adoptExisting: true` (every vault on the dynamic provider, which adopts instead of importing; `safe` and
 * `exchange` vaults on the plugin, which can only be adopted) and, with `--state archived`, some
 * `archived: true`. The policy pack refuses both unless the vault's name is on the stack's allow-list
 * (`custody-vault-adopt-allow-list`, `custody-vault-archive-allow-list`; docs/policy.md). So the import puts those
 * names on the allow-lists of the stack's policy config file, in the same change as the program: a reviewer
 * sees each name the pack will let adopt or stay archived, and the pack keeps judging every other vault.
 *
 * The file is the one `pulumi preview --policy-pack-config` reads: an existing one keeps everything it has (its
 * levels, its other settings and names); the names are added to the lists, each once.
 */
import * as fs from "node:fs";
import { type OutputFile, writeOutputFile } from "../output-file";
import { shownPath } from "../shown";

/** The allow-list policies an import's declarations can need. */
export const ALLOW_LIST_POLICIES = [
  "custody-vault-adopt-allow-list",
  "custody-vault-archive-allow-list",
] as const;

/** One of {@link ALLOW_LIST_POLICIES}. */
export type AllowListPolicy = (typeof ALLOW_LIST_POLICIES)[number];

/**
 * The vault names each allow-list needs, for the inputs the program declares its vaults with (empty lists left
 * out).
 */
export function neededAllowLists(
  declared: readonly Readonly<Record<string, unknown>>[],
): Partial<Record<AllowListPolicy, string[]>> {
  const adopt = new Set<string>();
  const archive = new Set<string>();
  for (const inputs of declared) {
    if (typeof inputs.name !== "string") continue;
    if (inputs.adoptExisting === true) adopt.add(inputs.name);
    if (inputs.archived === true) archive.add(inputs.name);
  }
  const needed: Partial<Record<AllowListPolicy, string[]>> = {};
  if (adopt.size > 0) needed["custody-vault-adopt-allow-list"] = [...adopt];
  if (archive.size > 0) needed["custody-vault-archive-allow-list"] = [...archive];
  return needed;
}

/**
 * Reads the policy config file, if it exists, as a JSON object; throws one line naming the file when it is
 * not one (checked before the organization is read, so that a broken file costs nothing).
 */
export function readPolicyConfig(target: OutputFile): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = fs.readFileSync(target.file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(
      `cannot read ${shownPath(target.file, target.cwd)} (${target.what}): ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error(
      `${shownPath(target.file, target.cwd)} (${target.what}) is not a JSON object of policy settings: fix it, or choose another ${target.flag}`,
    );
  return parsed as Record<string, unknown>;
}

/**
 * `config` with `needed`'s names added to each allow-list (each once, after the names it has); a policy given
 * as a bare level (`"advisory"`) keeps it as `enforcementLevel`. Returns the names that were not there yet.
 */
export function withAllowedNames(
  config: Readonly<Record<string, unknown>>,
  needed: Partial<Record<AllowListPolicy, string[]>>,
): { config: Record<string, unknown>; added: Partial<Record<AllowListPolicy, string[]>> } {
  const out: Record<string, unknown> = { ...config };
  const added: Partial<Record<AllowListPolicy, string[]>> = {};
  for (const policy of ALLOW_LIST_POLICIES) {
    const names = needed[policy];
    if (!names || names.length === 0) continue;
    const entry = out[policy];
    const settings: Record<string, unknown> =
      typeof entry === "string"
        ? { enforcementLevel: entry }
        : entry !== null && typeof entry === "object" && !Array.isArray(entry)
          ? { ...(entry as Record<string, unknown>) }
          : {};
    const have = Array.isArray(settings.allowedNames) ? (settings.allowedNames as unknown[]) : [];
    const fresh = names.filter((name) => !have.includes(name));
    if (fresh.length === 0) continue;
    settings.allowedNames = [...have, ...fresh];
    out[policy] = settings;
    added[policy] = fresh;
  }
  return { config: out, added };
}

/** Writes `config` to the policy config file (replaced whole, or left as it was if the write fails). */
export function writePolicyConfig(target: OutputFile, config: Readonly<Record<string, unknown>>): void {
  writeOutputFile(target, `${JSON.stringify(config, null, 2)}\n`, { overwrite: true });
}
