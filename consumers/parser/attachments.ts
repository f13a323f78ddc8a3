import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { EventData } from '../../schemas/events/index.ts';
import { handleCommand } from '../../src/app/command-handler.ts';
import { type AppContext, commandMetadata } from '../../src/app/context.ts';
import { claimContent } from '../../src/app/content-claims.ts';
import { documentDecider } from '../../src/domain/document/document.ts';
import { DomainError } from '../../src/domain/shared/errors.ts';
import type { BlobStore } from '../../src/ports/blob-store.ts';
import type { Attachment } from '../../src/ports/document-parser.ts';
import type { MediaTypeDetector } from '../../src/ports/media-type-detector.ts';

/** `detectMediaType` types an attachment by its bytes, as an upload's are. */
export type AttachmentDeps = { ctx: AppContext; blobs: BlobStore; detectMediaType: MediaTypeDetector; maxUploadBytes: number };

/** Made documents, each with its bytes' hash (to release the content on deletion), and notes for the email's warnings. */
export type AddedAttachments = { added: { documentId: string; sha256: string }[]; warnings: string[] };

/**
 * The document id of an email's attachment: derived from the email's and the attachment's place
 * in it, so a parse run again (a retry, a redelivery) finds the documents it made before.
 */
export const attachmentDocumentId = (parentId: string, index: number) => `${parentId}_att${index + 1}`;

/**
 * Adds each attachment in a supported format as a document of its own in the email's knowledge
 * base, linked to it, with its metadata and chunking: the same checks as an upload (the size
 * limit, detection by the bytes), the same content rule (bytes already held by a document stay that
 * document). What is not added is said in the returned warnings.
 */
export async function addAttachments(deps: AttachmentDeps, parent: EventData<'DocumentUploaded'>, attachments: Attachment[]): Promise<AddedAttachments> {
  const result: AddedAttachments = { added: [], warnings: [] };
  for (const [index, attachment] of attachments.entries()) {
    const why = await addOne(deps, parent, attachment, attachmentDocumentId(parent.document_id, index), result);
    if (why) result.warnings.push(`Attachment "${attachment.name}" ${why}`);
  }
  return result;
}

async function addOne({ ctx, blobs, detectMediaType, maxUploadBytes }: AttachmentDeps, parent: EventData<'DocumentUploaded'>, attachment: Attachment, id: string, result: AddedAttachments) {
  const { name, bytes } = attachment;
  if (bytes.length > maxUploadBytes) return `was not added: it is ${bytes.length} bytes; the upload limit is ${maxUploadBytes}.`;
  const detected = await detect(detectMediaType, name, bytes);
  if (!detected.ok) return `was not added: ${detected.message}`;
  const blob = await blobs.put(Readable.from([Buffer.from(bytes)]), { maxBytes: maxUploadBytes });
  const metadata = commandMetadata(ctx, 'parser');
  const kb = parent.knowledge_base_id;
  const holder = await claimContent(ctx, { knowledgeBaseId: kb, sha256: blob.sha256, documentId: id }, metadata);
  if (holder !== id) return `is already in the knowledge base as document ${holder}.`;
  try {
    await handleCommand(ctx.store, documentDecider, id, {
      type: 'UploadDocument',
      data: {
        document_id: id,
        knowledge_base_id: kb,
        workspace_id: parent.workspace_id,
        name,
        media_type: detected.mediaType,
        size_bytes: blob.sizeBytes,
        sha256: blob.sha256,
        metadata: parent.metadata,
        chunking: parent.chunking,
        ...(parent.ocr_languages ? { ocr_languages: parent.ocr_languages } : {}),
        parent_document_id: parent.document_id,
      },
      metadata,
    });
  } catch (error) {
    // Made by an earlier attempt at this parse.
    if (!(error instanceof DomainError) || error.code !== 'document_exists') throw error;
  }
  result.added.push({ documentId: id, sha256: blob.sha256 });
  return undefined;
}

/** Detection reads a file: the attachment goes to a private temporary one under its own name. */
async function detect(detectMediaType: MediaTypeDetector, name: string, bytes: Uint8Array) {
  const dir = await mkdtemp(join(tmpdir(), 'kbqa-attachment-'));
  try {
    const path = join(dir, 'file');
    await writeFile(path, bytes);
    return await detectMediaType(path, name);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
