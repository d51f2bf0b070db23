// Every kind of field goes through the same generic check, unknown handling and diff, on both paths: a text, an
// enum, a flag, an id (compared without case), a list of ids, a literal, an object and a union of objects on a
// discriminator. The dynamic path hands the runtime plain values, with the engine's placeholder where a value is
// not known yet; the plugin path hands it the engine's wire values (any part may be a secret), through the same
// code as the plugin's `check` and `diff` (`checkWith`, `diffWith`). The properties: valid values pass and come
// back normalized (ids lower-cased at any depth) with their unknown parts kept in place; one bad value fails
// naming its input; a value compares equal to itself however its ids are cased and its keys ordered, and a
// different one is a change of the kind its declaration says (replace or update), as is a value not known yet;
// both paths agree, and the plugin's answer keeps what was secret secret. The plugin's schema types every kind,
// the union as a `oneOf` of named object types.
import * as assert from "node:assert/strict";
import { VAULT_TYPES } from "@pulumi-custody/sdk/schema";
import fc from "fast-check";
import {
  changedInputs,
  checkInputs,
  type FieldDeclarations,
  inputNames,
  type ResourceLifecycle,
  UNKNOWN,
  vaultAddressDeclaration,
  vaultDeclaration,
} from "pulumi-custody/core";
import { z } from "zod";
import { SECRET_SIG, SIG_KEY, unwrap } from "../properties";
import { checkWith, diffWith } from "../provider";
import { jsonSchemaOf, SchemaTypes } from "../schema-types";

type Props = Record<string, unknown>;

// The types of the real inputs, so that the rules (and an id's case) are the resources' own.
const text = vaultDeclaration.name.input.type;
const choice = vaultDeclaration.type.input.type;
const flag = vaultDeclaration.adoptExisting.input.type;
const id = vaultDeclaration.endUserId.input.type;
const ids = vaultDeclaration.vaultGroupIds.input.type;
const mark = vaultAddressDeclaration.nameIsDefault.input.type;
const object = z.object({ keyId: id, label: text, tags: z.array(z.string()).optional() });
const union = z.discriminatedUnion("origin", [
  z.object({ origin: z.literal("imported_keys"), keyId: id }),
  z.object({ origin: z.literal("external_signer"), publicKey: z.string().min(1) }),
]);

/** One input of each kind, each with a change of its own. */
const FIELDS = {
  text: { input: { type: text, change: "update" } },
  choice: { input: { type: choice, change: "replace" } },
  flag: { input: { type: flag, change: "update" } },
  id: { input: { type: id, change: "replace" } },
  ids: { input: { type: ids, change: "update" } },
  mark: { input: { type: mark, change: "update" } },
  object: { input: { type: object, change: "replace" } },
  union: { input: { type: union, change: "update" } },
} as const satisfies FieldDeclarations;
type Kind = keyof typeof FIELDS;
const KINDS = inputNames(FIELDS) as Kind[];

/** The resource's methods: the generic check and diff of its declaration. */
const methods: Pick<ResourceLifecycle, "check" | "diff"> = {
  check: async (_olds, news) => checkInputs(FIELDS, news, { noun: "thing" }),
  diff: async (_id, olds, news) => {
    const { replaces, updates } = changedInputs(FIELDS, olds, news);
    return { changes: replaces.length + updates.length > 0, replaces };
  },
};

// ---- values ----------------------------------------------------------------------------------------------

// The plugin keeps every secret string it was given out of the notices of its process, which the other tests of
// this process read: the values made secret here are words no other test writes.
const word = fc.constantFrom("Quokka", "Zebu", "Ptarmigan", "Xylograph", "Zürichsee", "東京都庁");
const name = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" "));
const uuid = fc.uuid().map((u) => u.toLowerCase());
/** An id as a program may spell it: in any case. */
const anyCase = (value: string) => fc.boolean().map((upper) => (upper ? value.toUpperCase() : value));

/** `value` as plain JSON (fast-check's records have no prototype). */
function plain<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return arbitrary.map((value) => JSON.parse(JSON.stringify(value)) as T);
}

/** A valid value of each kind, normalized (ids lower-case). */
const valid: Record<Kind, fc.Arbitrary<unknown>> = {
  text: name,
  choice: fc.constantFrom(...VAULT_TYPES),
  flag: fc.boolean(),
  id: uuid,
  ids: fc.uniqueArray(uuid, { minLength: 1, maxLength: 4 }),
  mark: fc.constant(true),
  object: plain(
    fc.record(
      {
        keyId: uuid,
        label: name,
        tags: fc.array(fc.constantFrom("tag-quokka", "tag-zebu", "tag-ptarmigan"), { maxLength: 3 }),
      },
      { requiredKeys: ["keyId", "label"] },
    ),
  ),
  union: plain(
    fc.oneof(
      fc.record({ origin: fc.constant("imported_keys"), keyId: uuid }),
      fc.record({
        origin: fc.constant("external_signer"),
        publicKey: fc.stringMatching(/^pk-[0-9a-f]{8,16}$/),
      }),
    ),
  ),
};

/** A value of each kind that its rules refuse. */
const invalid: Record<Kind, fc.Arbitrary<unknown>> = {
  text: fc.constantFrom("", "   ", " padded", "two  spaces", "bell\u0007"),
  choice: fc.constantFrom("nonsense", "EVM", 7),
  flag: fc.constantFrom("yes", 1, "true"),
  id: fc.constantFrom("not-a-uuid", "1234", 42),
  ids: fc.oneof(
    fc.constant([]),
    uuid.map((u) => [u, u.toUpperCase()]),
    fc.constant(["nope"]),
  ),
  mark: fc.constantFrom(false, "true"),
  object: fc.oneof(
    uuid.map((keyId) => ({ keyId, label: "" })),
    name.map((label) => ({ keyId: "x", label })),
    fc.constant("a string"),
  ),
  union: fc.oneof(
    fc.constant({ origin: "other", keyId: "x" }),
    fc.constant({ origin: "imported_keys", keyId: "x" }),
    fc.constant({ origin: "external_signer" }),
  ),
};

/** `value` as a program may spell it: ids in any case at any depth, an object's keys in any order. */
function respelled(value: unknown): fc.Arbitrary<unknown> {
  // The preview's placeholder is the engine's, spelled one way only.
  if (typeof value === "string" && value !== UNKNOWN && /^[0-9a-f-]{36}$/.test(value)) return anyCase(value);
  if (Array.isArray(value)) return fc.tuple(...value.map(respelled));
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    return fc
      .tuple(
        fc.tuple(...entries.map(([key, item]) => respelled(item).map((v) => [key, v] as const))),
        fc.boolean(),
      )
      .map(([pairs, reverse]) => Object.fromEntries(reverse ? [...pairs].reverse() : pairs));
  }
  return fc.constant(value);
}

/** `value` with some part (itself, an item, a key's value) not known yet. */
function withUnknown(value: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(value) && value.length > 0)
    return fc.nat(value.length - 1).map((at) => value.map((item, index) => (index === at ? UNKNOWN : item)));
  if (value !== null && typeof value === "object" && Object.keys(value).length > 0) {
    const keys = Object.keys(value);
    return fc.constantFrom(...keys).map((key) => ({ ...value, [key]: UNKNOWN }));
  }
  return fc.constant(UNKNOWN);
}

/** `value` in the engine's wire form, with some parts secret; and whether any part was. */
function onTheWire(value: unknown): fc.Arbitrary<{ wire: unknown; secret: boolean }> {
  // Enum values are words other tests write (`evm`): they are never made secret here.
  if (typeof value === "string" && (VAULT_TYPES as readonly string[]).includes(value))
    return fc.constant({ wire: value, secret: false });
  const wrap = (inner: fc.Arbitrary<{ wire: unknown; secret: boolean }>) =>
    fc
      .tuple(inner, fc.boolean())
      .map(([{ wire, secret }, makeSecret]) =>
        makeSecret ? { wire: { [SIG_KEY]: SECRET_SIG, value: wire }, secret: true } : { wire, secret },
      );
  if (Array.isArray(value))
    return wrap(
      fc.tuple(...value.map(onTheWire)).map((items) => ({
        wire: items.map((i) => i.wire),
        secret: items.some((i) => i.secret),
      })),
    );
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    return wrap(
      fc.tuple(...entries.map(([, item]) => onTheWire(item))).map((items) => ({
        wire: Object.fromEntries(entries.map(([key], index) => [key, items[index]!.wire])),
        secret: items.some((i) => i.secret),
      })),
    );
  }
  // The preview's placeholder stands for any value; the engine never wraps it as a secret.
  if (value === UNKNOWN) return fc.constant({ wire: value, secret: false });
  return wrap(fc.constant({ wire: value, secret: false }));
}

/** Some kinds, each with a value made by `of`. */
function someOf(of: (kind: Kind) => fc.Arbitrary<unknown>): fc.Arbitrary<Partial<Record<Kind, unknown>>> {
  return fc.record(
    Object.fromEntries(KINDS.map((kind) => [kind, of(kind)])) as Record<Kind, fc.Arbitrary<unknown>>,
    {
      requiredKeys: [],
    },
  );
}

/** Whole inputs on the wire, and the keys that held a secret. */
function wired(inputs: Props): fc.Arbitrary<{ wire: Props; secretKeys: string[] }> {
  const entries = Object.entries(inputs);
  return fc.tuple(...entries.map(([, value]) => onTheWire(value))).map((items) => ({
    wire: Object.fromEntries(entries.map(([key], index) => [key, items[index]!.wire])),
    secretKeys: entries.filter((_, index) => items[index]!.secret).map(([key]) => key),
  }));
}

/** Whether two normalized values are the same (lists in order, objects by key). */
function sameJson(a: unknown, b: unknown): boolean {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([x], [y]) => (x < y ? -1 : 1))
              .map(([k, i]) => [k, sorted(i)]),
          )
        : v;
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function isSecretWrapped(value: unknown): boolean {
  return value !== null && typeof value === "object" && (value as Props)[SIG_KEY] === SECRET_SIG;
}

// ---- the properties ----------------------------------------------------------------------------------------

describe("every field kind, on both paths (property-based)", () => {
  it("valid values pass, normalized, with the parts not known yet kept in place", async () => {
    // Each kind: a valid value as a program spells it, maybe with a part not known yet.
    const case_ = someOf((kind) =>
      valid[kind].chain((normal) =>
        fc.oneof(
          respelled(normal).map((spelled) => ({ spelled, normal })),
          withUnknown(normal).chain((partial) =>
            respelled(partial).map((spelled) => ({ spelled, normal: partial })),
          ),
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        case_.chain((c) => {
          const spelled = Object.fromEntries(
            Object.entries(c).map(([k, v]) => [k, (v as { spelled: unknown }).spelled]),
          );
          return wired(spelled).map((w) => ({ c, spelled, ...w }));
        }),
        async ({ c, spelled, wire, secretKeys }) => {
          const expected = Object.fromEntries(
            Object.entries(c).map(([k, v]) => [k, (v as { normal: unknown }).normal]),
          );
          const dynamic = await methods.check({}, spelled);
          assert.deepEqual(dynamic.failures, undefined);
          assert.deepEqual(dynamic.inputs, expected);
          const plugin = await checkWith(methods, {}, wire);
          assert.deepEqual(plugin.failures, []);
          assert.deepEqual(unwrap(plugin.inputs).values, dynamic.inputs);
          for (const key of secretKeys) assert.ok(isSecretWrapped(plugin.inputs[key]), `${key} stays secret`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("one bad value fails, naming its input, on both paths", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...KINDS).chain((bad) =>
          fc.tuple(
            fc.constant(bad),
            invalid[bad],
            someOf((kind) => valid[kind]),
          ),
        ),
        async ([bad, value, others]) => {
          const inputs = { ...others, [bad]: value };
          const dynamic = await methods.check({}, inputs);
          const named = (failures: { property: string; reason: string }[] | undefined) => [
            ...new Set((failures ?? []).map((f) => f.property || f.reason.split(" ")[0])),
          ];
          assert.deepEqual(named(dynamic.failures), [bad], JSON.stringify(dynamic.failures));
          const plugin = await checkWith(methods, {}, inputs);
          assert.deepEqual(plugin.failures, dynamic.failures);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("diff: the same value is no change however spelled; another value, or one not known yet, is the declared change", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...KINDS).chain((kind) =>
          fc.tuple(
            fc.constant(kind),
            valid[kind].chain((old) =>
              fc.tuple(
                fc.constant(old),
                fc.oneof(
                  respelled(old).map((now) => ({ now, changed: false })),
                  // Another valid value, where the kind has one (a literal has only itself).
                  valid[kind].map((now) => ({ now, changed: !sameJson(now, old) })),
                  withUnknown(old).map((now) => ({ now, changed: true })),
                ),
              ),
            ),
          ),
        ),
        async ([kind, [old, { now, changed }]]) => {
          // The state holds the value as `check` normalized it; the new inputs as `check` would hand them over.
          const news = (await methods.check({}, { [kind]: now })).inputs;
          const expected = changed ? [kind] : [];
          const replaces = FIELDS[kind].input.change === "replace" ? expected : [];
          const dynamic = await methods.diff("id", { [kind]: old }, news);
          assert.deepEqual(
            { changes: dynamic.changes, replaces: dynamic.replaces },
            { changes: changed, replaces },
          );
          const { wire } = fc.sample(wired(news), 1)[0]!;
          const plugin = await diffWith(methods, "id", { [kind]: old }, wire);
          assert.deepEqual(
            { changes: plugin.changes, replaces: plugin.replaces },
            { changes: changed, replaces },
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the plugin's schema types every kind; the union is a oneOf of object types named after its discriminator", () => {
    const types = new SchemaTypes();
    const typed = Object.fromEntries(
      KINDS.map((kind) => [
        kind,
        types.typeOf(jsonSchemaOf(FIELDS[kind].input.type, "input"), `Thing${kind}`, kind),
      ]),
    );
    assert.deepEqual(typed.text, { type: "string" });
    assert.deepEqual(typed.choice, { type: "string" });
    assert.deepEqual(typed.flag, { type: "boolean" });
    assert.deepEqual(typed.id, { type: "string" });
    assert.deepEqual(typed.ids, { type: "array", items: { type: "string" } });
    assert.deepEqual(typed.mark, { type: "boolean" });
    assert.deepEqual(typed.object, { $ref: "#/types/custody:index:Thingobject" });
    assert.deepEqual(typed.union, {
      oneOf: [
        { $ref: "#/types/custody:index:ThingunionImportedKeys" },
        { $ref: "#/types/custody:index:ThingunionExternalSigner" },
      ],
      discriminator: {
        propertyName: "origin",
        mapping: {
          imported_keys: "#/types/custody:index:ThingunionImportedKeys",
          external_signer: "#/types/custody:index:ThingunionExternalSigner",
        },
      },
    });
    const member = types.declared["custody:index:ThingunionImportedKeys"] as { required?: string[] };
    assert.deepEqual(member.required, ["origin", "keyId"]);
    // What no Pulumi type can say is an error naming the field, never `Any`.
    assert.throws(
      () => types.typeOf(jsonSchemaOf(z.any()), "ThingAnything", "anything"),
      /ThingAnything: .*no Pulumi type/,
    );
  });
});
