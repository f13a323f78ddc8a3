import { badRequest } from '../../app/errors.ts';
import type { Principal } from '../../app/services/principal.ts';
import type { McpDeps } from './deps.ts';

const PAGE = 50;

/** Where a resources/list page ended: in knowledge base `kb`, after document `doc` (from its start when absent). */
type Cursor = { kb: string; doc?: string };

type Listed = Awaited<ReturnType<McpDeps['documents']['list']>>['data'][number];

/**
 * One page of the documents of every knowledge base the key may read, knowledge bases and their
 * documents both in id order, and the cursor of the next page (none after the last). Each list
 * call is the REST list's, so the key's limits apply exactly as they do there.
 */
export async function listDocuments(deps: McpDeps, principal: Principal, cursorText?: string): Promise<{ documents: Listed[]; nextCursor?: string }> {
  const documents: Listed[] = [];
  const cursor = cursorText === undefined ? undefined : decode(cursorText);
  /** Fills the page from one knowledge base; true when the page is full and more of it remain. */
  const fill = async (kb: string, after?: string) => {
    const page = await deps.documents.list(principal, kb, { limit: PAGE - documents.length, after, order: 'asc' });
    documents.push(...page.data);
    return page.has_more || (documents.length === PAGE && page.data.length > 0);
  };
  const next = (kb: string) => ({ documents, nextCursor: encode({ kb, doc: documents.at(-1)!.id }) });

  if (cursor && (await fill(cursor.kb, cursor.doc))) return next(cursor.kb);
  let kbAfter = cursor?.kb;
  for (;;) {
    const kbs = await deps.knowledgeBases.list(principal, { limit: 100, after: kbAfter, order: 'asc' });
    for (const kb of kbs.data) {
      if (await fill(kb.id)) return next(kb.id);
    }
    if (!kbs.has_more || kbs.data.length === 0) return { documents };
    kbAfter = kbs.data.at(-1)!.id;
  }
}

const encode = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decode(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof value.kb === 'string' && (value.doc === undefined || typeof value.doc === 'string')) return { kb: value.kb, doc: value.doc };
  } catch {
    // falls through to the error below
  }
  throw badRequest('invalid_cursor', 'The cursor is not one this server gave out.', 'cursor');
}
