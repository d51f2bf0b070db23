/**
 * What `custody drift --accept` reads of a program file, in one shape for every language it parses as code
 * (JavaScript and TypeScript through the TypeScript compiler, Python through Python's own `ast` module): the
 * calls of the file with their arguments as expressions, the variables it binds, and how often each name is
 * used. Offsets are UTF-16 offsets into the file's text, so that an edit is a splice of that text.
 *
 * Only what an accept needs is kept: literals (strings, booleans, lists), names, member accesses, calls,
 * object literals and keyword arguments; anything else is an `other` expression that says what it is.
 */

/** A range of a file's text: `[start, end)` in UTF-16 offsets. */
export interface Span {
  /** The first offset. */
  readonly start: number;
  /** The offset after the last. */
  readonly end: number;
}

/** How a string literal was written: its quote (or `plain`, `single`, `double`, `block` in YAML). */
export type Quote = '"' | "'" | "`" | "plain" | "single" | "double" | "block";

/** A property of an object literal (JavaScript) or a keyword argument (Python). */
export interface Property {
  /** The property's name as written (`vaultGroupIds`, `vault_group_ids`). */
  readonly key: string;
  /** Its value. */
  readonly value: Expr;
  /** The whole property (`name: "x"`, `name="x"`), for its removal. */
  readonly span: Span;
}

/** An expression, as far as an accept reads it. */
export type Expr =
  | { readonly kind: "string"; readonly value: string; readonly quote: Quote; readonly span: Span }
  | { readonly kind: "boolean"; readonly value: boolean; readonly span: Span }
  | { readonly kind: "list"; readonly items: readonly Expr[]; readonly span: Span }
  | { readonly kind: "name"; readonly name: string; readonly span: Span }
  | { readonly kind: "member"; readonly object: Expr; readonly property: string; readonly span: Span }
  | {
      readonly kind: "call";
      readonly callee: Expr;
      /** `new X(…)` (JavaScript). */
      readonly isNew: boolean;
      /** Positional arguments. */
      readonly args: readonly Expr[];
      /** Keyword arguments (Python). */
      readonly keywords: readonly Property[];
      /** Every argument in the order written, positional and keyword (Python), for an insertion. */
      readonly argSpans: readonly Span[];
      /** The offset just after `(` and of `)`. */
      readonly open: number;
      readonly close: number;
      readonly span: Span;
    }
  | {
      readonly kind: "object";
      readonly properties: readonly Property[];
      /** Whether it has members an accept cannot read (spreads, methods, computed keys). */
      readonly opaque: boolean;
      /** The offset just after `{` and of `}`. */
      readonly open: number;
      readonly close: number;
      readonly span: Span;
    }
  | { readonly kind: "other"; readonly what: string; readonly span: Span };

/** A variable bound once to a value (`const x = …`, `x = …`). */
export interface Binding {
  /** The variable. */
  readonly name: string;
  /** What it is bound to; `undefined` when it has no initializer or is bound more than once. */
  readonly value: Expr | undefined;
  /** Whether the binding may change (`let`, `var`, a second assignment). */
  readonly mutable: boolean;
  /** Where it is declared. */
  readonly span: Span;
}

/** The language a program file is parsed as. */
export type CodeLanguage = "javascript" | "python";

/** One program file as an accept reads it. */
export interface SourceModel {
  /** Its absolute path. */
  readonly file: string;
  /** Its text. */
  readonly text: string;
  /** How it was parsed. */
  readonly language: CodeLanguage;
  /** Every call (and `new`) in it, outermost first. */
  readonly calls: readonly Extract<Expr, { kind: "call" }>[];
  /** The variables it binds, by name (a name bound twice has `mutable` set and no value). */
  readonly bindings: ReadonlyMap<string, Binding>;
  /** How many times each name is read (its declarations not counted). */
  readonly references: ReadonlyMap<string, number>;
  /**
   * The custody resource classes imported from a custody package (`pulumi-custody`, `@pulumi-custody/custody`,
   * `pulumi_custody`), by local name (`Vault`, or `V` for `Vault as V`) → class (`Vault`).
   */
  readonly custodyClasses: ReadonlyMap<string, string>;
  /** The local names of custody packages imported whole (`import * as custody`, `import pulumi_custody as custody`). */
  readonly custodyModules: ReadonlySet<string>;
  /** Syntax errors, each in one line (`line 3: …`); a file with errors is not edited. */
  readonly errors: readonly string[];
}

/** The packages of the custody resources: the dynamic provider's, the plugin's Node.js and Python SDKs. */
export const CUSTODY_PACKAGES: readonly RegExp[] = [
  /^pulumi-custody(\/|$)/,
  /^@pulumi-custody\/custody(\/|$)/,
  /^pulumi_custody(\.|$)/,
];

/** Whether a module specifier names a custody package. */
export function isCustodyPackage(specifier: string): boolean {
  return CUSTODY_PACKAGES.some((pattern) => pattern.test(specifier));
}

/** The 1-based line of `offset` in `text`. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** The offset where the line holding `offset` starts. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** The offset where the line holding `offset` ends (its `\n`, or the end of the text). */
export function lineEnd(text: string, offset: number): number {
  const at = text.indexOf("\n", offset);
  return at < 0 ? text.length : at;
}

/** The whitespace a line starts with. */
export function indentOf(text: string, offset: number): string {
  const start = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? "";
}

/** The dotted name of a callee (`pulumi.Config`, `custody.Vault`); `undefined` for anything else. */
export function dottedName(expr: Expr): string | undefined {
  if (expr.kind === "name") return expr.name;
  if (expr.kind === "member") {
    const object = dottedName(expr.object);
    return object === undefined ? undefined : `${object}.${expr.property}`;
  }
  return undefined;
}

/** The last part of a callee's name (`Vault` of `custody.Vault`); `undefined` for anything else. */
export function lastName(expr: Expr): string | undefined {
  if (expr.kind === "name") return expr.name;
  if (expr.kind === "member") return expr.property;
  return undefined;
}
