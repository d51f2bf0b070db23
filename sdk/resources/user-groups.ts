/** `client.userGroups`: the organization's user groups. */
import { type ListAllOptions, listAllOf } from "../pagination";
import type { CallOptions, RequestPipeline } from "../request-pipeline";
import type { ListUserGroupsQuery, ListUserGroupsResponse, UserGroup } from "../schema";
import type { ListAllQuery } from "./list-all-query";

/** User groups. */
export class UserGroups {
  readonly #pipeline: RequestPipeline;
  constructor(pipeline: RequestPipeline) {
    this.#pipeline = pipeline;
  }

  /** One page of groups: `GET /api/v1/user-groups`. Resolves to `{ total, page, size, user_groups }`. */
  list(query: ListUserGroupsQuery = {}, options: CallOptions = {}): Promise<ListUserGroupsResponse> {
    return this.#pipeline.request("listUserGroups", { query, ...options });
  }

  /** Every group matching the filters. */
  listAll(
    query: ListAllQuery<ListUserGroupsQuery> = {},
    options: ListAllOptions = {},
  ): AsyncGenerator<UserGroup, void, undefined> {
    return listAllOf<UserGroup>(this.#pipeline, "listUserGroups", { query }, options);
  }

  /** One group: `GET /api/v1/user-groups/{id}`. @throws {CustodyNotFoundError} when there is none. */
  get(id: string, options: CallOptions = {}): Promise<UserGroup> {
    return this.#pipeline.request("getUserGroup", { pathParams: { id }, ...options });
  }
}
