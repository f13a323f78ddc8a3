import type { DocumentDoc } from '../../projections/documents/index.ts';
import { contentClaimDecider, contentKey } from '../domain/document/content-claim.ts';
import { documentDecider } from '../domain/document/document.ts';
import type { CommandMetadata } from '../domain/shared/decider.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { handleCommand } from './command-handler.ts';
import { releaseName } from './name-claims.ts';
import { type AppContext, settled } from './context.ts';
import type { Written } from './projection-watch.ts';

export type DocumentRef = { documentId: string; knowledgeBaseId: string; workspaceId: string; sha256: string };

/** An email holds at most 50 attachments (src/parsing/web-mail/eml.ts); more found here are not its own. */
const MAX_ATTACHMENTS = 50;

/**
 * Deletes a document and releases its content, so the same bytes may be uploaded again later as
 * a new document. Returns what was written (nothing when it was already gone).
 */
export async function deleteDocument(ctx: AppContext, doc: DocumentRef, metadata: CommandMetadata): Promise<Written[]> {
  const written: Written[] = [];
  // Every version's bytes and the name claim, as the deletion records them (issue 44); the caller's sha256 when it was gone already.
  let shas = [doc.sha256];
  let nameKey: string | null = null;
  try {
    const result = await handleCommand(ctx.store, documentDecider, doc.documentId, { type: 'DeleteDocument', data: { document_id: doc.documentId, workspace_id: doc.workspaceId }, metadata });
    written.push(result);
    for (const event of result.events) {
      if (event.type !== 'DocumentDeleted') continue;
      shas = [...new Set([doc.sha256, ...(event.data.version_sha256s ?? [event.data.sha256])])];
      nameKey = event.data.name_key ?? null;
    }
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind !== 'not_found') throw error;
  }
  for (const sha256 of shas) {
    await handleCommand(ctx.store, contentClaimDecider, contentKey(doc.knowledgeBaseId, sha256), {
      type: 'ReleaseContent',
      data: { knowledge_base_id: doc.knowledgeBaseId, sha256, document_id: doc.documentId },
      metadata,
    });
  }
  if (nameKey !== null) await releaseName(ctx, { knowledgeBaseId: doc.knowledgeBaseId, key: nameKey, documentId: doc.documentId }, metadata);
  return written;
}

/**
 * Deletes the documents made from a document's attachments, and theirs (a forwarded email's), as
 * the read models show them: the caller has waited for them to catch up with the parent's deletion,
 * which comes after its attachments' uploads in the log.
 */
export async function deleteAttachments(ctx: AppContext, parentId: string, metadata: CommandMetadata): Promise<void> {
  const children = await ctx.readModels.find<DocumentDoc>('documents', { where: { parent_document_id: parentId }, limit: MAX_ATTACHMENTS });
  for (const child of children) {
    const written = await deleteDocument(ctx, { documentId: child.id, knowledgeBaseId: child.knowledge_base_id, workspaceId: child.workspace_id, sha256: child.sha256 }, metadata);
    await settled(ctx, ...written);
    await deleteAttachments(ctx, child.id, metadata);
  }
}
