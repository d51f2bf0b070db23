/**
 * The answer to a create that took effect (a 2xx to a POST) whose body breaks its documented shape. The sdk
 * returns such a body as it came, with the issues on it (sdk/README.md, "Lenient responses"), because the call
 * did take effect: the object exists on the service. So the provider never fails on the answer's shape: it
 * keeps the id when the answer has a usable one, records the rest from the declared inputs, says which fields
 * were off, and the next refresh reads the object as the service has it.
 */
import { responseValidationIssues } from "@pulumi-custody/sdk";

/** What an answer that broke its shape still says. */
export interface OffShapeAnswer {
  /** The id the answer gives, when it is usable (a string the shape accepts); otherwise `undefined`. */
  id: string | undefined;
  /** The fields whose shape was off and the rule each broke, one line, control characters escaped. */
  fields: string;
}

/** How many fields a message lists, and how many characters of each it shows. */
const MAX_FIELDS = 5;
const MAX_FIELD_CHARS = 120;

/**
 * `undefined` when the answer has its documented shape; else what it still says. Only the issues' field names
 * and rules are shown, never values: the sdk already removed secrets from them, and they are escaped here.
 */
export function offShapeAnswer(answer: unknown): OffShapeAnswer | undefined {
  const issues = responseValidationIssues(answer);
  if (issues.length === 0) return undefined;
  // An issue at the answer as a whole (not an object) or at its `id` leaves no id to trust.
  const idOff = issues.some((i) => i.loc.length < 2 || i.loc[1] === "id");
  const id = (answer as { id?: unknown }).id;
  const described = issues.slice(0, MAX_FIELDS).map((issue) => {
    const field = issue.loc.slice(1).join(".") || "the answer as a whole";
    return cut(`${escapeControls(field)}: ${escapeControls(issue.msg)}`);
  });
  const more = issues.length > MAX_FIELDS ? `; and ${issues.length - MAX_FIELDS} more` : "";
  return {
    id: !idOff && typeof id === "string" && id !== "" ? id : undefined,
    fields: described.join("; ") + more,
  };
}

// C0, DEL and C1 controls, the line and paragraph separators, and the bidi marks, embeddings, overrides and
// isolates: none may reach a terminal or a CI log from the service's answer.
const UNSAFE = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `text` with every control character escaped (`\x1b`, `\u202e`). */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (char) => {
    const code = char.codePointAt(0) ?? 0;
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

function cut(text: string): string {
  return text.length <= MAX_FIELD_CHARS ? text : `${text.slice(0, MAX_FIELD_CHARS - 1)}…`;
}
