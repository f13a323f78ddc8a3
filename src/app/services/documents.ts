import { createHash } from 'node:crypto';
import type { DocumentDoc } from '../../../projections/documents/index.ts';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import { claimContent } from '../content-claims.ts';
import { documentDecider } from '../../domain/document/document.ts';
import { reportOfRecorded } from '../../domain/document/failures.ts';
import type { BlobStore } from '../../ports/blob-store.ts';
import type { PageRenderer } from '../../ports/page-renderer.ts';
import type { PassageStore } from '../../ports/passage-store.ts';
import type { Document } from '../../../schemas/http/documents.ts';
import { pinnedOcrLanguages } from '../../../schemas/knowledge-base-settings.ts';
import { toOcrModel, type OcrModel } from '../../../schemas/ocr-languages.ts';
import { handleCommand } from '../command-handler.ts';
import { deleteAttachments, deleteDocument } from '../document-removal.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { badRequest, resourceNotFound } from '../errors.ts';
import { claimIdempotencyKey, completeIdempotencyKey } from './idempotency.ts';
import { requireKnowledgeBase } from './knowledge-base-access.ts';
import { createPageImageService } from './page-images.ts';
import { findPage, type PageRequest } from './paging.ts';
import type { Principal } from './principal.ts';

/** A file already in the blob store, with the type its bytes revealed. */
export type StoredFile = { name: string; sha256: string; sizeBytes: number; mediaType: string };

export type UploadOptions = {
  metadata: Record<string, string | number | boolean>;
  chunking: { max_tokens?: number; overlap_tokens?: number };
  /** Languages to OCR scans in (validated codes, tesseract or ISO); undefined: the knowledge base's setting. */
  ocrLanguages?: string[];
  idempotencyKey?: string;
  requestId?: string;
};

type ParseSettings = { chunking: { max_tokens: number; overlap_tokens: number }; ocr_languages?: OcrModel[] };

/** Codes as the models that read them, each once, in the order asked (the first is the main language). */
const ocrModels = (codes: string[] | undefined): OcrModel[] | undefined =>
  codes?.length ? [...new Set(codes.map((c) => toOcrModel(c)).filter((m): m is OcrModel => m !== undefined))] : undefined;

export function presentDocument({ workspace_id: _ws, chunking: _c, ...visible }: DocumentDoc): Document {
  // Documents projected before page_estimated existed had their pages from the file: known.
  // One projected before the failure catalogue reports its failure in today's words, without a replay.
  const error = visible.error && { stage: visible.error.stage, ...reportOfRecorded(visible.error) };
  return { ...visible, error, parent_document_id: visible.parent_document_id ?? null, page_estimated: visible.page_estimated ?? false };
}

/** `pages`: what drawing a page needs (see page-images.ts). */
export function createDocumentService(ctx: AppContext, passages: PassageStore, pages: { blobs: BlobStore; renderer: PageRenderer }) {
  const pageImages = createPageImageService(ctx, { passages, ...pages });
  const knowledgeBase = (principal: Principal, kbId: string) => requireKnowledgeBase(ctx.readModels, principal, kbId);

  async function document(principal: Principal, kbId: string, documentId: string): Promise<DocumentDoc> {
    await knowledgeBase(principal, kbId);
    const doc = await ctx.readModels.get<DocumentDoc>('documents', documentId);
    if (!doc || doc.knowledge_base_id !== kbId) throw resourceNotFound('document', documentId);
    return doc;
  }

  /** One file: the document that already holds these bytes in this knowledge base, or a new one. */
  async function addOne(principal: Principal, kb: KnowledgeBaseDoc, file: StoredFile, parsing: ParseSettings, options: UploadOptions) {
    const id = ctx.newId('doc');
    const meta = commandMetadata(ctx, principal.keyId, options.requestId);
    const holder = await claimContent(ctx, { knowledgeBaseId: kb.id, sha256: file.sha256, documentId: id }, meta);
    if (holder !== id) return { id: holder, written: null };
    const result = await handleCommand(ctx.store, documentDecider, id, {
      type: 'UploadDocument',
      data: {
        document_id: id,
        knowledge_base_id: kb.id,
        workspace_id: principal.workspaceId,
        name: file.name,
        media_type: file.mediaType,
        size_bytes: file.sizeBytes,
        sha256: file.sha256,
        metadata: options.metadata,
        ...parsing,
      },
      metadata: meta,
    });
    return { id, written: result };
  }

  return {
    knowledgeBase,

    async upload(principal: Principal, kbId: string, files: StoredFile[], options: UploadOptions) {
      const kb = await knowledgeBase(principal, kbId);
      const chunking = { ...kb.settings.chunking, ...options.chunking };
      if (chunking.overlap_tokens >= chunking.max_tokens) {
        throw badRequest('invalid_value', 'chunking.overlap_tokens: must be smaller than chunking.max_tokens', 'chunking.overlap_tokens');
      }
      const ocr = ocrModels(options.ocrLanguages ?? pinnedOcrLanguages(kb.settings));
      const parsing: ParseSettings = { chunking, ...(ocr ? { ocr_languages: ocr } : {}) };
      const fingerprint = createHash('sha256')
        .update(JSON.stringify([kbId, files.map((f) => [f.name, f.sha256]), options.metadata, chunking, ocr ?? null]))
        .digest('hex');
      const replay = options.idempotencyKey
        ? await claimIdempotencyKey(ctx, principal, options.idempotencyKey, fingerprint)
        : null;
      let ids = replay?.resourceIds;
      // Ids given back because their bytes were already a document (a replay does not know: none marked).
      const deduplicated = new Set<string>();
      if (!ids) {
        const added = [];
        for (const file of files) added.push(await addOne(principal, kb, file, parsing, options));
        ids = added.map((a) => a.id);
        for (const a of added) if (!a.written) deduplicated.add(a.id);
        if (options.idempotencyKey) await completeIdempotencyKey(ctx, principal, options.idempotencyKey, 202, ids);
        await settled(ctx, ...added.flatMap((a) => (a.written ? [a.written] : [])));
      }
      const docs = await Promise.all(ids.map((id) => ctx.readModels.get<DocumentDoc>('documents', id)));
      const data = docs.filter((d): d is DocumentDoc => d !== null).map((d) => ({ ...presentDocument(d), ...(deduplicated.has(d.id) && { deduplicated: true as const }) }));
      return { object: 'list' as const, data, has_more: false };
    },

    async get(principal: Principal, kbId: string, documentId: string) {
      return presentDocument(await document(principal, kbId, documentId));
    },

    async list(principal: Principal, kbId: string, page: PageRequest, status?: string) {
      await knowledgeBase(principal, kbId);
      return findPage(ctx.readModels, 'documents', { knowledge_base_id: kbId, ...(status && { status }) }, page, { present: presentDocument });
    },

    /** A document's chunks in order, from the passage store (written by the indexer: the chunks of a document being indexed appear as it goes). */
    async chunks(principal: Principal, kbId: string, documentId: string, page: { limit: number; after?: number }) {
      const doc = await document(principal, kbId, documentId);
      const found = await passages.listByDocument(kbId, documentId, { ...(page.after !== undefined && { after: page.after }), limit: page.limit + 1 });
      return {
        object: 'list' as const,
        data: found.slice(0, page.limit).map((p) => ({
          id: p.chunkId,
          object: 'chunk' as const,
          document_id: documentId,
          index: p.index,
          source: doc.name,
          page: p.page,
          paragraph: p.text,
          heading_path: p.headingPath,
          char_start: p.charStart,
          char_end: p.charEnd,
          token_count: p.tokenCount,
          boxes: p.boxes ?? [],
        })),
        has_more: found.length > page.limit,
      };
    },

    /** A page as PNG, a chunk's lines highlighted (page-images.ts). */
    pageImage: pageImages.render,

    /** Deletes the document, and the documents its attachments became (an email's). */
    async remove(principal: Principal, kbId: string, documentId: string, requestId?: string) {
      const doc = await document(principal, kbId, documentId);
      const meta = commandMetadata(ctx, principal.keyId, requestId);
      const written = await deleteDocument(ctx, { documentId, knowledgeBaseId: kbId, workspaceId: principal.workspaceId, sha256: doc.sha256 }, meta);
      // A document deleted by another request in between is gone all the same: only the first delete answers 404.
      if (written.length === 0) throw resourceNotFound('document', documentId);
      await settled(ctx, ...written);
      await deleteAttachments(ctx, documentId, meta);
      return { id: documentId, object: 'document.deleted' as const, deleted: true };
    },
  };
}

export type DocumentService = ReturnType<typeof createDocumentService>;
