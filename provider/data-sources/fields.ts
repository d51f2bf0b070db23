/** Helpers of the data sources' mappers. */
import type { z } from "zod";

/**
 * `record` as the member `schema` of the plain union it was parsed with, when it is that member (the union
 * picks the first member that parses). `EnrichedChain` and `SuggestedFees` end with a member that takes any
 * discriminator, so comparing the discriminator does not narrow them.
 */
export function asMember<S extends z.ZodType>(schema: S, record: unknown): z.output<S> | undefined {
  const parsed = schema.safeParse(record);
  return parsed.success ? parsed.data : undefined;
}
