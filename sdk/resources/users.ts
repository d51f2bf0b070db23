/** `client.users`: the organization's users. */
import { type ListAllOptions, listAllOf } from "../pagination";
import type { CallOptions, RequestPipeline } from "../request-pipeline";
import type { ListUsersQuery, ListUsersResponse, User } from "../schema";
import type { ListAllQuery } from "./list-all-query";

/** Users: people, API users, API signers and system users (a union on `user_type`). */
export class Users {
  readonly #pipeline: RequestPipeline;
  constructor(pipeline: RequestPipeline) {
    this.#pipeline = pipeline;
  }

  /** One page of users: `GET /api/v1/users` (page size up to 400). Resolves to `{ total, page, size, users }`. */
  list(query: ListUsersQuery = {}, options: CallOptions = {}): Promise<ListUsersResponse> {
    return this.#pipeline.request("listUsers", { query, ...options });
  }

  /** Every user matching the filters, 400 per page. */
  listAll(
    query: ListAllQuery<ListUsersQuery> = {},
    options: ListAllOptions = {},
  ): AsyncGenerator<User, void, undefined> {
    return listAllOf<User>(this.#pipeline, "listUsers", { query }, options);
  }

  /** One user: `GET /api/v1/users/{id}`. @throws {CustodyNotFoundError} when there is none. */
  get(id: string, options: CallOptions = {}): Promise<User> {
    return this.#pipeline.request("getUser", { pathParams: { id }, ...options });
  }
}
