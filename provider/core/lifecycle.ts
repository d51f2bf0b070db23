/**
 * The provider methods of a resource, on plain values: what both the dynamic provider and the plugin call, and
 * what a resource's descriptor (./resources.ts) holds. Apart from the descriptors, so that the modules that wrap
 * a lifecycle (./vault/secret-name.ts) need not import the resources they serve.
 */

type Props = Record<string, unknown>;

/** A property that failed `check`, and why. */
export interface ResourceCheckFailure {
  /** The input property, as the program spells it. */
  property: string;
  /** The rule it broke. */
  reason: string;
}

/** The provider methods of a resource, on plain values (what both the dynamic provider and the plugin call). */
export interface ResourceLifecycle {
  /** Validates and normalizes the inputs; runs during previews too. */
  check(olds: Props, news: Props): Promise<{ inputs: Props; failures?: ResourceCheckFailure[] }>;
  /** Compares the outputs (as last seen) with the desired inputs. */
  diff(
    id: string,
    olds: Props,
    news: Props,
  ): Promise<{ changes: boolean; replaces?: string[]; deleteBeforeReplace?: boolean }>;
  /** Creates, restores or adopts the object. */
  create(inputs: Props): Promise<{ id: string; outs: object }>;
  /** Reads the live object; no `id` when it is gone. */
  read(id: string, props: Props): Promise<{ id?: string; props?: object; inputs?: Props }>;
  /** Brings the object to the desired inputs. */
  update(id: string, olds: Props, news: Props): Promise<{ outs: object }>;
  /** Archives (a vault) or forgets (an address). */
  delete(id: string, props: Props): Promise<void>;
}
