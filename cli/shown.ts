/**
 * How a message shows text that came from the command line (a flag's value, a path): by the provider's one rule
 * (`pulumi-custody/core`), with its control characters escaped, so that an argument cannot rewrite the terminal
 * or a CI log (an ANSI escape, a carriage return, a bidi override), and cut to a bounded length, so that a pasted
 * blob does not flood the log. What `pulumi` printed is shown without the secrets the command was given
 * ({@link withoutSecrets}).
 */
import * as path from "node:path";
import {
  shownText as coreShownText,
  shownValue as coreShownValue,
  escapeControls,
} from "pulumi-custody/core";

export { escapeControls };

/** How many characters of a value a message shows at most (an ellipsis marks the cut). */
export const SHOWN_VALUE_MAX = 60;

/** How many characters of a path a message shows at most (cut in the middle: its start and its file stay). */
export const SHOWN_PATH_MAX = 120;

/**
 * A value as a message shows it, in double quotes, by the provider's one rule (`pulumi-custody/core`): control
 * characters, quotes and backslashes escaped, at most `max` characters of it (then `…`).
 */
export function shownValue(value: string, max = SHOWN_VALUE_MAX): string {
  return coreShownValue(value, max);
}

/** Text (a name, a pattern, a reason) as a message shows it, unquoted: escaped, at most `max` characters. */
export function shownText(text: string, max = SHOWN_VALUE_MAX): string {
  return coreShownText(text, max);
}

/**
 * A path as a message shows it: relative to `cwd` when it is inside it (else absolute), control characters
 * escaped, and at most `max` characters ({@link SHOWN_PATH_MAX}), cut in the middle; a command line that the
 * user is to run passes `Infinity`, since a cut path would not run.
 */
export function shownPath(file: string, cwd: string, max = SHOWN_PATH_MAX): string {
  const relative = path.relative(cwd, file);
  const inside = relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  const shown = escapeControls(inside ? relative : file);
  if (shown.length <= max) return shown;
  const head = Math.floor((max - 1) / 3);
  const tail = max - 1 - head;
  return `${[...shown].slice(0, head).join("")}…${[...shown].slice(-tail).join("")}`;
}

/** Environment variables whose value is a secret, by name (`CUSTODY_ACCESS_TOKEN`, `PULUMI_CONFIG_PASSPHRASE`). */
const SECRET_VARIABLE = /token|secret|password|passphrase|api-?key|credential/i;

/** Shorter values are not masked: they would mask ordinary words and numbers while hiding nothing. */
const SECRET_MIN_LENGTH = 8;

/**
 * `text` with every value of a secret variable of `env`, and each of `values` (e.g. the stack's secret config),
 * replaced by `[secret]`. What `pulumi` printed reaches a report (a pull-request comment) and the log, and must
 * not carry a token it was given.
 */
export function withoutSecrets(text: string, env: NodeJS.ProcessEnv, values: readonly string[] = []): string {
  const secrets = Object.entries(env)
    .filter(([name, value]) => SECRET_VARIABLE.test(name) && value !== undefined)
    .map(([, value]) => value as string)
    .concat(values)
    .filter((value) => value.length >= SECRET_MIN_LENGTH)
    // The longest first, so that a secret that holds another is masked whole.
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of secrets) out = out.split(secret).join("[secret]");
  return out;
}
