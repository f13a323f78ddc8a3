import { z } from 'zod';
import { CompoundOperator, EqualityOperator, MembershipOperator, OrderingOperator } from '../filter-operators.ts';

const key = z.string().min(1).max(100).describe('A metadata key of the document');
const scalar = z.union([z.string().max(1000), z.number(), z.boolean()]);

const Equality = z.strictObject({
  type: EqualityOperator,
  key,
  value: scalar,
});
const Ordering = z.strictObject({
  type: OrderingOperator,
  key,
  value: z.union([z.string().max(1000), z.number()]).describe('Numbers compare numerically, strings by code unit (ISO dates order as dates)'),
});
const Membership = z.strictObject({
  type: MembershipOperator,
  key,
  value: z.array(scalar).min(1).max(100),
});

/** The wire shapes (readonly-free) of src/domain/retrieval/metadata-filter.ts, which they must stay assignable to. */
export type FilterBody = z.infer<typeof Equality> | z.infer<typeof Ordering> | z.infer<typeof Membership> | CompoundBody;
type CompoundBody = { type: CompoundOperator; filters: FilterBody[] };

const Compound: z.ZodType<CompoundBody> = z.strictObject({
  type: CompoundOperator,
  get filters() {
    return z.array(FilterGrammar).min(1).max(100);
  },
});

/**
 * OpenAI's vector-store search filter grammar over document metadata: a comparison
 * (`eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`, `nin`) or `and`/`or` over filters, nested. A document
 * without the key meets only `ne` and `nin`.
 */
export const FilterGrammar: z.ZodType<FilterBody> = z
  .discriminatedUnion('type', [Equality, Ordering, Membership, Compound as z.ZodType<CompoundBody> & typeof Equality])
  // Named, since it nests itself: OpenAPI describes it once, as a component every filter refers to.
  .meta({ id: 'MetadataFilter' });

/** The deepest a filter may nest: a comparison is one level, each `and`/`or` around it one more. */
export const MAX_FILTER_DEPTH = 8;
/** The most comparisons and `and`/`or` nodes one filter may hold, all levels together: each is checked against every candidate chunk. */
export const MAX_FILTER_NODES = 256;

/**
 * Measures a filter without recursion before its schema recurses into it (zod's recursion
 * overflowed the stack on a filter nested 1,000 deep): too deep is `filter_too_deep`, too many
 * nodes `filter_too_large`, each naming its limit. The walk stops at the first limit crossed; what
 * is not a filter's shape is left to the schema.
 */
function measureFilter(value: unknown, ctx: z.RefinementCtx) {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 1 }];
  let nodes = 0;
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { node, depth } = next;
    if (node === null || typeof node !== 'object') continue;
    if (depth > MAX_FILTER_DEPTH) {
      ctx.addIssue({ code: 'custom', message: `nests deeper than ${MAX_FILTER_DEPTH} levels of and/or, the most a filter may`, params: { code: 'filter_too_deep' } });
      return z.NEVER;
    }
    if (++nodes > MAX_FILTER_NODES) {
      ctx.addIssue({ code: 'custom', message: `holds more than ${MAX_FILTER_NODES} conditions and and/or nodes, the most a filter may`, params: { code: 'filter_too_large' } });
      return z.NEVER;
    }
    const children = (node as { filters?: unknown }).filters;
    if (Array.isArray(children)) for (const child of children) stack.push({ node: child, depth: depth + 1 });
  }
  return value;
}

/** A filter schema that first measures what it is given (measureFilter); described as the schema itself. */
const bounded = <S extends z.ZodType>(schema: S) => z.preprocess(measureFilter, schema);

const FILTER_BOUNDS = `at most ${MAX_FILTER_DEPTH} levels deep and ${MAX_FILTER_NODES} nodes`;

/** FilterGrammar as a request field takes it: measured before it is parsed. */
export const BoundedFilterGrammar = bounded(FilterGrammar).describe(`OpenAI’s filter grammar over document metadata, ${FILTER_BOUNDS}`);

const metadataValue = z.union([z.string(), z.number(), z.boolean()]);

/** The older filter: document ids and metadata equalities (kept working). */
const LegacyFilter = z.strictObject({
  type: z.undefined().optional(),
  document_ids: z.array(z.string().min(1).max(200)).max(1000).optional(),
  /** Each key must equal the value, or one of the values when a list is given. */
  metadata: z.record(z.string().min(1).max(100), z.union([metadataValue, z.array(metadataValue).min(1).max(100)])).optional(),
});

/** Either the grammar (an object with `type`) or the older `{document_ids, metadata}` object. */
export const SearchFilter = bounded(
  z.discriminatedUnion('type', [LegacyFilter, Equality, Ordering, Membership, Compound as z.ZodType<CompoundBody> & typeof Equality]),
).describe(
  `OpenAI’s filter grammar over document metadata (see MetadataFilter; ${FILTER_BOUNDS}), or the older \`{ document_ids, metadata }\` where each metadata key must equal the value or one of a list`,
);
export type SearchFilter = z.output<typeof SearchFilter>;

/**
 * The same two syntaxes for JSON Schema readers that cannot express "no `type` field" (MCP tool
 * schemas); a plain union, so its errors name the filter rather than the branch at fault.
 */
export const SearchFilterUnion = bounded(z.union([LegacyFilter.omit({ type: true }), FilterGrammar])).describe(SearchFilter.description ?? '');

/** At most this many knowledge bases in one request: each is searched, so each costs a search. */
export const MAX_KNOWLEDGE_BASES = 20;

/** `knowledge_base_ids`, the several-knowledge-bases form of `knowledge_base_id`. */
export const KnowledgeBaseIds = z
  .array(z.string().min(1).max(200))
  .min(1)
  .max(MAX_KNOWLEDGE_BASES)
  .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a knowledge base')
  .describe('Several knowledge bases, searched together (results fused by rank, each naming its knowledge_base_id); instead of knowledge_base_id');

/** Naming one knowledge base both ways is ambiguous: the second field is the one at fault. */
export function oneKnowledgeBaseField(body: { knowledge_base_id?: string; knowledge_base_ids?: string[] }, ctx: z.RefinementCtx) {
  if (body.knowledge_base_id !== undefined && body.knowledge_base_ids !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['knowledge_base_ids'], message: 'give knowledge_base_id or knowledge_base_ids, not both' });
  }
}
