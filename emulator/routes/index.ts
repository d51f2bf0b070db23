/** Every `/api/v1` handler, one per entry of the endpoint table. */
import { blockchainHandlers } from "./blockchains";
import { transactionHandlers } from "./transactions";
import type { Handlers } from "./types";
import { userGroupHandlers } from "./user-groups";
import { userHandlers } from "./users";
import { vaultAddressHandlers } from "./vault-addresses";
import { vaultAssetHandlers } from "./vault-assets";
import { vaultHandlers } from "./vaults";
import { webhookHandlers } from "./webhooks";

export const handlers: Handlers = {
  ...blockchainHandlers,
  ...userHandlers,
  ...userGroupHandlers,
  ...vaultHandlers,
  ...vaultAssetHandlers,
  ...vaultAddressHandlers,
  ...transactionHandlers,
  ...webhookHandlers,
};
