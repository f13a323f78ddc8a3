import type { DocumentService } from '../../app/services/documents.ts';
import { badRequest } from '../../app/errors.ts';
import { PageImageQuery } from '../../../schemas/http/documents.ts';
import { route } from '../route.ts';

/** A page of a document as PNG, optionally with a chunk's lines highlighted (a citation's `chunk_id`). */
export const pageImageRoute = (documents: DocumentService) =>
  route({
    method: 'get',
    path: '/v1/knowledge-bases/:kb_id/documents/:document_id/pages/:page/image',
    summary:
      'A page of a PDF or scanned image as PNG; `highlight` marks a chunk’s lines on it (with `char_start`/`char_end`, only those of that span); 415 `page_image_unavailable` for formats without drawable pages',
    tag: 'documents',
    scope: 'read',
    load: 'query',
    query: PageImageQuery,
    mediaType: 'image/png',
    handle: async ({ principal, params, query }) => {
      const page = /^[1-9]\d{0,5}$/.test(params.page) ? Number(params.page) : NaN;
      if (!Number.isInteger(page)) throw badRequest('invalid_page', 'page must be a page number from 1.', 'page');
      const image = await documents.pageImage(principal, params.kb_id, params.document_id, { page, ...query });
      return { headers: { 'content-type': 'image/png', 'cache-control': 'private, max-age=300' }, body: Buffer.from(image.png) };
    },
  });
