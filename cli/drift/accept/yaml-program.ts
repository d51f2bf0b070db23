/**
 * YAML programs (`runtime: yaml`): the resources of `Pulumi.yaml` and of `Main.yaml`, read with the `yaml`
 * package's document API, which keeps every node's place in the text (an accept splices the text itself, so
 * that comments and formatting stay as they are).
 *
 * A resource is the entry of `resources:` whose key (or `name:`) is the resource's name and whose `type:` is a
 * custody resource (`custody:Vault`, `custody:index:Vault`). Its `properties:` give the inputs:
 * - a scalar without `${…}`, `true`/`false`, or a list of such scalars: a literal;
 * - exactly `${k}` where `k` is a config entry (`config:` or `configuration:`): that config value; where `k` is a
 *   variable (`variables:`) holding a literal that nothing else reads: that literal;
 * - anything else (`${a.b}`, text around `${…}`, a `fn::` call): computed.
 * Pulumi YAML reads `$$` as `$` and `${…}` as an interpolation (pulumi-yaml's `parseInterpolate`), in every
 * string, quoted or not.
 */
import type { CustodyResourceKind } from "pulumi-custody/core";
import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseDocument,
  type Scalar,
  type YAMLMap,
} from "yaml";
import type { ComputedSite, ConfigSite, Declaration, DeclaredInput, ValueSite } from "./declarations";
import { type Expr, lineOf, type Quote, type Span } from "./source-model";

/** One YAML file of the program. */
export interface YamlProgramFile {
  /** Its absolute path. */
  readonly file: string;
  /** Its text. */
  readonly text: string;
}

/** The text of a string as Pulumi YAML reads it: `$$` is `$`; `undefined` when it interpolates (`${…}`). */
export function yamlStringValue(raw: string): string | undefined {
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === "$" && raw[i + 1] === "$") {
      out += "$";
      i++;
    } else if (raw[i] === "$" && raw[i + 1] === "{") return undefined;
    else out += raw[i];
  }
  return out;
}

/** The one reference a string is, when it is exactly `${name}`. */
function soleReference(raw: string): string | undefined {
  return /^\$\{([^{}$]+)\}$/.exec(raw)?.[1]?.trim();
}

/** The names a string interpolates (`${a}`, `${b.c}` → a, b). */
function referencedNames(raw: string): string[] {
  const names: string[] = [];
  let i = 0;
  while (i < raw.length) {
    if (raw[i] === "$" && raw[i + 1] === "$") i += 2;
    else if (raw[i] === "$" && raw[i + 1] === "{") {
      const end = raw.indexOf("}", i);
      if (end < 0) break;
      const name = /^\s*([^.[\s}]+)/.exec(raw.slice(i + 2, end))?.[1];
      if (name) names.push(name);
      i = end + 1;
    } else i++;
  }
  return names;
}

/** The custody kind of a YAML resource type (`custody:Vault`, `custody:index:Vault`), if it is one. */
function kindOfType(type: unknown): CustodyResourceKind | undefined {
  if (typeof type !== "string") return undefined;
  const match = /^custody:(?:index:|index\/[A-Za-z]+:)?(Vault|VaultAddress)$/.exec(type);
  return match?.[1] as CustodyResourceKind | undefined;
}

interface ParsedFile {
  readonly file: YamlProgramFile;
  readonly root: YAMLMap | undefined;
  readonly errors: string[];
}

/** Reads the declarations of a YAML program's files (`Pulumi.yaml`, `Main.yaml`). */
export class YamlDeclarations {
  readonly #files: ParsedFile[];
  readonly #project: string;
  /** Config entries by the name the program uses: key with namespace, and whether secret. */
  readonly #config = new Map<string, { key: string; secret: boolean; type: ConfigSite["type"] }>();
  /** Variables by name: their node and file. */
  readonly #variables = new Map<string, { node: Node; file: ParsedFile }>();
  /** How many times each name is interpolated. */
  readonly #reads = new Map<string, number>();

  /**
   * @param files - the program's YAML files
   * @param project - the project's name: the namespace of the program's own config
   */
  constructor(files: readonly YamlProgramFile[], project: string) {
    this.#project = project;
    this.#files = files.map((file) => {
      const doc = parseDocument(file.text);
      const errors = doc.errors.map(
        (e) => `line ${e.linePos?.[0]?.line ?? "?"}: ${e.message.split("\n")[0]}`,
      );
      return { file, root: isMap(doc.contents) ? doc.contents : undefined, errors };
    });
    for (const parsed of this.#files) {
      for (const section of ["config", "configuration"]) {
        const entries = parsed.root?.get(section, true);
        if (!isMap(entries)) continue;
        for (const pair of entries.items) {
          const name = isScalar(pair.key) ? String(pair.key.value) : undefined;
          if (name === undefined) continue;
          const spec = isMap(pair.value) ? pair.value : undefined;
          const typeText = String(spec?.get("type") ?? "string").toLowerCase();
          this.#config.set(name, {
            key: name.includes(":") ? name : `${project}:${name}`,
            secret: spec?.get("secret") === true,
            type: typeText === "boolean" ? "boolean" : typeText === "string" ? "string" : "object",
          });
        }
      }
      const variables = parsed.root?.get("variables", true);
      if (isMap(variables))
        for (const pair of variables.items)
          if (isScalar(pair.key) && pair.value)
            this.#variables.set(String(pair.key.value), { node: pair.value as Node, file: parsed });
      this.#countReads(parsed.root);
    }
  }

  /** Syntax errors of each file, by path. */
  errors(): Map<string, string[]> {
    return new Map(this.#files.map((f) => [f.file.file, f.errors]));
  }

  #countReads(node: unknown): void {
    if (isScalar(node) && typeof node.value === "string")
      for (const name of referencedNames(node.value)) this.#reads.set(name, (this.#reads.get(name) ?? 0) + 1);
    else if (isMap(node) || isSeq(node))
      for (const item of node.items) {
        if (isPair(item)) {
          this.#countReads(item.key);
          this.#countReads(item.value);
        } else this.#countReads(item);
      }
  }

  /** Every declaration of a resource named `name` of `kind`. */
  find(name: string, kind: CustodyResourceKind): Declaration[] {
    const found: Declaration[] = [];
    for (const parsed of this.#files) {
      const resources = parsed.root?.get("resources", true);
      if (!isMap(resources)) continue;
      for (const pair of resources.items) {
        if (!isScalar(pair.key) || !isMap(pair.value)) continue;
        const spec = pair.value;
        const logical = spec.get("name");
        const resourceName = typeof logical === "string" ? logical : String(pair.key.value);
        if (resourceName !== name || kindOfType(spec.get("type")) !== kind) continue;
        found.push(this.#declaration(parsed, pair as Pair<Scalar, YAMLMap>, name, kind));
      }
    }
    return found;
  }

  /** How many times the program reads config `key`. */
  configReads(key: string): number {
    let count = 0;
    for (const [name, entry] of this.#config) if (entry.key === key) count += this.#reads.get(name) ?? 0;
    return count;
  }

  #declaration(
    parsed: ParsedFile,
    pair: Pair<Scalar, YAMLMap>,
    resourceName: string,
    kind: CustodyResourceKind,
  ): Declaration {
    const { text } = parsed.file;
    const base = {
      file: parsed.file.file,
      text,
      language: "yaml" as const,
      resourceName,
      kind,
      line: lineOf(text, pair.key.range?.[0] ?? 0),
    };
    const inputs = new Map<string, DeclaredInput>();
    const properties = pair.value?.get("properties", true);
    if (!isMap(properties))
      return {
        ...base,
        inputs,
        container: undefined,
        opaque: properties ? "its properties are not a mapping" : "it has no properties",
      };
    const items: Span[] = [];
    properties.items.forEach((property, index) => {
      const key = property.key as Node | null;
      const value = property.value as Node | null;
      const start = key?.range?.[0] ?? 0;
      const end = value?.range?.[1] ?? key?.range?.[1] ?? start;
      const span = { start, end };
      items.push(span);
      if (!isScalar(key) || !value) return;
      inputs.set(String(key.value), { value: this.#site(parsed, value, new Set(), true), span, item: index });
    });
    const range = properties.range ?? [0, 0, 0];
    const block = !properties.flow;
    return {
      ...base,
      inputs,
      container: {
        items,
        open: block ? range[0] : range[0] + 1,
        close: block ? range[1] : text.lastIndexOf("}", range[1]),
        block,
      },
      opaque: undefined,
    };
  }

  #site(parsed: ParsedFile, node: Node, seen: Set<string>, inPlace: boolean): ValueSite {
    const { text } = parsed.file;
    const range = node.range ?? [0, 0, 0];
    const span = { start: range[0], end: range[1] };
    const line = lineOf(text, span.start);
    const computed = (what: string): ComputedSite => ({ kind: "computed", what, span, line });
    if (isScalar(node)) {
      if (typeof node.value === "boolean")
        return {
          kind: "literal",
          value: node.value,
          span,
          expr: { kind: "boolean", value: node.value, span },
          line,
          inPlace,
        };
      if (typeof node.value !== "string") return computed(`a ${typeof node.value}`);
      const value = yamlStringValue(node.value);
      if (value !== undefined)
        return { kind: "literal", value, span, expr: stringExpr(value, node, span), line, inPlace };
      const reference = soleReference(node.value);
      if (reference === undefined) return computed("a string that interpolates other values");
      const config = this.#config.get(reference);
      const variable = this.#variables.get(reference);
      if (variable && !seen.has(reference)) {
        const inner = this.#site(variable.file, variable.node, new Set([...seen, reference]), false);
        const reads = this.#reads.get(reference) ?? 0;
        if (inner.kind === "literal" && (reads > 1 || variable.file !== parsed))
          return computed(
            `the variable ${reference}, which ${reads > 1 ? `${reads - 1} other place(s) also read` : "another file holds"}`,
          );
        return inner;
      }
      if (config || !/[.[]/.test(reference))
        return {
          kind: "config",
          key: config?.key ?? (reference.includes(":") ? reference : `${this.#project}:${reference}`),
          secret: config?.secret ?? false,
          type: config?.type ?? "string",
          span,
          line,
        };
      return computed(`the value \${${reference}}`);
    }
    if (isSeq(node)) {
      const values: string[] = [];
      for (const item of node.items) {
        const value =
          isScalar(item) && typeof item.value === "string" ? yamlStringValue(item.value) : undefined;
        if (value === undefined) return computed("a list of values that are not all literals");
        values.push(value);
      }
      const items: Expr[] = node.items.map((item, i) => {
        const r = (item as Node).range ?? [0, 0, 0];
        return stringExpr(values[i] ?? "", item as Scalar, { start: r[0], end: r[1] });
      });
      return { kind: "literal", value: values, span, expr: { kind: "list", items, span }, line, inPlace };
    }
    if (isMap(node)) {
      const key = node.items[0]?.key;
      const fn = isScalar(key) && String(key.value).startsWith("fn::") ? String(key.value) : undefined;
      return computed(fn ? `the result of ${fn}` : "a mapping");
    }
    return computed("an alias");
  }
}

/** A YAML string scalar as an expression, with its style. */
function stringExpr(value: string, node: Scalar, span: Span): Expr {
  const styles: Record<string, Quote> = {
    PLAIN: "plain",
    QUOTE_SINGLE: "single",
    QUOTE_DOUBLE: "double",
    BLOCK_LITERAL: "block",
    BLOCK_FOLDED: "block",
  };
  return { kind: "string", value, quote: styles[String(node.type)] ?? "plain", span };
}
