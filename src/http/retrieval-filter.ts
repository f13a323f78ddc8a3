import type { RetrievalRequest } from '../app/retrieval/options.ts';
import { conditionsAsFilter } from '../domain/retrieval/metadata-filter.ts';
import type { SearchFilter } from '../../schemas/http/filter.ts';

/** A request's `filter`, either syntax, as retrieval takes it: the older `metadata` equalities become the grammar. */
export function retrievalFilter(filter: SearchFilter | undefined): RetrievalRequest['filter'] {
  if (!filter) return undefined;
  if (!('type' in filter) || filter.type === undefined) {
    const legacy = filter as { document_ids?: string[]; metadata?: Record<string, string | number | boolean | (string | number | boolean)[]> };
    return { documentIds: legacy.document_ids, metadata: legacy.metadata && conditionsAsFilter(legacy.metadata) };
  }
  return { metadata: filter };
}
