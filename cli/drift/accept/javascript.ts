/**
 * JavaScript and TypeScript programs, read with the TypeScript compiler's parser (the `typescript` package,
 * loaded only when such a program is accepted): every call and `new`, the variables bound, the names read,
 * and the custody classes imported under another name. A program's files are its entry file and the local
 * modules it imports, transitively (`import … from "./x"`, `require("./x")`, `export … from "./x"`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as TypeScript from "typescript";
import {
  type Binding,
  type Expr,
  isCustodyPackage,
  type Property,
  type SourceModel,
  type Span,
} from "./source-model";

let loaded: typeof TypeScript | undefined;

/** The TypeScript compiler, loaded on first use (a plain `custody drift` never pays for it). */
function ts(): typeof TypeScript {
  loaded ??= require("typescript") as typeof TypeScript;
  return loaded;
}

/** The source extensions a local import may resolve to, in Node's and TypeScript's order. */
const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** The custody resource classes, whose local aliases are followed. */
const RESOURCE_CLASSES = new Set(["Vault", "VaultAddress"]);

/** How deep an expression is read; deeper parts are `other` (a program's values are shallow). */
const MAX_DEPTH = 24;

/** The script kind of a file, by its extension. */
function scriptKind(file: string): TypeScript.ScriptKind {
  const kinds = ts().ScriptKind;
  const ext = path.extname(file);
  if (ext === ".tsx") return kinds.TSX;
  if (ext === ".jsx") return kinds.JSX;
  if (ext === ".js" || ext === ".mjs" || ext === ".cjs") return kinds.JS;
  return kinds.TS;
}

/** The file a local module specifier names, from the file that imports it; `undefined` if none exists. */
function resolveLocal(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  // A TypeScript source imports its sibling as `./x.js`: the `.ts` file is the source.
  const stem = /\.(c|m)?js$/.test(base) ? base.replace(/\.(c|m)?js$/, "") : undefined;
  const candidates = [
    base,
    ...(stem ? EXTENSIONS.map((e) => stem + e) : []),
    ...EXTENSIONS.map((e) => base + e),
    ...EXTENSIONS.map((e) => path.join(base, `index${e}`)),
  ];
  return candidates.find((c) => fs.statSync(c, { throwIfNoEntry: false })?.isFile() && !c.endsWith(".d.ts"));
}

/** The local module specifiers of a parsed file (`./x`, `../lib/y`). */
function localSpecifiers(source: TypeScript.SourceFile): string[] {
  const t = ts();
  const found: string[] = [];
  const visit = (node: TypeScript.Node) => {
    let specifier: TypeScript.Expression | undefined;
    if (t.isImportDeclaration(node) || t.isExportDeclaration(node)) specifier = node.moduleSpecifier;
    else if (t.isImportEqualsDeclaration(node) && t.isExternalModuleReference(node.moduleReference))
      specifier = node.moduleReference.expression;
    else if (
      t.isCallExpression(node) &&
      ((t.isIdentifier(node.expression) && node.expression.text === "require") ||
        node.expression.kind === t.SyntaxKind.ImportKeyword)
    )
      specifier = node.arguments[0];
    if (specifier && t.isStringLiteralLike(specifier) && /^\.\.?(\/|$)/.test(specifier.text))
      found.push(specifier.text);
    t.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Parses `text` as the file `file`. */
function parse(file: string, text: string): TypeScript.SourceFile {
  const t = ts();
  return t.createSourceFile(file, text, t.ScriptTarget.Latest, true, scriptKind(file));
}

/** The syntax errors of a parsed file, each in one line. */
function syntaxErrors(source: TypeScript.SourceFile): string[] {
  const t = ts();
  const diagnostics = (source as unknown as { parseDiagnostics?: readonly TypeScript.Diagnostic[] })
    .parseDiagnostics;
  return (diagnostics ?? []).map((d) => {
    const line = d.start === undefined ? "?" : source.getLineAndCharacterOfPosition(d.start).line + 1;
    return `line ${line}: ${t.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}

/** The files of the program whose entry is `entry`: it and every local module it imports, transitively. */
export function javascriptProgramFiles(entry: string): string[] {
  const files: string[] = [];
  const queue = [entry];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    // Only the program's own modules: a package's files are not the program.
    if (file.split(path.sep).includes("node_modules")) continue;
    files.push(file);
    const source = parse(file, fs.readFileSync(file, "utf8"));
    for (const specifier of localSpecifiers(source)) {
      const resolved = resolveLocal(file, specifier);
      if (resolved) queue.push(resolved);
    }
  }
  return files;
}

/** Reads a JavaScript or TypeScript file's text into the shape an accept works on. */
export function javascriptModel(file: string, text: string): SourceModel {
  const t = ts();
  const K = t.SyntaxKind;
  const source = parse(file, text);
  const spanOf = (node: TypeScript.Node): Span => ({ start: node.getStart(source), end: node.end });
  const calls: Extract<Expr, { kind: "call" }>[] = [];
  const declared = new Map<string, Binding[]>();
  const references = new Map<string, number>();
  const classes = new Map<string, string>();
  const modules = new Set<string>();
  /** Whether an expression is `require("<a custody package>")` (or `await import(…)`). */
  const requiredCustody = (expr: TypeScript.Expression): boolean => {
    let inner = expr;
    while (t.isAwaitExpression(inner) || t.isParenthesizedExpression(inner)) inner = inner.expression;
    return (
      t.isCallExpression(inner) &&
      ((t.isIdentifier(inner.expression) && inner.expression.text === "require") ||
        inner.expression.kind === K.ImportKeyword) &&
      inner.arguments.length === 1 &&
      t.isStringLiteral(inner.arguments[0] as TypeScript.Node) &&
      isCustodyPackage((inner.arguments[0] as TypeScript.StringLiteral).text)
    );
  };

  const propertyKey = (name: TypeScript.PropertyName): string | undefined =>
    t.isIdentifier(name) || t.isStringLiteral(name) || t.isNoSubstitutionTemplateLiteral(name)
      ? name.text
      : undefined;

  const convert = (node: TypeScript.Expression, depth = 0): Expr => {
    const span = spanOf(node);
    if (depth > MAX_DEPTH) return { kind: "other", what: "an expression nested too deep", span };
    if (
      t.isParenthesizedExpression(node) ||
      t.isAsExpression(node) ||
      t.isSatisfiesExpression(node) ||
      t.isNonNullExpression(node) ||
      t.isTypeAssertionExpression(node)
    )
      return convert(node.expression, depth + 1);
    if (t.isStringLiteral(node))
      return { kind: "string", value: node.text, quote: text[span.start] === "'" ? "'" : '"', span };
    if (t.isNoSubstitutionTemplateLiteral(node))
      return { kind: "string", value: node.text, quote: "`", span };
    if (t.isTemplateExpression(node)) return { kind: "other", what: "a template literal", span };
    if (node.kind === K.TrueKeyword || node.kind === K.FalseKeyword)
      return { kind: "boolean", value: node.kind === K.TrueKeyword, span };
    if (t.isArrayLiteralExpression(node))
      return { kind: "list", items: node.elements.map((e) => convert(e, depth + 1)), span };
    if (t.isSpreadElement(node)) return { kind: "other", what: "a spread", span };
    if (t.isIdentifier(node)) return { kind: "name", name: node.text, span };
    if (t.isPropertyAccessExpression(node) && t.isIdentifier(node.name))
      return { kind: "member", object: convert(node.expression, depth + 1), property: node.name.text, span };
    if (t.isCallExpression(node) || t.isNewExpression(node)) {
      const args = [...(node.arguments ?? [])];
      const open = node.arguments ? node.arguments.pos : node.end;
      // The offset of `)`: a call's text ends with it.
      const close = node.arguments ? node.end - 1 : node.end;
      const call: Extract<Expr, { kind: "call" }> = {
        kind: "call",
        callee: convert(node.expression, depth + 1),
        isNew: t.isNewExpression(node),
        args: args.map((a) => convert(a, depth + 1)),
        keywords: [],
        argSpans: args.map(spanOf),
        open,
        close,
        span,
      };
      return call;
    }
    if (t.isObjectLiteralExpression(node)) {
      const properties: Property[] = [];
      let opaque = false;
      for (const member of node.properties) {
        const key = member.name ? propertyKey(member.name) : undefined;
        if (t.isPropertyAssignment(member) && key !== undefined)
          properties.push({ key, value: convert(member.initializer, depth + 1), span: spanOf(member) });
        else if (t.isShorthandPropertyAssignment(member))
          properties.push({
            key: member.name.text,
            value: { kind: "name", name: member.name.text, span: spanOf(member.name) },
            span: spanOf(member),
          });
        else opaque = true;
      }
      return {
        kind: "object",
        properties,
        opaque,
        open: span.start + 1,
        close: node.end - 1,
        span,
      };
    }
    return { kind: "other", what: describe(node), span };
  };

  const describe = (node: TypeScript.Node): string => {
    if (t.isBinaryExpression(node)) return "an expression";
    if (t.isConditionalExpression(node)) return "a conditional expression";
    if (t.isElementAccessExpression(node)) return "an element access";
    if (t.isArrowFunction(node) || t.isFunctionExpression(node)) return "a function";
    if (t.isNumericLiteral(node)) return "a number";
    if (node.kind === K.NullKeyword) return "null";
    return "an expression";
  };

  // Calls in document order, outermost first: each call is converted once, where it is met.
  const visit = (node: TypeScript.Node): void => {
    if (t.isCallExpression(node) || t.isNewExpression(node)) {
      const converted = convert(node);
      if (converted.kind === "call") calls.push(converted);
    }
    if (t.isVariableDeclaration(node) && t.isIdentifier(node.name)) {
      const list = node.parent;
      const constant = t.isVariableDeclarationList(list) && (list.flags & t.NodeFlags.Const) !== 0;
      const binding: Binding = {
        name: node.name.text,
        value: node.initializer ? convert(node.initializer) : undefined,
        mutable: !constant,
        span: spanOf(node),
      };
      declared.set(binding.name, [...(declared.get(binding.name) ?? []), binding]);
    }
    // The custody classes and packages in scope: `import { Vault as V } from "pulumi-custody"`, `import * as
    // custody from "@pulumi-custody/custody"`, `const { Vault } = require("pulumi-custody")`, `const c = require(…)`.
    if (
      t.isImportDeclaration(node) &&
      t.isStringLiteral(node.moduleSpecifier) &&
      isCustodyPackage(node.moduleSpecifier.text)
    ) {
      const clause = node.importClause;
      if (clause?.name) modules.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && t.isNamespaceImport(bindings)) modules.add(bindings.name.text);
      if (bindings && t.isNamedImports(bindings))
        for (const element of bindings.elements) {
          const imported = (element.propertyName ?? element.name).text;
          if (RESOURCE_CLASSES.has(imported)) classes.set(element.name.text, imported);
        }
    }
    if (t.isImportEqualsDeclaration(node) && t.isExternalModuleReference(node.moduleReference)) {
      const target = node.moduleReference.expression;
      if (t.isStringLiteral(target) && isCustodyPackage(target.text)) modules.add(node.name.text);
    }
    if (t.isVariableDeclaration(node) && node.initializer && requiredCustody(node.initializer)) {
      if (t.isIdentifier(node.name)) modules.add(node.name.text);
      else if (t.isObjectBindingPattern(node.name))
        for (const element of node.name.elements) {
          const imported =
            element.propertyName && t.isIdentifier(element.propertyName)
              ? element.propertyName.text
              : t.isIdentifier(element.name)
                ? element.name.text
                : undefined;
          if (imported && RESOURCE_CLASSES.has(imported) && t.isIdentifier(element.name))
            classes.set(element.name.text, imported);
        }
    }
    if (t.isIdentifier(node) && isReference(node))
      references.set(node.text, (references.get(node.text) ?? 0) + 1);
    t.forEachChild(node, visit);
  };

  /** Whether an identifier reads a variable (not a declaration, a property name or a type). */
  const isReference = (node: TypeScript.Identifier): boolean => {
    const parent = node.parent;
    if (!parent) return false;
    if (t.isVariableDeclaration(parent) && parent.name === node) return false;
    if (t.isPropertyAccessExpression(parent) && parent.name === node) return false;
    if (t.isPropertyAssignment(parent) && parent.name === node) return false;
    if (
      (t.isFunctionDeclaration(parent) ||
        t.isClassDeclaration(parent) ||
        t.isParameter(parent) ||
        t.isMethodDeclaration(parent) ||
        t.isPropertyDeclaration(parent) ||
        t.isImportSpecifier(parent) ||
        t.isImportClause(parent) ||
        t.isNamespaceImport(parent) ||
        t.isTypeReferenceNode(parent) ||
        t.isQualifiedName(parent) ||
        t.isInterfaceDeclaration(parent) ||
        t.isTypeAliasDeclaration(parent)) &&
      (parent as { name?: TypeScript.Node }).name === node
    )
      return false;
    return !t.isTypeReferenceNode(parent) && !t.isQualifiedName(parent);
  };

  visit(source);
  const bindings = new Map<string, Binding>();
  for (const [name, all] of declared) {
    const [first] = all;
    if (!first) continue;
    // Bound twice (in two scopes, say): which one a use reads is not known without scopes; none is followed.
    bindings.set(name, all.length === 1 ? first : { ...first, value: undefined, mutable: true });
  }
  return {
    file,
    text,
    language: "javascript",
    calls,
    bindings,
    references,
    custodyClasses: classes,
    custodyModules: modules,
    errors: syntaxErrors(source),
  };
}
