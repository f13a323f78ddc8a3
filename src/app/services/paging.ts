import type { FindQuery, ReadModelStore } from '../../ports/read-models.ts';

export type PageRequest = { limit: number; after?: string; order: 'asc' | 'desc' };

export type Page<T> = { object: 'list'; data: T[]; has_more: boolean; first_id: string | null; last_id: string | null };

/** OpenAI's list shape with cursor paging: one extra row tells whether there is more. */
export async function findPage<Doc extends { id: string }, Out = Doc>(
  readModels: ReadModelStore,
  collection: string,
  where: FindQuery['where'],
  page: PageRequest,
  present: (doc: Doc) => Out = (doc) => doc as unknown as Out,
): Promise<Page<Out>> {
  const rows = await readModels.find<Doc>(collection, { where, order: page.order, after: page.after, limit: page.limit + 1 });
  const docs = rows.slice(0, page.limit);
  return {
    object: 'list',
    data: docs.map(present),
    has_more: rows.length > page.limit,
    first_id: docs[0]?.id ?? null,
    last_id: docs[docs.length - 1]?.id ?? null,
  };
}
