import type { DocumentDoc } from '../../../projections/documents/index.ts';
import { boxesOfSpan } from '../../domain/document/box.ts';
import type { BlobStore } from '../../ports/blob-store.ts';
import type { PageRenderer } from '../../ports/page-renderer.ts';
import type { PassageStore } from '../../ports/passage-store.ts';
import type { AppContext } from '../context.ts';
import { notFoundError, resourceNotFound } from '../errors.ts';
import { ApiError } from '../../ports/api-error.ts';
import { requireKnowledgeBase } from './knowledge-base-access.ts';
import type { Principal } from './principal.ts';

export type PageImageQuery = { page: number; width: number; highlight?: string; char_start?: number; char_end?: number };

/** A drawing takes a few hundred milliseconds; a page that takes longer than this is not worth the wait. */
const RENDER_TIMEOUT_MS = 20_000;

/**
 * A document page as PNG, with a chunk's lines highlighted: the reader's view of a citation. The
 * same access rules as reading the document; the page must exist and the chunk must sit on it.
 */
export function createPageImageService(ctx: AppContext, deps: { passages: PassageStore; blobs: BlobStore; renderer: PageRenderer }) {
  async function document(principal: Principal, kbId: string, documentId: string): Promise<DocumentDoc> {
    await requireKnowledgeBase(ctx.readModels, principal, kbId);
    const doc = await ctx.readModels.get<DocumentDoc>('documents', documentId);
    if (!doc || doc.knowledge_base_id !== kbId) throw resourceNotFound('document', documentId);
    return doc;
  }

  async function highlightOf(kbId: string, doc: DocumentDoc, query: PageImageQuery) {
    if (!query.highlight) return [];
    const passage = (await deps.passages.get(kbId, [query.highlight])).get(query.highlight);
    if (!passage || passage.documentId !== doc.id) throw notFoundError('chunk_not_found', `No chunk ${query.highlight} in document ${doc.id}.`, 'highlight');
    if (passage.page !== query.page) {
      throw notFoundError('chunk_not_found', `Chunk ${query.highlight} is on page ${passage.page}, not on page ${query.page}.`, 'highlight');
    }
    const boxes = passage.boxes ?? [];
    if (query.char_start === undefined || query.char_end === undefined) return boxes;
    // A span that covers no line (past the text, empty) falls back to the whole chunk, as citations do.
    // The span counts in the page's text, as citations give it; boxes count from the chunk's start.
    const lines = boxesOfSpan(boxes, query.char_start - passage.charStart, query.char_end - passage.charStart);
    return lines.length ? lines : boxes;
  }

  return {
    async render(principal: Principal, kbId: string, documentId: string, query: PageImageQuery) {
      const doc = await document(principal, kbId, documentId);
      if (doc.page_count !== null && query.page > doc.page_count) {
        throw notFoundError('page_not_found', `The document has ${doc.page_count} page${doc.page_count === 1 ? '' : 's'}; there is no page ${query.page}.`, 'page');
      }
      const highlight = await highlightOf(kbId, doc, query);
      const local = await deps.blobs.localPath(doc.sha256);
      if (!local) throw notFoundError('page_image_unavailable', `The file of document ${doc.id} is no longer stored.`);
      try {
        const request = { path: local.path, mediaType: doc.media_type, page: query.page, width: query.width, highlight };
        const outcome = await deps.renderer.render(request, { timeoutMs: RENDER_TIMEOUT_MS });
        if (outcome.ok) return outcome;
        if (outcome.code === 'page_out_of_range') throw notFoundError('page_not_found', outcome.message, 'page');
        if (outcome.code === 'page_image_unavailable') throw new ApiError(415, 'invalid_request_error', 'page_image_unavailable', outcome.message);
        throw new ApiError(422, 'invalid_request_error', 'page_render_failed', outcome.message);
      } finally {
        await local.release();
      }
    },
  };
}

export type PageImageService = ReturnType<typeof createPageImageService>;
