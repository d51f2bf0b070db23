/**
 * Vault endpoints (docs/api-notes.md, "Vaults").
 *
 * Decisions where the API is silent (README "Behaviour"):
 * - names are unique among all vaults, archived ones included: an archived vault keeps its name reserved,
 *   which is what lets a restore never conflict; `GET /vaults?names=` finds archived vaults too;
 * - archive and restore are idempotent (204 again); an unknown id there is a 400 `vault_not_found`,
 *   because the API lists no 404 for these two endpoints;
 * - an unknown `vault_group_id` (create) or group id in a proposal is a 404 `resource: "vault_group"`;
 * - a new change proposal supersedes the vault's pending one;
 * - names of vaults and addresses follow the sdk's one rule of names for a name the service holds
 *   (`nameRuleViolations(name, "held")`: the provider's rules with a higher byte limit, docs/api-notes.md
 *   "Names"), so every name the emulator holds can be looked up by name; a broken rule is a 422 at `body.name`.
 */
import { type CreateVaultRequest, nameRuleViolations } from "@pulumi-custody/sdk/schema";
import { invalidField, notFound, preconditionFailed, validationFailed } from "../api-error";
import { findAsset } from "../seed/assets";
import { buildVault } from "../seed/vault-factory";
import { hasFilters, inDefaultOrder, matches, sortItems } from "../state/list-query";
import type { VaultRecord } from "../state/types";
import { listResult } from "./list-result";
import type { HandlerContext, Handlers } from "./types";

/** The most vaults an organization may hold (`max_vaults_reached`). */
export const MAX_VAULTS = 200_000;

/** Refuses a vault or address name that breaks a rule of names: a 422 with one issue per rule at `body.name`. */
export function requireValidName(name: string): void {
  const violations = nameRuleViolations(name, "held");
  if (violations.length === 0) return;
  throw validationFailed(
    violations.map(({ rule, reason }) => ({
      loc: ["body", "name"],
      msg: reason,
      type: rule === "length" ? "string_too_long" : "value_error",
    })),
  );
}

/** The vault of a path id, or the 404 `ResourceError`. */
export function requireVault(ctx: HandlerContext, id: string): VaultRecord {
  const vault = ctx.emulator.store.vaults.get(id);
  if (!vault) throw notFound("vault", id);
  return vault;
}

function requireVaultGroup(ctx: HandlerContext, id: string): void {
  if (!ctx.emulator.store.vaultGroups.has(id)) throw notFound("vault_group", id);
}

/** Archive and restore list no 404: a missing vault is a precondition failure. */
function requireVaultForStateChange(ctx: HandlerContext, id: string): VaultRecord {
  const vault = ctx.emulator.store.vaults.get(id);
  if (!vault) throw preconditionFailed("Vault not found", `Vault ${id} not found`, "vault_not_found");
  return vault;
}

function isBase64Key(value: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const length = Buffer.from(value, "base64").length;
  return length === 32 || length === 33;
}

export const vaultHandlers: Pick<
  Handlers,
  | "listVaults"
  | "createVault"
  | "exportVaultBalances"
  | "getVault"
  | "submitVaultChangeProposal"
  | "archiveVault"
  | "restoreVault"
  | "renameVault"
> = {
  listVaults(ctx) {
    const { store, views } = ctx.emulator;
    const q = ctx.query;
    const pendingAdds = new Map<string, string[]>();
    if (q.vault_group_ids) {
      for (const p of store.proposals.values()) {
        if (p.state === "pending") pendingAdds.set(p.vault_id, p.added_vault_group_ids);
      }
    }
    const accountAddresses = q.account_addresses?.map((a) => a.toLowerCase());
    const all = inDefaultOrder(store.vaults);
    const filtered = !hasFilters(q, ["positive_native_balance_chain_ids"])
      ? all
      : all.filter(
          (v) =>
            matches(q.vault_ids, v.id) &&
            matches(q.names, v.name) &&
            matches(q.vault_types, v.type) &&
            matches(q.vault_states, v.state) &&
            (!q.key_holder_ids ||
              (v.key_holder !== undefined && q.key_holder_ids.includes(v.key_holder.id))) &&
            (!q.vault_group_ids ||
              [...v.vault_group_ids, ...(pendingAdds.get(v.id) ?? [])].some((g) =>
                q.vault_group_ids!.includes(g),
              )) &&
            (!q.exclude_vault_group_ids ||
              !v.vault_group_ids.some((g) => q.exclude_vault_group_ids!.includes(g))) &&
            !q.exclude_vault_ids?.includes(v.id) &&
            (!q.origin_type || (v.key !== undefined && v.origin_type === q.origin_type)) &&
            (!accountAddresses ||
              v.account_addresses.some((a) => accountAddresses.includes(a.toLowerCase()))),
        );
    const sorted = q.sort_by
      ? sortItems(filtered, q.sort_by, {
          created_at: (v) => v.created_at,
          name: (v) => v.name,
          vault_type: (v) => v.type,
          is_favorite: (v) => v.is_favorite,
        })
      : filtered;
    return listResult("vaults", sorted, q, (v) => views.vault(v, q.positive_native_balance_chain_ids));
  },

  createVault(ctx) {
    const { store, views } = ctx.emulator;
    const body = ctx.body as unknown as CreateVaultRequest;
    requireValidName(body.name);
    const groupId = body.vault_group_id ?? store.defaultVaultGroupId;
    requireVaultGroup(ctx, groupId);
    // Validated in the closed world: the origin is one the emulator models.
    const imported = body.import_options as { origin: string; public_key_compressed?: string } | undefined;
    if (imported?.origin === "external_signer" && !isBase64Key(imported.public_key_compressed ?? "")) {
      throw invalidField(
        ["body", "import_options", "public_key_compressed"],
        "must be a base64 public key of 32 (EdDSA) or 33 (compressed ECDSA) bytes",
      );
    }
    if (store.vaults.size >= MAX_VAULTS) {
      throw preconditionFailed(
        "Maximum number of vaults reached",
        `The organization already has ${MAX_VAULTS} vaults`,
        "max_vaults_reached",
      );
    }
    // Checked before anything is built, in the same synchronous step as the insert (no lost race).
    store.assertVaultNameFree(body.name);
    const { vault, defaultAddress } = buildVault(store, {
      name: body.name,
      type: body.type,
      createdBy: ctx.principal.userId,
      vaultGroupIds: [groupId],
      chain: body.chain,
      keyType: body.key_type,
      address: body.address,
      endUserId: body.end_user_id,
      importOptions: imported as { origin: string } | undefined,
    });
    store.insertVault(vault);
    if (defaultAddress) store.insertAddress(defaultAddress);
    store.audit("vault_created", ctx.principal.userId, "vault", vault.id, {
      name: vault.name,
      type: vault.type,
    });
    return { status: 201, body: views.vault(vault) };
  },

  exportVaultBalances(ctx) {
    const { store, exports } = ctx.emulator;
    const q = ctx.query;
    const rows: string[][] = [];
    for (const vault of store.vaults.values()) {
      if (!matches(q.vaults_ids, vault.id) || !matches(q.vault_types, vault.type)) continue;
      for (const owned of store.ownedAssetsOf(vault.id)) {
        const asset = findAsset(owned.asset_id)!;
        const b = owned.balances;
        const value =
          asset.priceUsd !== undefined
            ? ((Number(b.total_mined) / 10 ** asset.info.decimals) * Number(asset.priceUsd)).toFixed(2)
            : "";
        rows.push([
          vault.id,
          vault.name,
          vault.type,
          vault.state,
          asset.info.id,
          asset.info.symbol,
          asset.info.name,
          asset.chainUniqueId,
          String(asset.info.decimals),
          b.total_mined,
          b.available_mined,
          b.frozen_mined,
          b.total_pending_incoming,
          asset.priceUsd ?? "",
          value,
        ]);
      }
    }
    // A negative limit (the published schema sets no bound) exports nothing.
    const limited = q.limit === undefined ? rows : rows.slice(0, Math.max(0, q.limit));
    if (limited.length === 0) return { status: 204 };
    const header = [
      "vault_id",
      "vault_name",
      "vault_type",
      "vault_state",
      "asset_id",
      "asset_symbol",
      "asset_name",
      "chain",
      "decimals",
      "total_mined",
      "available_mined",
      "frozen_mined",
      "total_pending_incoming",
      "price_usd",
      "value_usd",
    ];
    const csv = [header, ...limited].map((r) => r.map(csvField).join(",")).join("\r\n") + "\r\n";
    // Not from the data seed's counter: the id is part of the download link (emulator/exports.ts).
    const ticket = exports.ticket();
    const record = {
      id: ticket.id,
      creation_time: store.now(),
      type: "csv",
      state: "ready",
      organization_id: store.organizationId,
      user_id: ctx.principal.userId,
      resource_type: "vault",
      successful_items_count: limited.length,
      failed_items_count: 0,
      total_items_count: limited.length,
      request_id: ctx.requestId,
      download_url: `${ctx.baseUrl}${ticket.downloadPath}`,
      expiration_time: new Date(ticket.expiresAtMs).toISOString().replace(/Z$/, "000Z"),
    };
    exports.add(ticket, csv);
    return { status: 200, body: record };
  },

  getVault(ctx) {
    return { status: 200, body: ctx.emulator.views.vault(requireVault(ctx, ctx.params.id)) };
  },

  submitVaultChangeProposal(ctx) {
    const { store } = ctx.emulator;
    const vault = requireVault(ctx, ctx.params.id);
    const added = [...new Set(ctx.body.diff.added_vault_group_ids ?? [])];
    const removed = [...new Set(ctx.body.diff.removed_vault_group_ids ?? [])];
    if (added.length === 0 && removed.length === 0) {
      throw invalidField(["body", "diff"], "must add or remove at least one vault group");
    }
    for (const id of [...added, ...removed]) requireVaultGroup(ctx, id);
    const both = added.filter((id) => removed.includes(id));
    if (both.length > 0) {
      throw invalidField(["body", "diff"], `vault group ${both[0]} is both added and removed`);
    }
    const result = [...vault.vault_group_ids.filter((g) => !removed.includes(g)), ...added];
    if (result.length === 0) {
      throw preconditionFailed("Invalid proposal", "A vault must stay in at least one vault group");
    }
    const proposal = {
      id: store.nextId(),
      vault_id: vault.id,
      state: "pending" as const,
      created_at: store.now(),
      created_by: ctx.principal.userId,
      added_vault_group_ids: added,
      removed_vault_group_ids: removed,
    };
    store.insertProposal(proposal);
    store.audit("vault_change_proposal_submitted", ctx.principal.userId, "vault", vault.id, {
      proposal_id: proposal.id,
      added_vault_group_ids: added,
      removed_vault_group_ids: removed,
    });
    return { status: 204 };
  },

  archiveVault(ctx) {
    const { store } = ctx.emulator;
    const vault = requireVaultForStateChange(ctx, ctx.params.id);
    if (store.setVaultState(vault, "archived"))
      store.audit("vault_archived", ctx.principal.userId, "vault", vault.id);
    return { status: 204 };
  },

  restoreVault(ctx) {
    const { store } = ctx.emulator;
    const vault = requireVaultForStateChange(ctx, ctx.params.id);
    if (store.setVaultState(vault, "active"))
      store.audit("vault_restored", ctx.principal.userId, "vault", vault.id);
    return { status: 204 };
  },

  renameVault(ctx) {
    const { store } = ctx.emulator;
    requireValidName(ctx.body.name);
    const vault = requireVault(ctx, ctx.params.id);
    const old = vault.name;
    if (store.renameVault(vault, ctx.body.name)) {
      store.audit("vault_renamed", ctx.principal.userId, "vault", vault.id, {
        old_name: old,
        new_name: vault.name,
      });
    }
    return { status: 204 };
  },
};

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
