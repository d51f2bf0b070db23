/**
 * A strict reader of the XML subset an SVG generator writes (elements, attributes in double quotes, text, the
 * five predefined entities and numeric character references; no DTD, CDATA, comments or processing
 * instructions). It throws on anything not well-formed, so a test can assert that a document parses.
 */

/** An element with its attributes (entities decoded), children and text. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (not its children's), entities decoded. */
  text: string;
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Parses `source` into its root element; throws with the offset on the first error. */
export function parseXml(source: string): XmlElement {
  let i = 0;
  const fail = (message: string): never => {
    throw new Error(`XML error at offset ${i}: ${message} near ${JSON.stringify(source.slice(i, i + 40))}`);
  };
  const skipSpace = () => {
    while (i < source.length && /\s/.test(source[i]!)) i++;
  };
  const decode = (raw: string): string =>
    raw.replace(/&([^;]*);|&|</g, (match, entity: string | undefined) => {
      if (match === "&" || match === "<") return fail(`bare ${match} in text or attribute`);
      if (entity! in ENTITIES) return ENTITIES[entity!]!;
      const numeric = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(entity!);
      if (!numeric) return fail(`unknown entity &${entity};`);
      const code = numeric[1]!.startsWith("x")
        ? Number.parseInt(numeric[1]!.slice(1), 16)
        : Number(numeric[1]);
      return String.fromCodePoint(code);
    });
  const readName = (): string => {
    const match = NAME.exec(source.slice(i));
    if (!match) return fail("expected a name");
    i += match[0].length;
    return match[0];
  };

  const readElement = (): XmlElement => {
    if (source[i] !== "<") fail("expected <");
    i++;
    const element: XmlElement = { name: readName(), attributes: {}, children: [], text: "" };
    for (;;) {
      const before = i;
      skipSpace();
      if (source.startsWith("/>", i)) {
        i += 2;
        return element;
      }
      if (source[i] === ">") {
        i++;
        break;
      }
      if (i === before) fail("expected whitespace before an attribute");
      const attribute = readName();
      if (attribute in element.attributes) fail(`duplicate attribute ${attribute}`);
      if (source[i] !== "=" || source[i + 1] !== '"') fail(`attribute ${attribute} needs ="value"`);
      const end = source.indexOf('"', i + 2);
      if (end < 0) fail("unterminated attribute value");
      element.attributes[attribute] = decode(source.slice(i + 2, end));
      i = end + 1;
    }
    for (;;) {
      const next = source.indexOf("<", i);
      if (next < 0) fail(`unclosed <${element.name}>`);
      element.text += decode(source.slice(i, next));
      i = next;
      if (source.startsWith("</", i)) {
        i += 2;
        const closing = readName();
        if (closing !== element.name) fail(`</${closing}> closes <${element.name}>`);
        skipSpace();
        if (source[i] !== ">") fail("expected >");
        i++;
        return element;
      }
      if (source.startsWith("<!", i) || source.startsWith("<?", i)) fail("unsupported markup");
      element.children.push(readElement());
    }
  };

  skipSpace();
  if (source.startsWith("<?xml", i)) {
    const end = source.indexOf("?>", i);
    if (end < 0) fail("unterminated XML declaration");
    i = end + 2;
    skipSpace();
  }
  const root = readElement();
  skipSpace();
  if (i !== source.length) fail("content after the root element");
  return root;
}

/** Every element named `name` under `root` (itself included), in document order. */
export function findAll(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    if (e.name === name) found.push(e);
    for (const child of e.children) walk(child);
  };
  walk(root);
  return found;
}
