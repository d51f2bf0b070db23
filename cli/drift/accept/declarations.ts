/**
 * Where a program declares each custody resource and each of its inputs. The anchor is the resource's name:
 * the constructor call whose first argument is that name as a literal (`new Vault("a", …)`, `Vault("a", …)`), or
 * the YAML resource of that key (cli/drift/accept/yaml-program.ts). Each input's value is then
 * - a **literal** (a string, a boolean, a list of strings) written there, or bound once to a variable that
 *   nothing else reads, which an accept rewrites in place;
 * - a **config** read (`config.require("bName")`, `pulumi.Config().get("bName")`, YAML `${bName}`), which an
 *   accept sets in the stack's config file;
 * - **computed** (a template, a function's result, a value shared with other uses): an accept writes nothing
 *   and the report says where and what to change.
 */
import type { CustodyResourceKind } from "pulumi-custody/core";
import {
  type Binding,
  dottedName,
  type Expr,
  lastName,
  lineOf,
  type SourceModel,
  type Span,
} from "./source-model";

/** The languages an accept edits. */
export type ProgramLanguage = "javascript" | "python" | "yaml";

/** A value written as a literal. */
export interface LiteralSite {
  readonly kind: "literal";
  /** Its value. */
  readonly value: unknown;
  /** The literal's text. */
  readonly span: Span;
  /** The literal as written, for a rewrite in the same style. */
  readonly expr: Expr;
  /** Its 1-based line. */
  readonly line: number;
  /** Whether it is the input's own value (not a variable's), so that removing the input removes it. */
  readonly inPlace: boolean;
}

/** A value read from the stack's config. */
export interface ConfigSite {
  readonly kind: "config";
  /** The config key, with its namespace (`myproject:bName`). */
  readonly key: string;
  /** Whether the program reads it as a secret (`requireSecret`, `pulumi.secret(…)`, a YAML `secret: true`). */
  readonly secret: boolean;
  /** How the program reads it: as text, a boolean, or JSON (an object or a list). */
  readonly type: "string" | "boolean" | "object";
  /** Where it is read. */
  readonly span: Span;
  /** Its 1-based line. */
  readonly line: number;
}

/** A value an accept cannot rewrite. */
export interface ComputedSite {
  readonly kind: "computed";
  /** What it is, in words (`a template literal`, `a function call`). */
  readonly what: string;
  /** Where it is written. */
  readonly span: Span;
  /** Its 1-based line. */
  readonly line: number;
}

/** Where an input's value comes from. */
export type ValueSite = LiteralSite | ConfigSite | ComputedSite;

/** An input the declaration writes. */
export interface DeclaredInput {
  /** Its value. */
  readonly value: ValueSite;
  /** The whole input (`name: "x"`, `name="x"`, a YAML pair), for its removal. */
  readonly span: Span;
  /** Its position among the container's items. */
  readonly item: number;
}

/** Where the inputs are written, so that one can be added: an object literal, a call's arguments, a mapping. */
export interface InputContainer {
  /** Every item of it in order (properties, arguments, pairs). */
  readonly items: readonly Span[];
  /** The offset just after its opening bracket (of its first item, for a YAML block mapping). */
  readonly open: number;
  /** The offset of its closing bracket (after its last item, for a YAML block mapping). */
  readonly close: number;
  /** The item a new input goes before (Python: `opts=`), if not at the end. */
  readonly insertBefore?: number;
  /** A YAML block mapping: one pair per line. */
  readonly block?: boolean;
}

/** A custody resource as a program declares it. */
export interface Declaration {
  /** The program file. */
  readonly file: string;
  /** Its text. */
  readonly text: string;
  /** Its language. */
  readonly language: ProgramLanguage;
  /** The resource's name. */
  readonly resourceName: string;
  /** The resource's kind. */
  readonly kind: CustodyResourceKind;
  /** The 1-based line of the declaration. */
  readonly line: number;
  /** The inputs it writes, by the program's name of the input as the provider names it (`vaultGroupIds`). */
  readonly inputs: ReadonlyMap<string, DeclaredInput>;
  /** Where a new input goes; `undefined` when the inputs are not written as a literal (see `opaque`). */
  readonly container: InputContainer | undefined;
  /** Why the inputs cannot all be read or added to (`the inputs are the variable args`); `undefined` when they can. */
  readonly opaque: string | undefined;
}

/** Config methods of the Node.js and Python SDKs, and how each reads its value. */
const CONFIG_METHODS: Readonly<Record<string, { type: ConfigSite["type"]; secret: boolean }>> = {
  get: { type: "string", secret: false },
  require: { type: "string", secret: false },
  getSecret: { type: "string", secret: true },
  requireSecret: { type: "string", secret: true },
  get_secret: { type: "string", secret: true },
  require_secret: { type: "string", secret: true },
  getBoolean: { type: "boolean", secret: false },
  requireBoolean: { type: "boolean", secret: false },
  getSecretBoolean: { type: "boolean", secret: true },
  requireSecretBoolean: { type: "boolean", secret: true },
  get_bool: { type: "boolean", secret: false },
  require_bool: { type: "boolean", secret: false },
  get_secret_bool: { type: "boolean", secret: true },
  require_secret_bool: { type: "boolean", secret: true },
  getObject: { type: "object", secret: false },
  requireObject: { type: "object", secret: false },
  getSecretObject: { type: "object", secret: true },
  requireSecretObject: { type: "object", secret: true },
  get_object: { type: "object", secret: false },
  require_object: { type: "object", secret: false },
  get_secret_object: { type: "object", secret: true },
  require_secret_object: { type: "object", secret: true },
};

/** Python's keyword names of the inputs, to the provider's (`vault_group_ids` → `vaultGroupIds`). */
export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The provider's name of an input in Python (`vaultGroupIds` → `vault_group_ids`). */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Reads the declarations of a program's code files. */
export class CodeDeclarations {
  readonly #models: readonly SourceModel[];
  readonly #project: string;

  /**
   * @param models - the program's files
   * @param project - the project's name: the namespace of `new Config()`
   */
  constructor(models: readonly SourceModel[], project: string) {
    this.#models = models;
    this.#project = project;
  }

  /** Every declaration of a resource named `name` of `kind` in the program (more than one is ambiguous). */
  find(name: string, kind: CustodyResourceKind): Declaration[] {
    const found: Declaration[] = [];
    for (const model of this.#models) {
      for (const call of model.calls) {
        if (!this.#isConstructor(model, call, kind)) continue;
        const first = this.#resourceNameArg(model, call);
        if (first?.kind === "string" && first.value === name)
          found.push(this.#declaration(model, call, name, kind));
      }
    }
    return found;
  }

  /** How many times the program reads config `key`. */
  configReads(key: string): number {
    let count = 0;
    for (const model of this.#models)
      for (const call of model.calls) {
        const site = this.#configSite(model, call, new Set());
        if (site?.key === key) count++;
      }
    return count;
  }

  #isConstructor(
    model: SourceModel,
    call: Extract<Expr, { kind: "call" }>,
    kind: CustodyResourceKind,
  ): boolean {
    if (model.language === "javascript" && !call.isNew) return false;
    // Only a class of a custody package: `aws.backup.Vault("a", …)` is not a custody vault.
    const callee = call.callee;
    if (callee.kind === "name") return model.custodyClasses.get(callee.name) === kind;
    if (callee.kind !== "member" || callee.property !== kind) return false;
    const root = dottedName(callee.object)?.split(".")[0];
    return root !== undefined && model.custodyModules.has(root);
  }

  #resourceNameArg(model: SourceModel, call: Extract<Expr, { kind: "call" }>): Expr | undefined {
    if (model.language === "python")
      return call.args[0] ?? call.keywords.find((k) => k.key === "resource_name")?.value;
    return call.args[0];
  }

  #declaration(
    model: SourceModel,
    call: Extract<Expr, { kind: "call" }>,
    resourceName: string,
    kind: CustodyResourceKind,
  ): Declaration {
    const base = {
      file: model.file,
      text: model.text,
      language: model.language,
      resourceName,
      kind,
      line: lineOf(model.text, call.span.start),
    };
    const inputs = new Map<string, DeclaredInput>();
    if (model.language === "python") {
      // Keyword arguments, or an `args=VaultArgs(…)` (also as the second positional argument).
      const argsCall = call.keywords.find((k) => k.key === "args")?.value ?? call.args[1];
      const source = argsCall?.kind === "call" ? argsCall : call;
      if (argsCall && argsCall.kind !== "call")
        return { ...base, inputs, container: undefined, opaque: `its inputs are ${describe(argsCall)}` };
      const own = source === call;
      const keywords = source.keywords;
      keywords.forEach((keyword) => {
        if (own && ["opts", "resource_name", "args"].includes(keyword.key)) return;
        inputs.set(camelCase(keyword.key), {
          value: this.#site(model, keyword.value, new Set(), true),
          span: keyword.span,
          item: source.argSpans.findIndex((s) => s.start === keyword.span.start),
        });
      });
      const opts = own
        ? source.argSpans.findIndex((s) =>
            source.keywords.some((k) => k.key === "opts" && k.span.start === s.start),
          )
        : -1;
      return {
        ...base,
        inputs,
        container: {
          items: source.argSpans,
          open: source.open,
          close: source.close,
          ...(opts >= 0 ? { insertBefore: opts } : {}),
        },
        opaque: undefined,
      };
    }
    // JavaScript: the second argument, an object literal, or a variable bound once to one that nothing else reads.
    let args = call.args[1];
    let inPlace = true;
    if (args?.kind === "name") {
      const bound = this.#binding(model, args.name);
      if (bound?.value?.kind === "object" && (model.references.get(args.name) ?? 0) === 1) {
        args = bound.value;
        inPlace = true;
      }
    }
    if (args?.kind !== "object")
      return {
        ...base,
        inputs,
        container: undefined,
        opaque: args ? `its inputs are ${describe(args)}` : "it has no inputs",
      };
    args.properties.forEach((property, item) => {
      inputs.set(property.key, {
        value: this.#site(model, property.value, new Set(), inPlace),
        span: property.span,
        item,
      });
    });
    return {
      ...base,
      inputs,
      container: { items: args.properties.map((p) => p.span), open: args.open, close: args.close },
      opaque: args.opaque ? "its inputs include a spread or a computed key" : undefined,
    };
  }

  #binding(model: SourceModel, name: string): Binding | undefined {
    const binding = model.bindings.get(name);
    return binding && !binding.mutable ? binding : undefined;
  }

  /** Where a value comes from. `inPlace`: the expression is the input's own value. */
  #site(model: SourceModel, expr: Expr, seen: Set<string>, inPlace: boolean): ValueSite {
    const line = lineOf(model.text, expr.span.start);
    const computed = (what: string): ComputedSite => ({ kind: "computed", what, span: expr.span, line });
    switch (expr.kind) {
      case "string":
      case "boolean":
        return { kind: "literal", value: expr.value, span: expr.span, expr, line, inPlace };
      case "list": {
        if (expr.items.every((item) => item.kind === "string"))
          return {
            kind: "literal",
            value: expr.items.map((item) => (item as { value: string }).value),
            span: expr.span,
            expr,
            line,
            inPlace,
          };
        return computed("a list of values that are not all literals");
      }
      case "name": {
        const binding = this.#binding(model, expr.name);
        if (!binding?.value || seen.has(expr.name))
          return computed(`the variable ${expr.name}${binding ? "" : ", bound elsewhere or more than once"}`);
        const inner = this.#site(model, binding.value, new Set([...seen, expr.name]), false);
        const reads = model.references.get(expr.name) ?? 0;
        // A literal other code reads too: rewriting it would change them as well.
        if (inner.kind === "literal" && reads > 1)
          return computed(`the variable ${expr.name}, which ${reads - 1} other place(s) also read`);
        return inner;
      }
      case "call": {
        const config = this.#configSite(model, expr, seen);
        if (config) return config;
        const callee = lastName(expr.callee);
        if (callee === "secret" && expr.args.length === 1 && expr.args[0]) {
          // `pulumi.secret(config.require("x"))` reads a config value as a secret; a literal secret in code
          // is not rewritten: the accept never writes a secret into the program's source.
          const inner = this.#site(model, expr.args[0], seen, false);
          if (inner.kind === "config") return { ...inner, secret: true };
          return computed("a secret written in the program");
        }
        return computed(callee ? `the result of ${callee}(…)` : "a function call");
      }
      case "member":
        return computed("a member of another value");
      case "object":
        return computed("an object");
      default:
        return computed(expr.what);
    }
  }

  /** The config read a call is (`config.require("k")`), if it is one. */
  #configSite(
    model: SourceModel,
    call: Extract<Expr, { kind: "call" }>,
    seen: Set<string>,
  ): ConfigSite | undefined {
    if (call.callee.kind !== "member") return undefined;
    const method = CONFIG_METHODS[call.callee.property];
    const [keyArg] = call.args;
    if (!method || keyArg?.kind !== "string") return undefined;
    const namespace = this.#configNamespace(model, call.callee.object, seen);
    if (namespace === undefined) return undefined;
    const key = keyArg.value.includes(":") ? keyArg.value : `${namespace}:${keyArg.value}`;
    return {
      kind: "config",
      key,
      secret: method.secret,
      type: method.type,
      span: call.span,
      line: lineOf(model.text, call.span.start),
    };
  }

  /** The namespace of a `Config` object (`new pulumi.Config("ns")`, or a variable bound to one). */
  #configNamespace(model: SourceModel, object: Expr, seen: Set<string>): string | undefined {
    if (object.kind === "name" && !seen.has(object.name)) {
      const binding = this.#binding(model, object.name);
      return binding?.value
        ? this.#configNamespace(model, binding.value, new Set([...seen, object.name]))
        : undefined;
    }
    if (object.kind !== "call" || lastName(object.callee) !== "Config") return undefined;
    const [ns] = object.args;
    if (ns === undefined) return this.#project;
    return ns.kind === "string" ? ns.value : undefined;
  }
}

/** An expression in words, for a reason. */
function describe(expr: Expr): string {
  switch (expr.kind) {
    case "name":
      return `the variable ${expr.name}`;
    case "call":
      return "a function call";
    case "other":
      return expr.what;
    default:
      return `a ${expr.kind}`;
  }
}
