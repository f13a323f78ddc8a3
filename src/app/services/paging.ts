import type { SortOrder } from '../../../schemas/http/common.ts';
import type { FindQuery, ReadModelStore } from '../../ports/read-models.ts';

export type PageRequest = { limit: number; after?: string; order: SortOrder };

export type Page<T> = { object: 'list'; data: T[]; has_more: boolean; first_id: string | null; last_id: string | null };

/**
 * OpenAI's list shape with cursor paging: one extra row tells whether there is more. `visible`
 * drops what the caller may not see before the page is cut, so a page is full and `has_more`
 * true to what the caller could read next, never a short page of someone else's leftovers.
 */
export async function findPage<Doc extends { id: string }, Out = Doc>(
  readModels: ReadModelStore,
  collection: string,
  where: FindQuery['where'],
  page: PageRequest,
  { present = (doc) => doc as unknown as Out, visible }: { present?: (doc: Doc) => Out; visible?: (doc: Doc) => boolean } = {},
): Promise<Page<Out>> {
  const wanted = page.limit + 1;
  // Read ahead when some rows may be hidden, so a page rarely takes more than one query.
  const batch = visible ? Math.max(wanted, 100) : wanted;
  const rows: Doc[] = [];
  let after = page.after;
  for (;;) {
    const found = await readModels.find<Doc>(collection, { where, order: page.order, after, limit: batch });
    for (const doc of found) if (rows.length < wanted && (visible?.(doc) ?? true)) rows.push(doc);
    if (rows.length >= wanted || found.length < batch) break;
    after = found[found.length - 1]!.id;
  }
  const docs = rows.slice(0, page.limit);
  return {
    object: 'list',
    data: docs.map(present),
    has_more: rows.length > page.limit,
    first_id: docs[0]?.id ?? null,
    last_id: docs[docs.length - 1]?.id ?? null,
  };
}
