// Type test, not a mocha spec (the unit glob is `*.test.js`): the build's `tsc -p tsconfig.json` checks it,
// and each `@ts-expect-error` fails that build if the line below it compiles. It shows that the sdk's query
// types accept what a caller may pass (typed values, one value alone for a list, the URL string form of a
// boolean or a number) and refuse values of another type, which zod's preprocessing would otherwise let
// through as `unknown`.
import type { CustodyClient, ListUsersQuery, ListVaultsQuery } from "../index";

/** Compiles: lists, one value alone, booleans and numbers, and their URL string forms. */
export const accepted: ListVaultsQuery[] = [
  { vault_ids: ["8f0c2a1e-0000-4000-8000-000000000001"], size: 10, page: 1 },
  { vault_ids: "8f0c2a1e-0000-4000-8000-000000000001", size: "10" },
];
export const acceptedUsers: ListUsersQuery = { include_deleted: "true", size: 400 };

// @ts-expect-error a list of ids, not a number
export const numberForIds: ListVaultsQuery = { vault_ids: 5 };

// @ts-expect-error `size` is a number (or its decimal string), not a boolean
export const booleanForSize: ListVaultsQuery = { size: true };

// @ts-expect-error `include_deleted` is a boolean (or "true"/"false"), not any string
export const wordForBoolean: ListUsersQuery = { include_deleted: "yes" };

/** The same checks reach the client's methods. */
export function callsTheClient(client: CustodyClient) {
  // @ts-expect-error a list of ids, not a number
  void client.vaults.list({ vault_ids: 5 });
  void client.vaults.list({ vault_ids: ["8f0c2a1e-0000-4000-8000-000000000001"] });
}
