import { createHash } from 'node:crypto';
import type { DocumentDoc } from '../../../projections/documents/index.ts';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import { claimContent } from '../content-claims.ts';
import { versionPurged } from './as-of.ts';
import { documentDecider } from '../../domain/document/document.ts';
import { reportOfRecorded } from '../../domain/document/failures.ts';
import type { BlobStore } from '../../ports/blob-store.ts';
import type { PageRenderer } from '../../ports/page-renderer.ts';
import type { PassageStore } from '../../ports/passage-store.ts';
import type { Document } from '../../../schemas/http/documents.ts';
import type { DocumentVersionDoc } from '../../../schemas/read-models/documents.ts';
import { holdsVersion } from '../../ports/passage-store.ts';
import { createVersionHistory } from './document-version-history.ts';
import { nameKeyOf } from '../../domain/document/name-claim.ts';
import { claimName, releaseName } from '../name-claims.ts';
import { currentVersionOf, versionsOf } from '../../../projections/documents/index.ts';
import { pinnedOcrLanguages } from '../../../schemas/knowledge-base-settings.ts';
import { toOcrModel, type OcrModel } from '../../../schemas/ocr-languages.ts';
import { handleCommand } from '../command-handler.ts';
import type { Written } from '../projection-watch.ts';
import { deleteAttachments, deleteDocument } from '../document-removal.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { badRequest, resourceNotFound } from '../errors.ts';
import { conflict } from '../../domain/shared/errors.ts';
import { claimIdempotencyKey, completeIdempotencyKey } from './idempotency.ts';
import { requireKnowledgeBase } from './knowledge-base-access.ts';
import { createPageImageService } from './page-images.ts';
import { findPage, type PageRequest } from './paging.ts';
import type { Principal } from './principal.ts';
import type { StoredFile } from './stored-file.ts';


/** What an upload does when a live document of the knowledge base has its name (or external id): see OnConflict. */
export type OnConflict = 'new_version' | 'keep_both' | 'skip';

export type UploadOptions = {
  metadata: Record<string, string | number | boolean>;
  /** Default new_version (issue 44). */
  onConflict?: OnConflict;
  /** The document's id in its source: matched instead of the name. */
  externalId?: string;
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

export function presentDocument(doc: DocumentDoc): Document {
  const { workspace_id: _ws, chunking: _c, versions: _v, version: _n, current_version: _cv, external_id, ...visible } = doc;
  // Documents projected before page_estimated existed had their pages from the file: known.
  // One projected before the failure catalogue reports its failure in today's words, without a replay.
  const error = visible.error && { stage: visible.error.stage, ...reportOfRecorded(visible.error) };
  const current = currentVersionOf(doc);
  return {
    ...visible,
    error,
    parent_document_id: visible.parent_document_id ?? null,
    page_estimated: visible.page_estimated ?? false,
    version: doc.version ?? 1,
    current_version: current === 0 ? null : current,
    version_count: versionsOf(doc).length,
    external_id: external_id ?? null,
  };
}


/** One entry of a document's history as the API shows it. */
function presentVersion(doc: DocumentDoc, v: DocumentVersionDoc) {
  return {
    object: 'document.version' as const,
    version: v.version,
    created_at: v.created_at,
    name: v.name,
    media_type: v.media_type,
    sha256: v.sha256,
    size: v.size_bytes,
    pages: v.page_count,
    chunks: v.chunk_count,
    reused_chunks: v.reused_chunk_count,
    uploaded_by: v.uploaded_by,
    status: v.status,
    current: v.version === currentVersionOf(doc),
    superseded_at: v.superseded_at,
  };
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

  /**
   * New content for a live document: its next version, unless another document of the knowledge
   * base holds these bytes (that one is the answer, as for an upload), or they are its newest
   * version's already (nothing new). `written` is null when nothing was.
   */
  async function addVersionOf(principal: Principal, kb: KnowledgeBaseDoc, documentId: string, file: StoredFile, { parsing, meta }: { parsing: ParseSettings; meta: ReturnType<typeof commandMetadata> }) {
    const holder = await claimContent(ctx, { knowledgeBaseId: kb.id, sha256: file.sha256, documentId }, meta);
    if (holder !== documentId) return { id: holder, written: null, elsewhere: true };
    const result = await handleCommand(ctx.store, documentDecider, documentId, {
      type: 'AddVersion',
      data: {
        document_id: documentId,
        workspace_id: principal.workspaceId,
        name: file.name,
        media_type: file.mediaType,
        size_bytes: file.sizeBytes,
        sha256: file.sha256,
        blob: file.sha256,
        uploaded_by: principal.keyId,
        ...parsing,
      },
      metadata: meta,
    });
    return { id: documentId, written: result.events.length > 0 ? result : null, elsewhere: false };
  }

  /**
   * One file: the document that already holds these bytes in this knowledge base; else, unless
   * `keep_both`, the next version of the live document holding its name (or external id), or that
   * document unchanged (`skip`); else a new document.
   */
  async function addOne(principal: Principal, kb: KnowledgeBaseDoc, file: StoredFile, parsing: ParseSettings, options: UploadOptions) {
    const id = ctx.newId('doc');
    const meta = commandMetadata(ctx, principal.keyId, options.requestId);
    const onConflict = options.onConflict ?? 'new_version';
    const nameKey = nameKeyOf({ name: file.name, external_id: options.externalId });
    if (onConflict !== 'keep_both') {
      const namesake = await claimName(ctx, { knowledgeBaseId: kb.id, key: nameKey, documentId: id }, meta);
      if (namesake !== id) {
        if (onConflict === 'skip') return { id: namesake, written: null, skipped: true };
        return addVersionOf(principal, kb, namesake, file, { parsing, meta });
      }
    }
    const holder = await claimContent(ctx, { knowledgeBaseId: kb.id, sha256: file.sha256, documentId: id }, meta);
    if (holder !== id) {
      // The bytes are another document: the name claimed for this one, which will not exist, is given back.
      if (onConflict !== 'keep_both') await releaseName(ctx, { knowledgeBaseId: kb.id, key: nameKey, documentId: id }, meta);
      return { id: holder, written: null };
    }
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
        uploaded_by: principal.keyId,
        ...(options.externalId !== undefined && { external_id: options.externalId }),
        ...parsing,
      },
      metadata: meta,
    });
    return { id, written: result };
  }

  /** The parse settings of an upload into `kb`: its chunking and OCR languages, the request's over the knowledge base's. */
  function parseSettings(kb: KnowledgeBaseDoc, options: Pick<UploadOptions, 'chunking' | 'ocrLanguages'>): ParseSettings {
    const chunking = { ...kb.settings.chunking, ...options.chunking };
    if (chunking.overlap_tokens >= chunking.max_tokens) {
      throw badRequest('invalid_value', 'chunking.overlap_tokens: must be smaller than chunking.max_tokens', 'chunking.overlap_tokens');
    }
    const ocr = ocrModels(options.ocrLanguages ?? pinnedOcrLanguages(kb.settings));
    return { chunking, ...(ocr ? { ocr_languages: ocr } : {}) };
  }

  /**
   * A new version of a document (POST …/versions): `created` false when nothing new was made
   * (the bytes are its newest version's already). Bytes another document holds are a conflict:
   * they are that document, and one document cannot be two.
   */
  async function addVersion(principal: Principal, kbId: string, documentId: string, file: StoredFile, options: Pick<UploadOptions, 'chunking' | 'ocrLanguages' | 'requestId'>) {
    const doc = await document(principal, kbId, documentId);
    const kb = await knowledgeBase(principal, kbId);
    const meta = commandMetadata(ctx, principal.keyId, options.requestId);
    const parsing = parseSettings(kb, { chunking: { ...doc.chunking, ...options.chunking }, ocrLanguages: options.ocrLanguages });
    const added = await addVersionOf(principal, kb, doc.id, file, { parsing, meta });
    if (added.elsewhere) throw conflict('duplicate_content', `These bytes are already document '${added.id}' of this knowledge base.`);
    if (added.written) await settled(ctx, added.written);
    const now = await document(principal, kbId, documentId);
    return { created: added.written !== null, body: presentDocument(now) };
  }

  return {
    knowledgeBase,

    async upload(principal: Principal, kbId: string, files: StoredFile[], options: UploadOptions) {
      const kb = await knowledgeBase(principal, kbId);
      const parsing = parseSettings(kb, options);
      const fingerprint = createHash('sha256')
        .update(
          JSON.stringify([kbId, files.map((f) => [f.name, f.sha256]), options.metadata, parsing.chunking, parsing.ocr_languages ?? null, ...(options.onConflict || options.externalId ? [options.onConflict ?? null, options.externalId ?? null] : [])]),
        )
        .digest('hex');
      const replay = options.idempotencyKey
        ? await claimIdempotencyKey(ctx, principal, options.idempotencyKey, fingerprint)
        : null;
      let ids = replay?.resourceIds;
      // Ids given back because their bytes were already a document (a replay does not know: none marked).
      const deduplicated = new Set<string>();
      const skipped = new Set<string>();
      if (!ids) {
        const added: { id: string; written: Written | null; skipped?: boolean }[] = [];
        for (const file of files) added.push(await addOne(principal, kb, file, parsing, options));
        ids = added.map((a) => a.id);
        for (const a of added) if (!a.written) (a.skipped ? skipped : deduplicated).add(a.id);
        if (options.idempotencyKey) await completeIdempotencyKey(ctx, principal, options.idempotencyKey, 202, ids);
        await settled(ctx, ...added.flatMap((a) => (a.written ? [a.written] : [])));
      }
      const docs = await Promise.all(ids.map((id) => ctx.readModels.get<DocumentDoc>('documents', id)));
      const data = docs
        .filter((d): d is DocumentDoc => d !== null)
        .map((d) => ({ ...presentDocument(d), ...(deduplicated.has(d.id) && { deduplicated: true as const }), ...(skipped.has(d.id) && { skipped: true as const }) }));
      return { object: 'list' as const, data, has_more: false };
    },

    async get(principal: Principal, kbId: string, documentId: string) {
      return presentDocument(await document(principal, kbId, documentId));
    },

    addVersion,

    /** A document's history, oldest first. */
    async versions(principal: Principal, kbId: string, documentId: string) {
      const doc = await document(principal, kbId, documentId);
      return { object: 'list' as const, data: versionsOf(doc).map((v) => presentVersion(doc, v)), has_more: false };
    },

    /** The bytes of one version as they were uploaded, with its name and type. */
    async versionContent(principal: Principal, kbId: string, documentId: string, version: number) {
      const doc = await document(principal, kbId, documentId);
      const entry = versionsOf(doc).find((v) => v.version === version);
      if (!entry) throw resourceNotFound('document_version', `${documentId}/${version}`);
      if (entry.status === 'purged') throw versionPurged(documentId, [version], entry.purged_at ?? null);
      const stream = await pages.blobs.get(entry.sha256);
      if (!stream) throw resourceNotFound('document_version', `${documentId}/${version}`);
      return { name: entry.name, mediaType: entry.media_type, size: entry.size_bytes, stream };
    },

    ...createVersionHistory(ctx, { document, addVersion, blobs: pages.blobs }),

    async list(principal: Principal, kbId: string, page: PageRequest, status?: string) {
      await knowledgeBase(principal, kbId);
      return findPage(ctx.readModels, 'documents', { knowledge_base_id: kbId, ...(status && { status }) }, page, { present: presentDocument });
    },

    /** A document's chunks in order, from the passage store (written by the indexer: the chunks of a document being indexed appear as it goes). */
    async chunks(principal: Principal, kbId: string, documentId: string, page: { limit: number; after?: number }) {
      const doc = await document(principal, kbId, documentId);
      // The answering version's chunks (the newest's while none answers yet): while a new version is indexed, both versions' are stored.
      const version = currentVersionOf(doc) || (doc.version ?? 1);
      const listed = await passages.listByDocument(kbId, documentId, { ...(page.after !== undefined && { after: page.after }), limit: (page.limit + 1) * (doc.version && doc.version > 1 ? 4 : 1) });
      const found = listed.filter((p) => holdsVersion(p, version)).slice(0, page.limit + 1);
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
