/**
 * The answer to a create that took effect (a 2xx to a POST) whose body breaks its documented shape. The sdk
 * returns such a body as it came, with the issues on it (sdk/README.md, "Lenient responses"), because the call
 * did take effect: the object exists on the service. So the provider never fails on the answer's shape: it
 * keeps the id when the answer has a usable one, records the rest from the declared inputs, says which fields
 * were off, and the next refresh reads the object as the service has it.
 */
import { responseValidationIssues } from "@pulumi-custody/sdk";
import { shownText } from "./inputs/shown";

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
 * and rules are shown, never values: the sdk already removed secrets from them, and they are escaped here
 * (./inputs/shown.ts, the one escaping rule of messages).
 */
export function offShapeAnswer(answer: unknown): OffShapeAnswer | undefined {
  const issues = responseValidationIssues(answer);
  if (issues.length === 0) return undefined;
  // An issue at the answer as a whole (not an object) or at its `id` leaves no id to trust.
  const idOff = issues.some((i) => i.loc.length < 2 || i.loc[1] === "id");
  const id = (answer as { id?: unknown }).id;
  const described = issues.slice(0, MAX_FIELDS).map((issue) => {
    const field = issue.loc.slice(1).join(".") || "the answer as a whole";
    return shownText(`${field}: ${issue.msg}`, MAX_FIELD_CHARS);
  });
  const more = issues.length > MAX_FIELDS ? `; and ${issues.length - MAX_FIELDS} more` : "";
  return {
    id: !idOff && typeof id === "string" && id !== "" ? id : undefined,
    fields: described.join("; ") + more,
  };
}
