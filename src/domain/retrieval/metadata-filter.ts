import type { CompoundOperator, MembershipOperator, OrderingOperator, ScalarOperator } from '../../../schemas/filter-operators.ts';

/** A document's metadata value, as uploaded. */
export type MetadataValue = string | number | boolean;
export type Metadata = Readonly<Record<string, MetadataValue>>;

/** OpenAI's vector-store search filter grammar: a comparison, or `and`/`or` over filters, nested. */
export type ComparisonFilter =
  | { type: ScalarOperator; key: string; value: MetadataValue }
  | { type: MembershipOperator; key: string; value: readonly MetadataValue[] };
export type CompoundFilter = { type: CompoundOperator; filters: readonly MetadataFilter[] };
export type MetadataFilter = ComparisonFilter | CompoundFilter;

/** The older syntax (`filter.metadata`): each key must equal the value, or one of the values of a list. */
export type MetadataConditions = Record<string, MetadataValue | MetadataValue[]>;

/**
 * Whether a document's metadata meets the filter. Numbers compare numerically and strings by code
 * unit (so ISO dates order as dates); values of different types are never equal nor ordered, and
 * a boolean is only equal or not. A document without the key meets none of the comparisons but
 * `ne` and `nin`: it is not equal to the value nor in the list (what a user excluding a tag expects).
 */
export function matchesFilter(filter: MetadataFilter, metadata: Metadata): boolean {
  switch (filter.type) {
    case 'and':
      return filter.filters.every((f) => matchesFilter(f, metadata));
    case 'or':
      return filter.filters.some((f) => matchesFilter(f, metadata));
    case 'in':
      return Object.hasOwn(metadata, filter.key) && filter.value.some((v) => v === metadata[filter.key]);
    case 'nin':
      return !Object.hasOwn(metadata, filter.key) || !filter.value.some((v) => v === metadata[filter.key]);
    case 'eq':
      return Object.hasOwn(metadata, filter.key) && metadata[filter.key] === filter.value;
    case 'ne':
      return !Object.hasOwn(metadata, filter.key) || metadata[filter.key] !== filter.value;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return Object.hasOwn(metadata, filter.key) && ordered(filter.type, metadata[filter.key]!, filter.value);
    default:
      return unreachable(filter);
  }
}

function ordered(operator: OrderingOperator, actual: MetadataValue, expected: MetadataValue): boolean {
  const comparable = (typeof actual === 'number' && typeof expected === 'number') || (typeof actual === 'string' && typeof expected === 'string');
  if (!comparable || Number.isNaN(actual)) return false;
  switch (operator) {
    case 'gt':
      return actual > expected;
    case 'gte':
      return actual >= expected;
    case 'lt':
      return actual < expected;
    case 'lte':
      return actual <= expected;
    default:
      return unreachable(operator);
  }
}

/** The older syntax in the grammar: `eq` for a value, `in` for a list, all of them under `and`; none for no conditions. */
export function conditionsAsFilter(conditions: MetadataConditions): MetadataFilter | undefined {
  const filters: ComparisonFilter[] = Object.entries(conditions).map(([key, expected]) =>
    Array.isArray(expected) ? { type: 'in', key, value: expected } : { type: 'eq', key, value: expected },
  );
  if (filters.length === 0) return undefined;
  return filters.length === 1 ? filters[0] : { type: 'and', filters };
}

function unreachable(value: never): never {
  throw new Error(`unknown filter type ${JSON.stringify(value)}`);
}
