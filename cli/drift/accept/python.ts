/**
 * Python programs, read with Python's own parser: `python3` runs a short script (below) that parses each file
 * with the `ast` module, which every machine that runs a Python program has, and prints what an accept reads
 * (calls with their arguments, bindings, names read) as JSON. Its positions are the parser's: 1-based lines and
 * UTF-8 byte columns, turned here into offsets of the file's text.
 *
 * The interpreter is `PULUMI_PYTHON_CMD` when set (as Pulumi's Python host takes it), else `python3`, else
 * `python`. The texts go to it on standard input, so that a text an accept would write is checked before it is.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  type Binding,
  type Expr,
  isCustodyPackage,
  type Property,
  type SourceModel,
  type Span,
} from "./source-model";

/** The script: reads `{ files: [{ path, text }] }`, prints `[{ path, calls, bindings, references, errors }]`. */
const PARSER = `
import ast, json, sys

MAX_DEPTH = 24

def pos(node):
    return [node.lineno, node.col_offset, node.end_lineno, node.end_col_offset]

def convert(node, depth=0):
    if depth > MAX_DEPTH:
        return {"kind": "other", "what": "an expression nested too deep", "pos": pos(node)}
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            return {"kind": "boolean", "value": node.value, "pos": pos(node)}
        if isinstance(node.value, str):
            return {"kind": "string", "value": node.value, "pos": pos(node)}
        return {"kind": "other", "what": "a number" if isinstance(node.value, (int, float)) else "a constant", "pos": pos(node)}
    if isinstance(node, ast.JoinedStr):
        return {"kind": "other", "what": "an f-string", "pos": pos(node)}
    if isinstance(node, (ast.List, ast.Tuple)):
        return {"kind": "list", "items": [convert(e, depth + 1) for e in node.elts], "pos": pos(node)}
    if isinstance(node, ast.Starred):
        return {"kind": "other", "what": "an unpacking", "pos": pos(node)}
    if isinstance(node, ast.Name):
        return {"kind": "name", "name": node.id, "pos": pos(node)}
    if isinstance(node, ast.Attribute):
        return {"kind": "member", "object": convert(node.value, depth + 1), "property": node.attr, "pos": pos(node)}
    if isinstance(node, ast.Call):
        return call(node, depth)
    if isinstance(node, ast.BinOp):
        return {"kind": "other", "what": "an expression", "pos": pos(node)}
    if isinstance(node, ast.IfExp):
        return {"kind": "other", "what": "a conditional expression", "pos": pos(node)}
    if isinstance(node, ast.Subscript):
        return {"kind": "other", "what": "an element access", "pos": pos(node)}
    if isinstance(node, ast.Lambda):
        return {"kind": "other", "what": "a function", "pos": pos(node)}
    return {"kind": "other", "what": "an expression", "pos": pos(node)}

def keyword_pos(kw):
    if hasattr(kw, "lineno") and kw.lineno is not None:
        return pos(kw)
    return None

def call(node, depth):
    items = [("arg", a) for a in node.args] + [("kw", k) for k in node.keywords]
    items.sort(key=lambda item: (item[1].lineno, item[1].col_offset) if hasattr(item[1], "lineno") and item[1].lineno is not None else (item[1].value.lineno, item[1].value.col_offset))
    return {
        "kind": "call",
        "callee": convert(node.func, depth + 1),
        "args": [convert(a, depth + 1) for a in node.args],
        "keywords": [
            {"key": k.arg, "value": convert(k.value, depth + 1), "pos": keyword_pos(k), "valuePos": pos(k.value)}
            for k in node.keywords if k.arg is not None
        ],
        "unpacked": any(k.arg is None for k in node.keywords),
        "argPos": [keyword_pos(i) or pos(i.value) if kind == "kw" else pos(i) for kind, i in items],
        "funcEnd": [node.func.end_lineno, node.func.end_col_offset],
        "pos": pos(node),
    }

def model(path, text):
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as err:
        return {"path": path, "errors": ["line %s: %s" % (err.lineno, err.msg)]}
    calls, bindings, references, imports = [], {}, {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            calls.append(call(node, 0))
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            bindings.setdefault(node.targets[0].id, []).append({"value": convert(node.value), "pos": pos(node)})
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            bindings.setdefault(node.target.id, []).append({"value": convert(node.value) if node.value else None, "pos": pos(node)})
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.For, ast.With)) or isinstance(node, ast.NamedExpr):
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            for target in targets:
                for name in ast.walk(target) if target is not None else []:
                    if isinstance(name, ast.Name):
                        bindings.setdefault(name.id, []).append({"value": None, "pos": pos(name)})
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            references[node.id] = references.get(node.id, 0) + 1
        if isinstance(node, ast.Import):
            for alias in node.names:
                imports.append({"module": alias.name, "name": None, "as": alias.asname or alias.name.split(".")[0]})
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                imports.append({"module": node.module, "name": alias.name, "as": alias.asname or alias.name})
    calls.sort(key=lambda c: (c["pos"][0], c["pos"][1]))
    return {"path": path, "calls": calls, "bindings": bindings, "references": references, "imports": imports, "errors": []}

request = json.load(sys.stdin)
json.dump([model(f["path"], f["text"]) for f in request["files"]], sys.stdout)
`;

/** A position as the script prints it: start line and byte column, end line and byte column. */
type Position = [number, number, number, number];

interface RawExpr {
  kind: string;
  pos: Position;
  value?: unknown;
  what?: string;
  items?: RawExpr[];
  name?: string;
  object?: RawExpr;
  property?: string;
  callee?: RawExpr;
  args?: RawExpr[];
  keywords?: { key: string; value: RawExpr; pos: Position | null; valuePos: Position }[];
  unpacked?: boolean;
  argPos?: Position[];
  funcEnd?: [number, number];
}

interface RawModel {
  path: string;
  calls?: RawExpr[];
  bindings?: Record<string, { value: RawExpr | null; pos: Position }[]>;
  references?: Record<string, number>;
  imports?: { module: string; name: string | null; as: string }[];
  errors: string[];
}

/** Offsets of a text's lines, to turn (line, UTF-8 byte column) into UTF-16 offsets. */
class Positions {
  readonly #text: string;
  readonly #starts: number[] = [0];
  constructor(text: string) {
    this.#text = text;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.#starts.push(i + 1);
  }
  offset(line: number, byteColumn: number): number {
    const start = this.#starts[line - 1] ?? this.#text.length;
    const end = this.#starts[line] ?? this.#text.length;
    const text = this.#text.slice(start, end);
    // An ASCII line's bytes are its characters.
    if (Buffer.byteLength(text, "utf8") === text.length) return start + byteColumn;
    return start + Buffer.from(text, "utf8").subarray(0, byteColumn).toString("utf8").length;
  }
  span(pos: Position): Span {
    return { start: this.offset(pos[0], pos[1]), end: this.offset(pos[2], pos[3]) };
  }
}

/** The interpreter that parses the files. */
function pythonCommand(env: NodeJS.ProcessEnv): string[] {
  const configured = env.PULUMI_PYTHON_CMD;
  return configured ? [configured] : ["python3", "python"];
}

/** Parses `files` (path and text each) with Python's `ast`; one model per file, in order. */
export function pythonModels(
  files: readonly { file: string; text: string }[],
  env: NodeJS.ProcessEnv,
): SourceModel[] {
  if (files.length === 0) return [];
  const input = JSON.stringify({ files: files.map((f) => ({ path: f.file, text: f.text })) });
  let output: string | undefined;
  let failure = "";
  for (const command of pythonCommand(env)) {
    const run = spawnSync(command, ["-c", PARSER], {
      input,
      env: { ...env, PYTHONIOENCODING: "utf-8", PYTHONDONTWRITEBYTECODE: "1" },
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    if ((run.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
      failure = `${command} was not found`;
      continue;
    }
    if (run.status !== 0) {
      const said = `${run.stderr ?? ""}`.trim().split("\n").pop() ?? "";
      throw new Error(`${command} could not parse the program: ${said || `exit ${run.status}`}`);
    }
    output = run.stdout;
    break;
  }
  if (output === undefined)
    throw new Error(
      `reading a Python program needs a Python interpreter (${failure}): put python3 on PATH, or set PULUMI_PYTHON_CMD`,
    );
  const raw = JSON.parse(output) as RawModel[];
  return raw.map((model, index) => toModel(model, files[index]?.text ?? ""));
}

function toModel(raw: RawModel, text: string): SourceModel {
  const positions = new Positions(text);
  const convert = (expr: RawExpr): Expr => {
    const span = positions.span(expr.pos);
    switch (expr.kind) {
      case "string": {
        // The quote as written, past any prefix (`r"…"`); a triple quote reads as its first character.
        const quoteAt = text.slice(span.start, span.end).search(/['"]/);
        const quote = text[span.start + Math.max(quoteAt, 0)] === "'" ? "'" : '"';
        return { kind: "string", value: String(expr.value), quote, span };
      }
      case "boolean":
        return { kind: "boolean", value: expr.value === true, span };
      case "list":
        return { kind: "list", items: (expr.items ?? []).map(convert), span };
      case "name":
        return { kind: "name", name: expr.name ?? "", span };
      case "member":
        return {
          kind: "member",
          object: convert(expr.object as RawExpr),
          property: expr.property ?? "",
          span,
        };
      case "call": {
        const keywords: Property[] = (expr.keywords ?? []).map((k) => ({
          key: k.key,
          value: convert(k.value),
          span: keywordSpan(text, positions, k.pos, k.valuePos),
        }));
        const funcEnd = expr.funcEnd ? positions.offset(expr.funcEnd[0], expr.funcEnd[1]) : span.start;
        const open = text.indexOf("(", funcEnd) + 1;
        const call: Extract<Expr, { kind: "call" }> = {
          kind: "call",
          callee: convert(expr.callee as RawExpr),
          isNew: false,
          args: (expr.args ?? []).map(convert),
          keywords: expr.unpacked ? [] : keywords,
          argSpans: (expr.argPos ?? []).map((p) => positions.span(p)),
          open,
          close: span.end - 1,
          span,
        };
        // A call with `**kwargs` cannot be read: its keywords are not all written.
        return expr.unpacked ? { kind: "other", what: "a call with **keyword arguments", span } : call;
      }
      default:
        return { kind: "other", what: expr.what ?? "an expression", span };
    }
  };
  const calls = (raw.calls ?? [])
    .map(convert)
    .filter((c): c is Extract<Expr, { kind: "call" }> => c.kind === "call");
  const bindings = new Map<string, Binding>();
  for (const [name, all] of Object.entries(raw.bindings ?? {})) {
    const [first] = all;
    if (!first) continue;
    const span = positions.span(first.pos);
    bindings.set(
      name,
      all.length === 1 && first.value
        ? { name, value: convert(first.value), mutable: false, span }
        : { name, value: undefined, mutable: true, span },
    );
  }
  return {
    file: raw.path,
    text,
    language: "python",
    calls,
    bindings,
    references: new Map(Object.entries(raw.references ?? {})),
    ...custodyImports(raw.imports ?? []),
    errors: raw.errors,
  };
}

/** The custody classes and modules a Python file imports. */
function custodyImports(imports: readonly { module: string; name: string | null; as: string }[]): {
  custodyClasses: Map<string, string>;
  custodyModules: Set<string>;
} {
  const custodyClasses = new Map<string, string>();
  const custodyModules = new Set<string>();
  for (const entry of imports) {
    if (!isCustodyPackage(entry.module)) continue;
    if (entry.name === null) custodyModules.add(entry.as);
    else if (entry.name === "Vault" || entry.name === "VaultAddress")
      custodyClasses.set(entry.as, entry.name);
    // `from pulumi_custody import vault` (a submodule), `from pulumi_custody import *`: the module's names.
    else if (entry.name === "*") {
      custodyClasses.set("Vault", "Vault");
      custodyClasses.set("VaultAddress", "VaultAddress");
    } else custodyModules.add(entry.as);
  }
  return { custodyClasses, custodyModules };
}

/** A keyword argument's span (`name="x"`); before Python 3.9 the parser gives only its value's. */
function keywordSpan(text: string, positions: Positions, keyword: Position | null, value: Position): Span {
  if (keyword) return positions.span(keyword);
  const valueSpan = positions.span(value);
  const before = /([A-Za-z_][A-Za-z0-9_]*)\s*=\s*$/.exec(text.slice(0, valueSpan.start));
  return { start: before ? before.index : valueSpan.start, end: valueSpan.end };
}

/** The Python files of a program directory: every `.py` file in it and below, outside virtualenvs and caches. */
export function pythonProgramFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string, depth: number) => {
    if (depth > 8) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    // A virtualenv holds pyvenv.cfg: its packages are not the program.
    if (depth > 0 && entries.some((e) => e.name === "pyvenv.cfg")) return;
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (
          entry.name.startsWith(".") ||
          ["node_modules", "__pycache__", "site-packages"].includes(entry.name)
        )
          continue;
        walk(full, depth + 1);
      } else if (entry.isFile() && entry.name.endsWith(".py")) files.push(full);
    }
  };
  walk(dir, 0);
  return files;
}
