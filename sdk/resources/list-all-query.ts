/** The filters a `listAll` accepts: those of `list`, without the paging it does itself. */
export type ListAllQuery<Q> = Omit<Q, "page" | "size" | "skip_count">;
