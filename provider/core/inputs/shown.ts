/**
 * How the provider's messages show a value that came from a program, the stack config, the environment or the
 * service: by the one escaping rule of every package, which lives in the sdk (`@pulumi-custody/sdk`, its
 * `shown.ts`) so that the client's own errors follow it too; re-exported here for the provider, the plugin and
 * the command line (`pulumi-custody/core`). What the engine prints of an input beside a check failure is judged
 * here.
 */

import { isShownAsIs, SHOWN_VALUE_MAX } from "@pulumi-custody/sdk";

export {
  escapeControls,
  isShownAsIs,
  LONE_SURROGATE,
  SHOWN_VALUE_MAX,
  shownText,
  shownValue,
} from "@pulumi-custody/sdk";

/** The longest input the engine may print whole beside a check failure (a short list of UUIDs fits). */
export const PRINTED_INPUT_MAX = 4 * SHOWN_VALUE_MAX;

function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsOf(item, out);
    }
  }
  return out;
}

/**
 * Whether a value can be printed as it is: each string in it (at any depth of a list or an object) by the rules
 * of `isShownAsIs`, and the whole within `PRINTED_INPUT_MAX` characters of JSON. What the engine
 * prints of an input beside a check failure is judged by it.
 */
export function printsAsIs(value: unknown): boolean {
  if (!stringsOf(value).every((text) => isShownAsIs(text))) return false;
  return (JSON.stringify(value) ?? "").length <= PRINTED_INPUT_MAX;
}
