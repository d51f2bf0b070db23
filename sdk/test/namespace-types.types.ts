// Type test, not a mocha spec (the unit glob is `*.test.js`): `tsc -b test` checks it. The namespaces are built
// from their declarations (`resources/namespaces.ts`) and typed from the endpoint table; each line below fails
// the build unless a method's type is exactly the signature the hand-written classes had.
import type {
  CallOptions,
  CreateTransactionOptions,
  CreateTransactionRequest,
  CreateVaultAddressRequest,
  CreateVaultRequest,
  CustodyClient,
  EnrichedChain,
  Export,
  ExportVaultsQuery,
  GetOwnedAssetQuery,
  GetSuggestedFeesQuery,
  GetSuggestedFeesResponse,
  ListAllOptions,
  ListAllQuery,
  ListBlockchainsQuery,
  ListBlockchainsResponse,
  ListOwnedAssetsQuery,
  ListOwnedAssetsResponse,
  ListUserGroupsQuery,
  ListUserGroupsResponse,
  ListUsersQuery,
  ListUsersResponse,
  ListVaultAddressesQuery,
  ListVaultAddressesResponse,
  ListVaultsQuery,
  ListVaultsResponse,
  OwnedAsset,
  SubmitUpdateVaultChangeProposalRequest,
  TestWebhookRequest,
  Transaction,
  User,
  UserGroup,
  UtxoVaultAddress,
  Vault,
} from "../index";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
type Gen<T> = AsyncGenerator<T, void, undefined>;
type C = CustodyClient;

export type Checks = [
  Expect<
    Equal<
      C["blockchains"]["list"],
      (query?: ListBlockchainsQuery, options?: CallOptions) => Promise<ListBlockchainsResponse>
    >
  >,
  Expect<
    Equal<
      C["blockchains"]["listAll"],
      (query?: ListAllQuery<ListBlockchainsQuery>, options?: ListAllOptions) => Gen<EnrichedChain>
    >
  >,
  Expect<
    Equal<
      C["blockchains"]["suggestedFees"],
      (query?: GetSuggestedFeesQuery, options?: CallOptions) => Promise<GetSuggestedFeesResponse>
    >
  >,
  Expect<
    Equal<C["users"]["list"], (query?: ListUsersQuery, options?: CallOptions) => Promise<ListUsersResponse>>
  >,
  Expect<
    Equal<
      C["users"]["listAll"],
      (query?: ListAllQuery<ListUsersQuery>, options?: ListAllOptions) => Gen<User>
    >
  >,
  Expect<Equal<C["users"]["get"], (id: string, options?: CallOptions) => Promise<User>>>,
  Expect<
    Equal<
      C["userGroups"]["list"],
      (query?: ListUserGroupsQuery, options?: CallOptions) => Promise<ListUserGroupsResponse>
    >
  >,
  Expect<
    Equal<
      C["userGroups"]["listAll"],
      (query?: ListAllQuery<ListUserGroupsQuery>, options?: ListAllOptions) => Gen<UserGroup>
    >
  >,
  Expect<Equal<C["userGroups"]["get"], (id: string, options?: CallOptions) => Promise<UserGroup>>>,
  Expect<
    Equal<
      C["vaults"]["list"],
      (query?: ListVaultsQuery, options?: CallOptions) => Promise<ListVaultsResponse>
    >
  >,
  Expect<
    Equal<
      C["vaults"]["listAll"],
      (query?: ListAllQuery<ListVaultsQuery>, options?: ListAllOptions) => Gen<Vault>
    >
  >,
  Expect<Equal<C["vaults"]["get"], (id: string, options?: CallOptions) => Promise<Vault>>>,
  Expect<Equal<C["vaults"]["create"], (body: CreateVaultRequest, options?: CallOptions) => Promise<Vault>>>,
  Expect<Equal<C["vaults"]["rename"], (id: string, name: string, options?: CallOptions) => Promise<void>>>,
  Expect<Equal<C["vaults"]["archive"], (id: string, options?: CallOptions) => Promise<void>>>,
  Expect<Equal<C["vaults"]["restore"], (id: string, options?: CallOptions) => Promise<void>>>,
  Expect<
    Equal<
      C["vaults"]["submitChangeProposal"],
      (id: string, body: SubmitUpdateVaultChangeProposalRequest, options?: CallOptions) => Promise<void>
    >
  >,
  Expect<
    Equal<
      C["vaults"]["exportBalances"],
      (query?: ExportVaultsQuery, options?: CallOptions) => Promise<Export | undefined>
    >
  >,
  Expect<
    Equal<
      C["vaults"]["assets"]["list"],
      (
        vaultId: string,
        query?: ListOwnedAssetsQuery,
        options?: CallOptions,
      ) => Promise<ListOwnedAssetsResponse>
    >
  >,
  Expect<
    Equal<
      C["vaults"]["assets"]["listAll"],
      (
        vaultId: string,
        query?: ListAllQuery<ListOwnedAssetsQuery>,
        options?: ListAllOptions,
      ) => Gen<OwnedAsset>
    >
  >,
  Expect<
    Equal<
      C["vaults"]["assets"]["get"],
      (
        vaultId: string,
        assetId: string,
        query?: GetOwnedAssetQuery,
        options?: CallOptions,
      ) => Promise<OwnedAsset>
    >
  >,
  Expect<
    Equal<
      C["vaults"]["addresses"]["list"],
      (
        vaultId: string,
        query?: ListVaultAddressesQuery,
        options?: CallOptions,
      ) => Promise<ListVaultAddressesResponse>
    >
  >,
  Expect<
    Equal<
      C["vaults"]["addresses"]["listAll"],
      (
        vaultId: string,
        query?: ListAllQuery<ListVaultAddressesQuery>,
        options?: ListAllOptions,
      ) => Gen<UtxoVaultAddress>
    >
  >,
  Expect<
    Equal<
      C["vaults"]["addresses"]["create"],
      (vaultId: string, body: CreateVaultAddressRequest, options?: CallOptions) => Promise<UtxoVaultAddress>
    >
  >,
  Expect<
    Equal<
      C["vaults"]["addresses"]["rename"],
      (addressId: string, name: string, options?: CallOptions) => Promise<void>
    >
  >,
  Expect<
    Equal<
      C["transactions"]["create"],
      (body: CreateTransactionRequest, options?: CreateTransactionOptions) => Promise<Transaction>
    >
  >,
  Expect<Equal<C["webhooks"]["test"], (body: TestWebhookRequest, options?: CallOptions) => Promise<void>>>,
  Expect<
    Equal<
      C["webhooks"]["triggerTransaction"],
      (transactionId: string, options?: CallOptions) => Promise<void>
    >
  >,
  Expect<
    Equal<C["webhooks"]["triggerAuditLog"], (auditLogId: string, options?: CallOptions) => Promise<void>>
  >,
];

/** The sub-namespaces stay read-only, as the classes declared them. */
export function readOnly(client: CustodyClient, other: CustodyClient): void {
  // @ts-expect-error `vaults.assets` is read-only
  client.vaults.assets = other.vaults.assets;
}
