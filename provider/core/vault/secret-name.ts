/**
 * A vault whose name is a secret (`name: pulumi.secret("…")`, or a secret config value) on the dynamic
 * provider. Pulumi's dynamic-provider host tells the engine it does not accept secrets, so the engine strips
 * the secret markers and the provider receives the name as a plain string (docs/provider.md, "Secrets"). The
 * `Vault` class therefore tells the provider itself: it adds the internal input {@link VAULT_NAME_IS_SECRET}
 * (only when the name is secret), which `check` keeps, `diff` ignores, and the outputs carry, so that `delete`
 * (which sees only the state) knows it too. Every notice and error about such a vault shows
 * {@link SECRET_MASK} where the name would be.
 *
 * The provider plugin needs none of this: it accepts secrets and masks them itself.
 */
import { maskNotices } from "../host/notices";
import { maskStrings, SECRET_MASK, withErrorsMasked } from "../host/secret-masking";
import type { ResourceLifecycle } from "../lifecycle";
import { PartialCreateError } from "../partial-create-error";

/**
 * The internal input (and output) that says the vault's name is secret. `__`-prefixed: the engine treats such
 * properties as internal and leaves them out of what it displays; it is not part of the declared inputs, so the
 * plugin's schema does not have it.
 */
export const VAULT_NAME_IS_SECRET = "__nameIsSecret";

/** Whether any of these inputs or states says that the vault's name is secret. */
export function nameIsSecret(...props: readonly Record<string, unknown>[]): boolean {
  return props.some((p) => p[VAULT_NAME_IS_SECRET] === true);
}

/** The flag as inputs or outputs carry it: present only when the name is secret. */
export function nameSecrecy(secret: boolean): Record<string, true> {
  return secret ? { [VAULT_NAME_IS_SECRET]: true } : {};
}

/** The name to print for a vault: itself, or {@link SECRET_MASK} when it is secret. */
export function shownName(name: string, secret: boolean): string {
  return secret ? SECRET_MASK : name;
}

/**
 * Every secret name this process was given. Notices are shown while other calls run, and one may quote another
 * vault's name (a replace restores an archived vault), so each notice is masked with all of them.
 */
const secretNamesSeen = new Set<string>();
let masking = false;

/**
 * Runs one method of a vault: when `props` (its inputs or state) say the name is secret, its `name` values are
 * masked in every notice from now on and in the error the method throws (message, stack and, for a partial
 * create, its reasons).
 */
export async function withSecretNameMasked<T>(
  props: readonly Record<string, unknown>[],
  operation: () => Promise<T>,
): Promise<T> {
  if (!nameIsSecret(...props)) return operation();
  const names = props.map((p) => p.name).filter((n): n is string => typeof n === "string");
  for (const name of names) secretNamesSeen.add(name);
  if (!masking) {
    masking = true;
    maskNotices((message) => maskStrings(message, secretNamesSeen));
  }
  return withErrorsMasked((text) => maskStrings(text, names), operation);
}

/** `outs` with the flag of `from` (its inputs or state) added when the name is secret. */
function carried<T extends object | undefined>(outs: T, from: Record<string, unknown>): T {
  if (outs === undefined || !nameIsSecret(from)) return outs;
  return { ...outs, [VAULT_NAME_IS_SECRET]: true };
}

/**
 * The vault's provider methods with a secret name kept out of their notices and errors, and the flag carried
 * from the inputs into the outputs (the state), so that `delete` and the next `diff` see it. `read` carries it
 * from the state into both. A partial create carries it too.
 */
export function withSecretNames(lifecycle: ResourceLifecycle): ResourceLifecycle {
  return {
    check: async (olds, news) => {
      const result = await withSecretNameMasked([news], () => lifecycle.check(olds, news));
      if (!result.failures?.length || !nameIsSecret(news)) return result;
      const names = typeof news.name === "string" ? [news.name] : [];
      return {
        ...result,
        failures: result.failures.map((f) => ({ ...f, reason: maskStrings(f.reason, names) })),
      };
    },
    diff: (id, olds, news) => withSecretNameMasked([olds, news], () => lifecycle.diff(id, olds, news)),
    create: (inputs) =>
      withSecretNameMasked([inputs], async () => {
        try {
          const { id, outs } = await lifecycle.create(inputs);
          return { id, outs: carried(outs, inputs) };
        } catch (err) {
          if (err instanceof PartialCreateError) Object.assign(err.properties, carried({}, inputs));
          throw err;
        }
      }),
    read: (id, props) =>
      withSecretNameMasked([props], async () => {
        const result = await lifecycle.read(id, props);
        if (!nameIsSecret(props) || result.id === undefined) return result;
        return { ...result, props: carried(result.props, props), inputs: carried(result.inputs, props) };
      }),
    update: (id, olds, news) =>
      withSecretNameMasked([olds, news], async () => {
        const { outs } = await lifecycle.update(id, olds, news);
        return { outs: carried(outs, news) };
      }),
    delete: (id, props) => withSecretNameMasked([props], () => lifecycle.delete(id, props)),
  };
}
