import type { DocumentDoc } from '../../../projections/documents/index.ts';
import type { FileDoc } from '../../../projections/files/index.ts';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { SortOrder } from '../../../schemas/http/common.ts';
import type { ChunkingStrategy, VectorStoreFileStatus } from '../../../schemas/http/openai-vector-stores.ts';
import { MEDIA_TYPES } from '../../domain/document/media-type.ts';
import { documentDecider } from '../../domain/document/document.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { badRequest, resourceNotFound } from '../errors.ts';
import type { DocumentService } from './documents.ts';
import { type FileService, toUnix } from './files.ts';
import type { KnowledgeBaseService } from './knowledge-bases.ts';
import { requireKnowledgeBase } from './knowledge-base-access.ts';
import { type Principal, requireKnowledgeBasesAccess } from './principal.ts';
import { SUPPORTED_FORMATS } from '../../domain/document/supported-formats.ts';
import { fileIdsOf } from './file-links.ts';

export type Attributes = Record<string, string | number | boolean>;
type VectorStoreSettingsInput = { metadata?: Record<string, string> | null; expires_after?: { anchor: 'last_active_at'; days: number } | null };
const settingsOf = (input: VectorStoreSettingsInput): VectorStoreSettings => ({ metadata: input.metadata ?? null, expires_after: input.expires_after ?? null });
export type VectorStoreSettings = { metadata: Record<string, string> | null; expires_after: { anchor: 'last_active_at'; days: number } | null };

/** A file of ours that no parser reads: attaching it fails at once, as OpenAI refuses an unsupported file. */
const PARSEABLE = new Set<string>(Object.values(MEDIA_TYPES));

/** The most documents a vector store's counts read (its usage and file counts beyond are not counted). */
const MAX_COUNTED = 10000;

export const fileStatusOf = (doc: DocumentDoc): VectorStoreFileStatus =>
  doc.status === 'ready' ? 'completed' : doc.status === 'failed' ? 'failed' : 'in_progress';

export function countFiles(docs: readonly DocumentDoc[]) {
  const counts = { in_progress: 0, completed: 0, failed: 0, cancelled: 0, total: docs.length };
  for (const doc of docs) counts[fileStatusOf(doc)] += 1;
  return counts;
}

/** OpenAI's chunking strategy as ours: `static` sizes become max_tokens and overlap_tokens; `auto` keeps the knowledge base's. */
export const chunkingOf = (strategy: ChunkingStrategy | undefined) =>
  strategy?.type === 'static' ? { max_tokens: strategy.static.max_chunk_size_tokens, overlap_tokens: strategy.static.chunk_overlap_tokens } : {};

export function presentVectorStoreFile(doc: DocumentDoc, fileId: string) {
  const status = fileStatusOf(doc);
  const unsupported = doc.error?.code === 'unsupported_type';
  return {
    id: fileId,
    object: 'vector_store.file' as const,
    created_at: toUnix(doc.created_at),
    usage_bytes: doc.size_bytes,
    vector_store_id: doc.knowledge_base_id,
    status,
    last_error: status === 'failed' ? { code: unsupported ? ('unsupported_file' as const) : ('invalid_file' as const), message: doc.error?.message ?? 'The file could not be read.' } : null,
    attributes: doc.metadata,
    chunking_strategy: { type: 'static' as const, static: { max_chunk_size_tokens: doc.chunking.max_tokens, chunk_overlap_tokens: doc.chunking.overlap_tokens } },
  };
}

/**
 * OpenAI's vector stores over knowledge bases: a vector store IS a knowledge base (same id), its
 * files are the knowledge base's documents, a file's attributes the document's metadata. A
 * vector-store file's id is the id of the Files API file whose bytes the document holds, or the
 * document's own id for a document uploaded through the knowledge-base API.
 */
export function createVectorStoreService(ctx: AppContext, deps: { knowledgeBases: KnowledgeBaseService; documents: DocumentService; files: FileService }) {
  const kbOf = (principal: Principal, id: string) => requireKnowledgeBase(ctx.readModels, principal, id);
  const documentsOf = (kbId: string) => ctx.readModels.find<DocumentDoc>('documents', { where: { knowledge_base_id: kbId }, limit: MAX_COUNTED });

  const fileIds = (workspaceId: string, docs: readonly DocumentDoc[]) => fileIdsOf(ctx.readModels, workspaceId, docs);

  async function present(kb: KnowledgeBaseDoc) {
    const docs = await documentsOf(kb.id);
    const counts = countFiles(docs);
    const settings = (kb as KnowledgeBaseDoc & { vector_store?: VectorStoreSettings }).vector_store;
    return {
      id: kb.id,
      object: 'vector_store' as const,
      created_at: toUnix(kb.created_at),
      name: kb.name,
      usage_bytes: docs.reduce((sum, d) => sum + d.size_bytes, 0),
      file_counts: counts,
      status: counts.in_progress > 0 ? ('in_progress' as const) : ('completed' as const),
      expires_after: settings?.expires_after ?? null,
      // Nothing expires here: the setting is kept for the client to read back, not acted on.
      expires_at: null,
      last_active_at: toUnix(kb.updated_at),
      metadata: settings?.metadata ?? null,
    };
  }

  /** The document of this knowledge base that holds a file's bytes (or the document named by its own id). */
  async function documentOf(principal: Principal, kbId: string, fileId: string): Promise<DocumentDoc> {
    await kbOf(principal, kbId);
    const doc = fileId.startsWith('file_')
      ? (await ctx.readModels.find<DocumentDoc>('documents', { where: { knowledge_base_id: kbId, sha256: (await deps.files.get(principal, fileId)).sha256 }, limit: 1 }))[0]
      : await ctx.readModels.get<DocumentDoc>('documents', fileId);
    if (!doc || doc.knowledge_base_id !== kbId) throw resourceNotFound('file', fileId, 'file_id');
    return doc;
  }

  /** Uploads a file as a document of the knowledge base: the same bytes twice are the same document. */
  async function attach(principal: Principal, kbId: string, file: { file_id: string; attributes?: Attributes | null; chunking_strategy?: ChunkingStrategy }, requestId?: string) {
    // The store first: a key that may not use it learns nothing about the file.
    await kbOf(principal, kbId);
    const stored = await deps.files.get(principal, file.file_id);
    if (!PARSEABLE.has(stored.media_type)) {
      throw badRequest('unsupported_file', `File ${stored.id} (${stored.filename}) is of a type no parser reads; supported: ${SUPPORTED_FORMATS}.`, 'file_id');
    }
    const upload = { name: stored.filename, sha256: stored.sha256, sizeBytes: stored.bytes, mediaType: stored.media_type };
    const added = await deps.documents.upload(principal, kbId, [upload], {
      metadata: file.attributes ?? {},
      chunking: chunkingOf(file.chunking_strategy),
      requestId,
      // A vector store's files are files of their own, as in OpenAI's API: one named like another is kept beside it.
      onConflict: 'keep_both',
    });
    const doc = await ctx.readModels.get<DocumentDoc>('documents', added.data[0]!.id);
    return presentVectorStoreFile(doc!, stored.id);
  }

  async function presentDocuments(principal: Principal, docs: readonly DocumentDoc[]) {
    const ids = await fileIds(principal.workspaceId, docs);
    return docs.map((d) => presentVectorStoreFile(d, ids.get(d.id)!));
  }

  return {
    attach,
    fileIds,
    get: async (principal: Principal, id: string) => present(await kbOf(principal, id)),

    /** A knowledge base named like the store (OpenAI's name is optional), then each file attached. */
    async create(principal: Principal, input: { name?: string; description?: string; file_ids?: string[]; chunking_strategy?: ChunkingStrategy } & VectorStoreSettingsInput, requestId?: string) {
      // Refused before anything is created: a store half made from a list with a wrong id is worse than none.
      requireKnowledgeBasesAccess(principal, null);
      for (const fileId of input.file_ids ?? []) await deps.files.get(principal, fileId);
      const created = await deps.knowledgeBases.create(principal, { name: input.name ?? 'Vector store', description: input.description ?? null, vector_store: settingsOf(input) }, requestId);
      for (const file_id of input.file_ids ?? []) await attach(principal, created.body.id, { file_id, chunking_strategy: input.chunking_strategy }, requestId);
      return present(await kbOf(principal, created.body.id));
    },

    async update(principal: Principal, id: string, patch: { name?: string | null } & VectorStoreSettingsInput, requestId?: string) {
      const kb = await kbOf(principal, id);
      const current = (kb as KnowledgeBaseDoc & { vector_store?: VectorStoreSettings }).vector_store;
      const vector_store = {
        metadata: patch.metadata === undefined ? (current?.metadata ?? null) : patch.metadata,
        expires_after: patch.expires_after === undefined ? (current?.expires_after ?? null) : patch.expires_after,
      };
      await deps.knowledgeBases.update(principal, id, { ...(patch.name && { name: patch.name }), vector_store }, undefined, requestId);
      return present(await kbOf(principal, id));
    },

    async remove(principal: Principal, id: string, requestId?: string) {
      await kbOf(principal, id);
      await deps.knowledgeBases.remove(principal, id, undefined, requestId);
      return { id, object: 'vector_store.deleted' as const, deleted: true as const };
    },

    /** Cursor pages over the knowledge bases the key may see; `before` pages backwards. */
    async list(principal: Principal, page: { limit: number; after?: string; before?: string; order: SortOrder }) {
      const reversed = page.before !== undefined;
      const order = reversed ? (page.order === 'asc' ? 'desc' : 'asc') : page.order;
      const found = await deps.knowledgeBases.list(principal, { limit: page.limit, order, after: page.before ?? page.after });
      const kbs = await Promise.all(found.data.map((kb) => kbOf(principal, kb.id)));
      const data = await Promise.all((reversed ? kbs.reverse() : kbs).map(present));
      return { object: 'list' as const, data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: found.has_more };
    },

    async file(principal: Principal, kbId: string, fileId: string) {
      const doc = await documentOf(principal, kbId, fileId);
      return (await presentDocuments(principal, [doc]))[0]!;
    },

    async files(principal: Principal, kbId: string, page: { limit: number; after?: string; before?: string; order: SortOrder; filter?: VectorStoreFileStatus }, only?: readonly string[]) {
      await kbOf(principal, kbId);
      let docs = await documentsOf(kbId);
      const ids = await fileIds(principal.workspaceId, docs);
      if (only) docs = docs.filter((d) => only.includes(ids.get(d.id)!));
      if (page.filter) docs = docs.filter((d) => fileStatusOf(d) === page.filter);
      const sorted = docs.map((d) => presentVectorStoreFile(d, ids.get(d.id)!)).sort((a, b) => (a.id < b.id ? -1 : 1));
      if (page.order === 'desc') sorted.reverse();
      const start = page.after ? sorted.findIndex((f) => f.id === page.after) + 1 : 0;
      const end = page.before ? sorted.findIndex((f) => f.id === page.before) : sorted.length;
      const window = sorted.slice(start, end < 0 ? sorted.length : end);
      const data = page.before ? window.slice(-page.limit) : window.slice(0, page.limit);
      return { object: 'list' as const, data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: window.length > data.length };
    },

    /** New attributes for a file: the document's metadata, replaced (filters see them at once; nothing is re-indexed). */
    async updateAttributes(principal: Principal, kbId: string, fileId: string, attributes: Attributes, requestId?: string) {
      const doc = await documentOf(principal, kbId, fileId);
      const result = await handleCommand(ctx.store, documentDecider, doc.id, {
        type: 'UpdateDocumentMetadata',
        data: { document_id: doc.id, workspace_id: principal.workspaceId, metadata: attributes },
        metadata: commandMetadata(ctx, principal.keyId, requestId),
      });
      await settled(ctx, result);
      return presentVectorStoreFile((await ctx.readModels.get<DocumentDoc>('documents', doc.id))!, fileId);
    },

    /** The file's text as the store holds it: its chunks in order, each once (the overlap between chunks included). */
    async content(principal: Principal, kbId: string, fileId: string) {
      const doc = await documentOf(principal, kbId, fileId);
      const texts: string[] = [];
      for (let after: number | undefined, more = true; more; ) {
        const page = await deps.documents.chunks(principal, kbId, doc.id, { limit: 500, ...(after !== undefined && { after }) });
        texts.push(...page.data.map((c) => c.paragraph));
        after = page.data.at(-1)?.index;
        more = page.has_more;
      }
      return { object: 'vector_store.file_content.page' as const, data: texts.map((text) => ({ type: 'text' as const, text })), has_more: false, next_page: null };
    },

    /** Takes the document out of the store; the Files API file stays. */
    async detach(principal: Principal, kbId: string, fileId: string, requestId?: string) {
      const doc = await documentOf(principal, kbId, fileId);
      await deps.documents.remove(principal, kbId, doc.id, requestId);
      return { id: fileId, object: 'vector_store.file.deleted' as const, deleted: true as const };
    },
  };
}

export type VectorStoreService = ReturnType<typeof createVectorStoreService>;
