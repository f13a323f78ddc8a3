import { z } from 'zod';

/**
 * The operators of OpenAI's vector-store filter grammar over document metadata: the HTTP schemas
 * (schemas/http/filter.ts) accept them and the domain's matcher (src/domain/retrieval/metadata-filter.ts)
 * applies them.
 */
export const EqualityOperator = z.enum(['eq', 'ne']);
export const OrderingOperator = z.enum(['gt', 'gte', 'lt', 'lte']);
export type OrderingOperator = z.infer<typeof OrderingOperator>;
export const MembershipOperator = z.enum(['in', 'nin']);
export type MembershipOperator = z.infer<typeof MembershipOperator>;
export const CompoundOperator = z.enum(['and', 'or']);
export type CompoundOperator = z.infer<typeof CompoundOperator>;

/** The operators that compare a key with one value. */
export type ScalarOperator = z.infer<typeof EqualityOperator> | OrderingOperator;
