/**
 * The stack's policy config (`--policy-config FILE`, the file `pulumi preview --policy-pack-config` reads) in
 * the accept's change: a vault the accept declares `archived: true` is allowed to be so only when its name is on
 * `custody-vault-archive-allow-list`'s `allowedNames`, and one it declares `adoptExisting: true` (`--accept-new`
 * on the dynamic provider) on `custody-vault-adopt-allow-list`'s (docs/policy.md). The names go into the same
 * change, where the reviewer sees them, as `custody import` puts its own (its `withAllowedNames`).
 *
 * The file is edited in place: a name is one more item of the list as it is written, so that the rest of the
 * file keeps its layout. A file that has no such list yet is written whole by `withAllowedNames`.
 */
import type * as TypeScript from "typescript";
import { type AllowListPolicy, withAllowedNames } from "../../import/policy-config";

let loaded: typeof TypeScript | undefined;
function ts(): typeof TypeScript {
  loaded ??= require("typescript") as typeof TypeScript;
  return loaded;
}

/** The string value of a JSON property name. */
function keyOf(property: TypeScript.ObjectLiteralElementLike): string | undefined {
  const t = ts();
  if (!t.isPropertyAssignment(property)) return undefined;
  return t.isStringLiteral(property.name) || t.isIdentifier(property.name) ? property.name.text : undefined;
}

/** The value of `key` in a JSON object literal. */
function member(object: TypeScript.Expression | undefined, key: string): TypeScript.Expression | undefined {
  const t = ts();
  if (!object || !t.isObjectLiteralExpression(object)) return undefined;
  const found = object.properties.find((p) => keyOf(p) === key);
  return found && t.isPropertyAssignment(found) ? found.initializer : undefined;
}

/** `text` (a policy config file) with `names` on the allow-list of `policy`, each once; `text` when none is new. */
export function withAllowListed(text: string, names: Partial<Record<AllowListPolicy, string[]>>): string {
  const t = ts();
  const source = t.parseJsonText("policy.json", text);
  const root = source.statements[0]?.expression;
  if (!root || !t.isObjectLiteralExpression(root)) {
    const parsed = text.trim() === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
    return `${JSON.stringify(withAllowedNames(parsed, names).config, null, 2)}\n`;
  }
  const edits: { at: number; text: string }[] = [];
  let whole = false;
  for (const [policy, wanted] of Object.entries(names) as [AllowListPolicy, string[]][]) {
    const list = member(member(root, policy), "allowedNames");
    if (!list || !t.isArrayLiteralExpression(list)) {
      whole = true;
      continue;
    }
    const have = new Set(list.elements.filter(t.isStringLiteral).map((e) => e.text));
    const fresh = [...new Set(wanted)].filter((name) => !have.has(name));
    if (fresh.length === 0) continue;
    const items = fresh.map((name) => JSON.stringify(name));
    const last = list.elements[list.elements.length - 1];
    if (!last) edits.push({ at: list.getStart(source) + 1, text: items.join(", ") });
    else {
      const lineStart = text.lastIndexOf("\n", last.getStart(source) - 1) + 1;
      const ownLine = /^[ \t]*$/.test(text.slice(lineStart, last.getStart(source)));
      const indent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? "";
      edits.push({
        at: last.end,
        text: items.map((item) => (ownLine ? `,\n${indent}${item}` : `, ${item}`)).join(""),
      });
    }
  }
  if (whole)
    return `${JSON.stringify(withAllowedNames(JSON.parse(text) as Record<string, unknown>, names).config, null, 2)}\n`;
  let out = text;
  for (const edit of edits.sort((a, b) => b.at - a.at))
    out = out.slice(0, edit.at) + edit.text + out.slice(edit.at);
  return out;
}
