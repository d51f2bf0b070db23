/**
 * What `pulumi preview --json` says, as `custody review` and `custody drift` read it: the planned steps, the
 * diagnostics, and (from the event stream only) the policy results and the preview's outcome. ./preview-input.ts
 * reads either form of the CLI's output into it; ./classify.ts sorts what it plans; ./render.ts writes the
 * Markdown.
 */

/** A resource's state in a preview step (the fields the report reads). */
export interface PreviewState {
  /** The resource's URN. */
  urn?: string;
  /** The resource id (the vault or address id), once it exists. */
  id?: string;
  /** The resource type token. */
  type?: string;
  /** The `protect` resource option (absent when false). */
  protect?: boolean;
  /** The resource's inputs. */
  inputs?: Record<string, unknown>;
  /** The resource's outputs. */
  outputs?: Record<string, unknown>;
}

/** One step of `pulumi preview --json`. */
export interface PreviewStep {
  /** The operation: `create`, `update`, `replace`, `delete`, `same`, `refresh`, … */
  op: string;
  /** The resource's URN. */
  urn: string;
  /** The state before the step. */
  oldState?: PreviewState;
  /** The state after the step. */
  newState?: PreviewState;
  /** Inputs whose change forces the replacement. */
  replaceReasons?: string[];
}

/** A diagnostic of `pulumi preview --json`. */
export interface PreviewDiagnostic {
  /** The message, as the CLI prints it. */
  message: string;
  /** `error`, `warning`, `info`, … */
  severity: string;
  /** The resource it is about, when it is about one. */
  urn?: string;
}

/** A policy violation of `pulumi preview --policy-pack` (from the engine's event stream). */
export interface PolicyViolation {
  /** The policy, e.g. `custody-vault-protected`. */
  policyName: string;
  /** The policy pack, e.g. `pulumi-custody`. */
  policyPackName: string;
  /** The policy pack's version. */
  policyPackVersion: string;
  /** `mandatory` (the change cannot be applied), `advisory`, … */
  enforcementLevel: string;
  /** The policy's message. */
  message: string;
  /** The resource it is about; the stack's URN, or none, for a violation of the whole stack. */
  urn?: string;
}

/**
 * How the report names a policy pack: `name@version`, the name and the version as the engine's events give them
 * (`policyPackName`, `policyPackVersion`), with no `v` added, in the line that says which packs ran and on each
 * violation alike.
 */
export function policyPackLabel(name: string | undefined, version: string | undefined): string | undefined {
  if (!name) return undefined;
  return version ? `${name}@${version}` : name;
}

/** What the event stream says about policy packs (the digest says nothing). */
export interface PreviewPolicy {
  /** Whether a policy pack was loaded for the preview. */
  loaded: boolean;
  /** Whether a pack judged anything (a summary of what passed and failed, or a violation). */
  analyzed: boolean;
  /** The packs that ran, as `name@version`. */
  packs: string[];
}

/** What `pulumi preview --json` prints (the fields the report reads). */
export interface PreviewJson {
  /** The planned steps. */
  steps?: PreviewStep[];
  /** Warnings and errors. */
  diagnostics?: PreviewDiagnostic[];
  /**
   * Policy violations. Only the event stream has them (see `parsePreview`); the digest of
   * `pulumi preview --json` leaves policy events out.
   */
  policyViolations?: PolicyViolation[];
  /** Which form it was read from: the event stream, or the digest (the default; it cannot hold policy results). */
  form?: "events" | "digest";
  /** The policy packs of the preview (event stream only). */
  policy?: PreviewPolicy;
  /** The preview's outcome (`succeeded`, `failed`; event stream only: the digest has its errors instead). */
  result?: string;
}
