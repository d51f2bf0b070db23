/**
 * The methods of the `custody` provider plugin, on plain values: the gRPC server (`server.ts`) decodes each
 * request, calls one of these, and encodes the answer. Every resource method delegates to the same runtime as
 * the dynamic provider (`provider/runtime`): there is one implementation of check, diff, create, read, update
 * and delete.
 */
import {
  CUSTODY_RESOURCES,
  checkSetting,
  configure as configureCore,
  custodyResourceKind,
  declarableImportInputs,
  maskNotices,
  PartialCreateError,
  printsAsIs,
  type ResourceLifecycle,
  SETTINGS,
  shownValue,
  VAULT_NAME_IS_SECRET,
} from "pulumi-custody/core";
import {
  maskSecrets,
  protect,
  secretsOf,
  type Unwrapped,
  unwrap,
  withSecretsMasked as withErrorsMasked,
} from "./properties";
import { PACKAGE, VAULT_ADDRESS_TOKEN } from "./tokens";

/** The method table: each resource's lifecycle under its plugin token, from the resources' descriptors. */
const RESOURCES: Record<string, ResourceLifecycle> = Object.fromEntries(
  CUSTODY_RESOURCES.map((resource) => [resource.pluginType, resource.lifecycle]),
);

/**
 * Every secret string this provider process was given. A notice (a warning on a resource's row) may quote a
 * vault's name, and notices are shown by the runtime while any call may run, so each is masked with all of them.
 */
const secretsSeen: Pick<Unwrapped, "secretStrings"> = { secretStrings: new Set<string>() };
maskNotices((message) => maskSecrets(message, secretsSeen));

/** Runs one resource method with its secrets masked in its errors and in every notice from now on. */
function withSecretsMasked<T>(
  secrets: Pick<Unwrapped, "secretStrings">,
  operation: () => Promise<T>,
): Promise<T> {
  for (const value of secrets.secretStrings) secretsSeen.secretStrings.add(value);
  return withErrorsMasked(secrets, operation);
}

/** A property that failed validation, and why. */
export interface Failure {
  /** The property, as the program spells it. */
  property: string;
  /** The rule it broke. */
  reason: string;
}

/** What `diff` answers. */
export interface DiffAnswer {
  /** Whether anything must change. */
  changes: boolean;
  /** Properties whose change forces a replacement. */
  replaces: string[];
  /** Delete the old object before creating its replacement. */
  deleteBeforeReplace: boolean;
}

function methodsOf(type: string): ResourceLifecycle {
  const methods = RESOURCES[type];
  if (!methods) {
    throw new Error(
      `unknown resource type ${type}: the ${PACKAGE} provider has ${Object.keys(RESOURCES).join(" and ")}`,
    );
  }
  return methods;
}

/** The keys of the provider configuration: `custody:baseUrl` is `baseUrl` here. */
export const CONFIG_KEYS = Object.keys(SETTINGS) as (keyof typeof SETTINGS)[];

/** The provider configuration as the runtime reads it (`custody:baseUrl` → value), without `version`. */
function configMap(values: Record<string, unknown>): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === "version" || value === undefined || value === null) continue;
    // Stack config holds strings; a typed provider input may be a number.
    map[`${PACKAGE}:${key}`] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return map;
}

/**
 * Validates the provider configuration. A key the provider does not know is refused (a misspelt
 * `custody:baseURL` would otherwise leave `baseUrl` to the environment without a word); a malformed value is
 * refused with the rule it breaks. A missing `baseUrl` or `accessToken` is not a failure here, since the
 * environment may supply it: the first API call says what is missing.
 */
export function checkConfig(news: Record<string, unknown>): {
  inputs: Record<string, unknown>;
  failures: Failure[];
} {
  const { values } = unwrap(news);
  const failures: Failure[] = [];
  for (const key of Object.keys(values)) {
    if (key !== "version" && !(CONFIG_KEYS as string[]).includes(key)) {
      failures.push({
        property: key,
        reason: `is not a setting of the ${PACKAGE} provider (settings: ${CONFIG_KEYS.map((k) => `${PACKAGE}:${k}`).join(", ")})`,
      });
    }
  }
  for (const key of CONFIG_KEYS) {
    const problem = checkSetting(key, values[key]);
    if (problem) failures.push({ property: key, reason: problem });
  }
  return { inputs: news, failures: failures.map((f) => engineSafeConfigFailure(f, values[f.property])) };
}

/**
 * A configuration failure as the engine is to get it. With a property, the engine prints the value itself beside
 * the reason, raw and whole: the token never (it may be set without --secret), and no value it cannot print
 * safely (a line break that would forge a line of the output, a bidi override, a value too long). Those are
 * reported without a property; the reason names the setting (`Invalid setting custody:baseUrl: …`).
 */
function engineSafeConfigFailure(failure: Failure, value: unknown): Failure {
  const { property, reason } = failure;
  if (!printsAsIs(property)) {
    return { property: "", reason: `${shownValue(`${PACKAGE}:${property}`)} ${reason}` };
  }
  if (property === "accessToken" || !printsAsIs(value)) {
    return {
      property: "",
      reason: reason.startsWith("Invalid setting") ? reason : `${PACKAGE}:${property} ${reason}`,
    };
  }
  return failure;
}

/** Whether the configuration changed (a change never replaces the provider: resources stay as they are). */
export function diffConfig(olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
  const before = configMap(unwrap(olds).values);
  const after = configMap(unwrap(news).values);
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]).map((k) => k.slice(PACKAGE.length + 1));
}

/** Hands the provider configuration to the runtime; environment variables fill what it leaves out. */
export function configure(args: Record<string, unknown>): void {
  configureCore(configMap(unwrap(args).values));
}

/** `check`: normalized inputs, or failures naming the property and the rule. */
export async function check(
  type: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<{ inputs: Record<string, unknown>; failures: Failure[] }> {
  return checkWith(methodsOf(type), olds, news);
}

/**
 * `check` of any resource's methods on the engine's wire values: secrets unwrapped for the runtime, kept out of
 * its failures, and wrapped again in what it returns.
 */
export async function checkWith(
  methods: Pick<ResourceLifecycle, "check">,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<{ inputs: Record<string, unknown>; failures: Failure[] }> {
  const before = unwrap(olds);
  const after = unwrap(news);
  const secrets = secretsOf(before, after);
  const result = await withSecretsMasked(secrets, () => methods.check(before.values, after.values));
  const failures = (result.failures ?? []).map((f) => ({ ...f, reason: maskSecrets(f.reason, secrets) }));
  return { inputs: protect(result.inputs, secretsOf(after)), failures };
}

/** `diff`: compares the state (outputs) with the new inputs. */
export async function diff(
  type: string,
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<DiffAnswer> {
  // A secret name: the runtime's notices then write `[secret]` for the name and the forms derived from it
  // (`<name> (archived …)`), which masking the message afterwards finds only for names of four characters or more.
  const flagSecretName = custodyResourceKind(type) === "Vault";
  return diffWith(methodsOf(type), id, olds, news, { flagSecretName });
}

/**
 * `diff` of any resource's methods on the engine's wire values. With `flagSecretName`, a name that either side
 * holds as a secret is flagged to the runtime (`VAULT_NAME_IS_SECRET` of pulumi-custody/core).
 */
export async function diffWith(
  methods: Pick<ResourceLifecycle, "diff">,
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  options: { flagSecretName?: boolean } = {},
): Promise<DiffAnswer> {
  const before = unwrap(olds);
  const after = unwrap(news);
  const flag =
    options.flagSecretName && (before.secretKeys.has("name") || after.secretKeys.has("name"))
      ? { [VAULT_NAME_IS_SECRET]: true }
      : {};
  const result = await withSecretsMasked(secretsOf(before, after), () =>
    methods.diff(id, { ...before.values, ...flag }, { ...after.values, ...flag }),
  );
  return {
    changes: result.changes,
    replaces: result.replaces ?? [],
    deleteBeforeReplace: result.deleteBeforeReplace === true,
  };
}

/** `create`: the new object's id and outputs, secret where the inputs were. */
export async function create(
  type: string,
  inputs: Record<string, unknown>,
): Promise<{ id: string; outputs: Record<string, unknown> }> {
  const plain = unwrap(inputs);
  try {
    const { id, outs } = await withSecretsMasked(plain, () => methodsOf(type).create(plain.values));
    return { id, outputs: protect({ ...outs }, secretsOf(plain)) };
  } catch (err) {
    // A partial create keeps its id in state; its outputs are protected like any others.
    if (err instanceof PartialCreateError) {
      (err as { properties: Record<string, unknown> }).properties = protect(err.properties, secretsOf(plain));
    }
    throw err;
  }
}

/**
 * The import id of a `VaultAddress`: `<vault id>/<address id>`. The API has no read of an address by id alone
 * (see the address lifecycle of `pulumi-custody/core`), so an import names the vault as well.
 */
function addressImportId(id: string): { vaultId: string; addressId: string } {
  const match = /^([^/]+)\/([^/]+)$/.exec(id);
  if (!match) {
    throw new Error(
      `cannot import vault address "${id}": the import id of a ${VAULT_ADDRESS_TOKEN} must be ` +
        "<vault id>/<address id>, because the custody API finds an address only within its vault",
    );
  }
  return { vaultId: match[1], addressId: match[2] };
}

/**
 * `read`: the live object, for refresh and import. An import sends the id alone, without inputs or state:
 * the object is then read as adopted (the resource did not create it), and its live inputs are returned so
 * that the engine can record them (it refuses an import without them).
 */
export async function read(
  type: string,
  id: string,
  properties: Record<string, unknown>,
  inputs: Record<string, unknown>,
): Promise<{ id?: string; outputs?: Record<string, unknown>; inputs?: Record<string, unknown> }> {
  const state = unwrap(properties);
  const declared = unwrap(inputs);
  const importing = Object.keys(state.values).length === 0;
  let readId = id;
  let props = state.values;
  if (importing && type === VAULT_ADDRESS_TOKEN) {
    const { vaultId, addressId } = addressImportId(id);
    readId = addressId;
    props = { vaultId, acquisition: "adopted" };
  } else if (importing) {
    props = { acquisition: "adopted" };
  }
  const result = await withSecretsMasked(secretsOf(state, declared), () =>
    methodsOf(type).read(readId, props),
  );
  if (!result.id) return {};
  let outputs: Record<string, unknown> = { ...(result.props ?? {}) };
  // The inputs an import records must pass `check`, or the code generated from them would not run: a safe or
  // exchange vault is declared with `adoptExisting: true` (which its outputs keep too).
  const liveInputs =
    importing && result.inputs
      ? declarableImportInputs(custodyResourceKind(type) ?? "Vault", result.inputs, outputs)
      : result.inputs;
  if (importing && liveInputs?.adoptExisting === true) outputs = { ...outputs, adoptExisting: true };
  const secrets = secretsOf(state, declared);
  return {
    id: result.id,
    outputs: protect(outputs, secrets),
    inputs: liveInputs ? protect(liveInputs, secrets) : undefined,
  };
}

/** `update`: every output, read back. */
export async function update(
  type: string,
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const before: Unwrapped = unwrap(olds);
  const after = unwrap(news);
  const { outs } = await withSecretsMasked(secretsOf(before, after), () =>
    methodsOf(type).update(id, before.values, after.values),
  );
  return protect({ ...outs }, secretsOf(before, after));
}

/** `delete`: archives a vault; forgets an address (the API cannot delete either). */
export async function remove(type: string, id: string, properties: Record<string, unknown>): Promise<void> {
  const state = unwrap(properties);
  await withSecretsMasked(state, () => methodsOf(type).delete(id, state.values));
}
