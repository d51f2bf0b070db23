/**
 * Inputs that must be refused in the program, before the resource is registered. A program hands its inputs to
 * the engine as protocol buffers, whose strings are UTF-8: text with a lone surrogate (a UTF-16 unit that
 * encodes no character) cannot be written as it is. On the way, `"ab\ud800c"` loses the surrogate and arrives as
 * `"abc"`, and `"ab\udc00"` is written as malformed UTF-8 that the engine refuses with an internal gRPC error. So
 * no check after registration can see the value the program declared, and it is refused here, by name and rule.
 */
import { LONE_SURROGATE, shownText } from "./shown";

/** A declared input that cannot reach the engine as it is declared. No stack trace: the message says it all. */
export class IllFormedInputError extends Error {
  /** The input at fault, as the program spells it (`name`, `vaultGroupIds[1]`). */
  readonly property: string;
  /** The input and the rule, without the resource: what a check failure of the resource says. */
  readonly reason: string;
  /**
   * @param kind - the resource kind (`Vault`)
   * @param resourceName - the Pulumi resource name
   * @param property - the input at fault
   * @param rule - what is wrong with it
   */
  constructor(kind: string, resourceName: string, property: string, rule: string) {
    super(`${kind} "${shownText(resourceName)}": ${property} ${rule}`);
    this.name = "IllFormedInputError";
    this.property = property;
    this.reason = `${property} ${rule}`;
    // The program's host prints the stack of an uncaught error: the message is the whole of it.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Where in `value` a string holds a lone surrogate, and which position: `undefined` if nowhere. */
interface LoneSurrogate {
  /** The input, with the list position or key inside it. */
  path: string;
  /** The position in characters (code points), counted from 1 as the name rules count them. */
  position: number;
  /** The code unit, as `U+D800`. */
  unit: string;
}

function loneSurrogateIn(value: unknown, path: string): LoneSurrogate | undefined {
  if (typeof value === "string") {
    const match = LONE_SURROGATE.exec(value);
    if (!match) return undefined;
    const unit = `U+${match[0].charCodeAt(0).toString(16).toUpperCase()}`;
    return { path, position: Array.from(value.slice(0, match.index)).length + 1, unit };
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = loneSurrogateIn(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  // Plain objects only: an Output or a Promise is resolved later, by the SDK.
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      const found = loneSurrogateIn(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Refuses inputs whose text cannot reach the engine as declared (a lone surrogate), before registration.
 *
 * @throws {IllFormedInputError} naming the resource, the input, the position and the rule.
 */
export function refuseIllFormedInputs(
  kind: string,
  resourceName: string,
  inputs: Record<string, unknown>,
): void {
  for (const [key, value] of Object.entries(inputs)) {
    const found = loneSurrogateIn(value, key);
    if (!found) continue;
    throw new IllFormedInputError(
      kind,
      resourceName,
      found.path,
      `must be well-formed Unicode text: position ${found.position} is a lone surrogate (${found.unit}), ` +
        "which encodes no character and cannot be sent as it is declared",
    );
  }
}

/**
 * The key of what a program sends in place of an input it refused once the input resolved (an Output or a
 * Promise): `{ "__refusedInProgram": "<reason>" }`. The refusal then reaches the engine as any bad input does,
 * and `check` fails the resource with the reason ({@link refusedInProgram}). Failing the registration in the
 * program instead would reject every output of the resource, which Node 22 and later report with warnings
 * before the error once the stack's outputs await them.
 */
export const REFUSED_IN_PROGRAM = "__refusedInProgram";

/** What a program sends in place of an input it refused: see {@link REFUSED_IN_PROGRAM}. */
export function refusedInput(err: IllFormedInputError): Record<string, string> {
  return { [REFUSED_IN_PROGRAM]: err.reason };
}

/** The reasons of the inputs the program refused and sent as {@link refusedInput}, anywhere in `inputs`. */
export function refusedInProgram(inputs: Record<string, unknown>): string[] {
  const reasons: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value !== null && typeof value === "object") {
      const reason = (value as Record<string, unknown>)[REFUSED_IN_PROGRAM];
      if (typeof reason === "string") reasons.push(reason);
      else for (const item of Object.values(value)) visit(item);
    }
  };
  for (const [key, value] of Object.entries(inputs)) if (key !== "__provider") visit(value);
  return reasons;
}
