/**
 * Open enums and open unions: a value or variant that this release does not list is kept as it came, so that
 * the service's next release (a new vault type, a new transaction state) does not break a client built today.
 * The same schemas are closed inside {@link closedWorld}: the emulator plays the service, which knows every
 * value it accepts, and answers 422 for the others.
 */
import { z } from "zod";

let closed = false;
let errorMap: z.core.$ZodErrorMap | undefined;

/**
 * Runs `parse` with enums and unions closed: values and variants this release does not list are issues. The
 * emulator validates requests this way; parsing is synchronous, so nothing else runs in between.
 */
export function closedWorld<T>(parse: () => T): T {
  const before = closed;
  closed = true;
  try {
    return parse();
  } finally {
    closed = before;
  }
}

/**
 * Runs `parse` with `error` as the error map of the variants that open unions validate on their own, so that
 * their messages read like the rest (pass the same map to `safeParse`).
 */
export function withErrorMap<T>(error: z.core.$ZodErrorMap, parse: () => T): T {
  const before = errorMap;
  errorMap = error;
  try {
    return parse();
  } finally {
    errorMap = before;
  }
}

/** Whether a {@link closedWorld} parse is running (compiled validators, which only know the open world, then stand aside). */
export function isClosedWorld(): boolean {
  return closed;
}

/** Validates a nested value on its own, with the error map of the parse it is part of. */
export function parseNested(schema: z.ZodType, value: unknown) {
  return schema.safeParse(value, errorMap ? { error: errorMap } : undefined);
}

/** What an open enum or union refuses although it is open. */
export interface OpenOptions {
  /**
   * Values the service is known to refuse here, though it knows them elsewhere (`exchange` vaults cannot be
   * created): refused by the sdk too, since no later release is expected to accept them.
   */
  refused?: readonly string[];
}

/**
 * A string enum that the service may extend: `values` are the ones this release knows, and autocomplete;
 * any other string is kept (typed `string & {}`), except inside {@link closedWorld}.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  values: T,
  options: OpenOptions = {},
) {
  const known = new Set<string>(values);
  const refused = new Set(options.refused ?? []);
  const schema: z.ZodType = z
    .string()
    .superRefine((value, ctx) => {
      if ((closed && !known.has(value)) || refused.has(value))
        ctx.addIssue({ code: "invalid_value", values: [...values], input: value });
    })
    .meta({ enum: [...values] });
  openEnums.set(schema, { refused: [...refused] });
  // `options` lists the known values, as on a zod enum.
  return Object.assign(schema, { options: values }) as unknown as z.ZodType<
    T[number] | (string & {}),
    string
  > & {
    readonly options: T;
  };
}

/**
 * A variant that this release does not model: its discriminator, the fields that every modelled variant has
 * (`Known`, a union of the modelled variants), and every other field as it came.
 */
export type UnknownVariant<D extends string, Known = object> = Omit<SharedFields<Known>, D> & {
  [K in D]: string & {};
} & { [field: string]: unknown };

/** The named (not index-signature) fields of each variant of `T`. */
type NamedFields<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
/** The fields every variant of the union `T` has. */
type SharedFields<T> = Pick<NamedFields<T>, keyof NamedFields<T>>;

/** What an {@link openEnum} accepts in the open world: any string but the refused ones. */
export interface OpenEnumRule {
  refused: readonly string[];
}

/**
 * What an {@link openUnion} checks in the open world, for validators compiled from the schemas
 * (`schema/compiled-validator.ts`): its superRefine is code that no schema walker could read.
 */
export interface OpenUnionRule {
  discriminator: string;
  /** The variant validated for each known discriminator value. */
  byValue: ReadonlyMap<unknown, z.ZodObject>;
  /** What a value with any other discriminator must satisfy. */
  unknownVariant: z.ZodObject;
  refused: readonly string[];
}

const openEnums = new WeakMap<z.ZodType, OpenEnumRule>();
const openUnions = new WeakMap<z.ZodType, OpenUnionRule & { variants: readonly z.ZodType[] }>();

/** The modelled variants of an open union (`openUnion`), for documents generated from the schemas. */
export function variantsOfOpenUnion(schema: z.ZodType): readonly z.ZodType[] | undefined {
  return openUnions.get(schema)?.variants;
}

/** The rule of `schema` when it is an {@link openEnum}. */
export function openEnumRule(schema: z.ZodType): OpenEnumRule | undefined {
  return openEnums.get(schema);
}

/** The rule of `schema` when it is an {@link openUnion}. */
export function openUnionRule(schema: z.ZodType): OpenUnionRule | undefined {
  return openUnions.get(schema);
}

/**
 * A union on `discriminator` that the service may extend. A known discriminator value is validated against
 * its variant (issues name the variant's fields); an unknown one is kept as it came (an {@link UnknownVariant}),
 * except inside {@link closedWorld}. The value is returned as it came in both cases.
 */
export function openUnion<const D extends string, const V extends readonly [z.ZodObject, ...z.ZodObject[]]>(
  discriminator: D,
  variants: V,
  openOptions: OpenOptions = {},
) {
  const refused = new Set(openOptions.refused ?? []);
  const byValue = new Map<unknown, z.ZodObject>();
  for (const variant of variants) {
    const tag = variant.shape[discriminator] as z.ZodType | undefined;
    const values = (tag as { _zod?: { values?: Set<unknown> } } | undefined)?._zod?.values;
    if (!values) throw new Error(`openUnion: a variant has no literal "${discriminator}"`);
    for (const value of values) byValue.set(value, variant);
  }
  const options = [...byValue.keys()];
  // An unknown variant must still have the fields every modelled variant shares (the same schema in each).
  const [first, ...rest] = variants;
  const shared = Object.fromEntries(
    Object.entries(first.shape).filter(
      ([key, field]) => key !== discriminator && rest.every((v) => v.shape[key] === field),
    ),
  );
  const unknownVariant = z.looseObject({ ...shared, [discriminator]: z.string() });
  const schema = z.looseObject({ [discriminator]: z.string() }).superRefine((value, ctx) => {
    const variant = byValue.get(value[discriminator]);
    if (!variant && (closed || refused.has(value[discriminator]))) {
      // The issue zod's own discriminated union reports, so messages and error types stay as they were.
      ctx.addIssue({
        code: "invalid_union",
        errors: [],
        note: "No matching discriminator",
        discriminator,
        options,
        input: value[discriminator],
        path: [discriminator],
      } as never);
      return;
    }
    const result = parseNested(variant ?? unknownVariant, value);
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue(issue as never);
  });
  openUnions.set(schema, { discriminator, byValue, unknownVariant, refused: [...refused], variants });
  return schema as unknown as z.ZodType<
    z.output<V[number]> | UnknownVariant<D, z.output<V[number]>>,
    z.input<V[number]> | UnknownVariant<D, z.input<V[number]>>
  >;
}

/** A field that holds one value today (`type: "utxo"`), which a later release may add others to. */
export function openLiteral<const T extends string>(value: T) {
  return openEnum([value]);
}
