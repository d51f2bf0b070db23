/** `client.blockchains`: the chain catalogue and suggested fees. */
import { type ListAllOptions, listAllOf } from "../pagination";
import type { CallOptions, RequestPipeline } from "../request-pipeline";
import type {
  EnrichedChain,
  GetSuggestedFeesQuery,
  GetSuggestedFeesResponse,
  ListBlockchainsQuery,
  ListBlockchainsResponse,
} from "../schema";
import type { ListAllQuery } from "./list-all-query";

/** Blockchains supported by the organization. */
export class Blockchains {
  readonly #pipeline: RequestPipeline;
  constructor(pipeline: RequestPipeline) {
    this.#pipeline = pipeline;
  }

  /** One page of chains: `GET /api/v1/blockchains`. Resolves to the envelope `{ total, page, size, chains }`. */
  list(query: ListBlockchainsQuery = {}, options: CallOptions = {}): Promise<ListBlockchainsResponse> {
    return this.#pipeline.request("listBlockchains", { query, ...options });
  }

  /** Every chain matching the filters, paging with the largest page size. */
  listAll(
    query: ListAllQuery<ListBlockchainsQuery> = {},
    options: ListAllOptions = {},
  ): AsyncGenerator<EnrichedChain, void, undefined> {
    return listAllOf<EnrichedChain>(this.#pipeline, "listBlockchains", { query }, options);
  }

  /** Suggested network fees: `GET /api/v1/blockchains/suggested-fees`. */
  suggestedFees(
    query: GetSuggestedFeesQuery = {},
    options: CallOptions = {},
  ): Promise<GetSuggestedFeesResponse> {
    return this.#pipeline.request("getSuggestedFees", { query, ...options });
  }
}
