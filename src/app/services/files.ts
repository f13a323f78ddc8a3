import type { DocumentDoc } from '../../../projections/documents/index.ts';
import type { FileDoc } from '../../../projections/files/index.ts';
import type { OpenAiFile } from '../../../schemas/http/openai-files.ts';
import { fileDecider } from '../../domain/file/file.ts';
import type { BlobStore } from '../../ports/blob-store.ts';
import { handleCommand } from '../command-handler.ts';
import { deleteAttachments, deleteDocument } from '../document-removal.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { resourceNotFound } from '../errors.ts';
import { findPage, type PageRequest } from './paging.ts';
import { type Principal, visibleTo } from './principal.ts';

/** Bytes already in the blob store, with the type they revealed (octet-stream when none we parse). */
export type FileBytes = { filename: string; sha256: string; bytes: number; mediaType: string };

/** The most documents one file's deletion removes (one per knowledge base it was attached to). */
const MAX_COPIES = 1000;

export function presentFile(doc: FileDoc): OpenAiFile {
  return { id: doc.id, object: 'file' as const, bytes: doc.bytes, created_at: toUnix(doc.created_at), filename: doc.filename, purpose: doc.purpose, status: 'processed' as const, status_details: null };
}

export const toUnix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * The Files API: workspace-level uploads. A key with access to every knowledge base sees all of
 * the workspace's files; a key limited to some sees only the files it uploaded itself, so bytes
 * meant for other knowledge bases stay out of its reach.
 */
export function createFileService(ctx: AppContext, blobs: BlobStore) {
  const visible = (principal: Principal, doc: FileDoc | null): doc is FileDoc =>
    doc !== null && doc.workspace_id === principal.workspaceId && (principal.knowledgeBaseIds === null || doc.uploaded_by === principal.keyId);

  async function get(principal: Principal, fileId: string): Promise<FileDoc> {
    const doc = await ctx.readModels.get<FileDoc>('files', fileId);
    if (!visible(principal, doc)) throw resourceNotFound('file', fileId, 'file_id');
    return doc;
  }

  return {
    get,

    async upload(principal: Principal, file: FileBytes, purpose: string, requestId?: string) {
      const id = ctx.newId('file');
      const result = await handleCommand(ctx.store, fileDecider, id, {
        type: 'UploadFile',
        data: { file_id: id, workspace_id: principal.workspaceId, filename: file.filename, purpose, bytes: file.bytes, sha256: file.sha256, media_type: file.mediaType, uploaded_by: principal.keyId },
        metadata: commandMetadata(ctx, principal.keyId, requestId),
      });
      await settled(ctx, result);
      return presentFile(await get(principal, id));
    },

    async list(principal: Principal, page: PageRequest, purpose?: string) {
      const where = { workspace_id: principal.workspaceId, ...(purpose && { purpose }) };
      const mine = principal.knowledgeBaseIds === null ? undefined : (doc: FileDoc) => doc.uploaded_by === principal.keyId;
      return findPage(ctx.readModels, 'files', where, page, { present: presentFile, visible: mine });
    },

    async content(principal: Principal, fileId: string) {
      const doc = await get(principal, fileId);
      const stream = await blobs.get(doc.sha256);
      if (!stream) throw resourceNotFound('file', fileId, 'file_id');
      return { doc, stream };
    },

    /**
     * Deletes the file and the documents it became in vector stores, unless another file of the
     * workspace holds the same bytes (their documents are shared: the same bytes are one document
     * per knowledge base). Only documents of knowledge bases the key may write go: the same bytes
     * elsewhere are somebody else's document, not this file's effect. The bytes stay in the blob
     * store, which documents may still read.
     */
    async remove(principal: Principal, fileId: string, requestId?: string) {
      const doc = await get(principal, fileId);
      const meta = commandMetadata(ctx, principal.keyId, requestId);
      const result = await handleCommand(ctx.store, fileDecider, fileId, { type: 'DeleteFile', data: { file_id: fileId, workspace_id: principal.workspaceId }, metadata: meta });
      await settled(ctx, result);
      const twins = await ctx.readModels.find<FileDoc>('files', { where: { workspace_id: principal.workspaceId, sha256: doc.sha256 }, limit: 1 });
      if (twins.length === 0) {
        const copies = await ctx.readModels.find<DocumentDoc>('documents', { where: { workspace_id: principal.workspaceId, sha256: doc.sha256 }, limit: MAX_COPIES });
        const writable = visibleTo(principal, (copy: DocumentDoc) => [copy.knowledge_base_id]) ?? (() => true);
        for (const copy of copies.filter((c) => c.parent_document_id === undefined && writable(c))) {
          const ref = { documentId: copy.id, knowledgeBaseId: copy.knowledge_base_id, workspaceId: principal.workspaceId, sha256: copy.sha256 };
          await settled(ctx, ...(await deleteDocument(ctx, ref, meta)));
          await deleteAttachments(ctx, copy.id, meta);
        }
      }
      return { id: fileId, object: 'file' as const, deleted: true as const };
    },
  };
}

export type FileService = ReturnType<typeof createFileService>;
