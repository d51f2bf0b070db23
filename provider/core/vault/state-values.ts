/**
 * The values behind two types of `types.ts`, kept apart so that the `provider-runtime` entry point (which
 * re-exports `types.ts`) gains no values: the plugin's schema (`plugin/schema.ts`) types the `pendingProposal`
 * and `acquisition` outputs from them.
 */
import { z } from "zod";

/**
 * The fields of a `PendingVaultGroupProposal` (`types.ts`), as a zod schema so that the plugin's schema
 * (`plugin/schema.ts`) can type the `pendingProposal` output from it.
 */
export const pendingVaultGroupProposalSchema = z.object({
  addedVaultGroupIds: z.array(z.string()).describe("Groups the proposal adds the vault to."),
  removedVaultGroupIds: z.array(z.string()).describe("Groups the proposal removes the vault from."),
  submittedAt: z.string().describe("When the provider submitted it (ISO-8601)."),
});

/** Every way a resource can come to manage its vault (the plugin's schema declares them as an enum). */
export const VAULT_ACQUISITIONS = ["created", "restored", "adopted"] as const;
