import { contentClaimDecider, contentKey } from '../domain/document/content-claim.ts';
import type { CommandMetadata } from '../domain/shared/decider.ts';
import { handleCommand } from './command-handler.ts';
import type { AppContext } from './context.ts';

export type ContentClaim = { knowledgeBaseId: string; sha256: string; documentId: string };

/**
 * Claims a knowledge base's bytes for a document and says who holds them: `documentId` when the
 * claim is its own (also when it already was: a retry), else the document that holds them. A
 * holder whose document is gone (a crash between its deletion and the release) is released first.
 */
export async function claimContent(ctx: AppContext, { knowledgeBaseId, sha256, documentId }: ContentClaim, metadata: CommandMetadata): Promise<string> {
  const run = (type: 'ClaimContent' | 'ReleaseContent', holder: string) =>
    handleCommand(ctx.store, contentClaimDecider, contentKey(knowledgeBaseId, sha256), {
      type,
      data: { knowledge_base_id: knowledgeBaseId, sha256, document_id: holder },
      metadata,
    });
  let holder = (await run('ClaimContent', documentId)).state.holder ?? documentId;
  if (holder !== documentId && !(await ctx.readModels.get('documents', holder))) {
    await run('ReleaseContent', holder);
    holder = (await run('ClaimContent', documentId)).state.holder ?? documentId;
  }
  return holder;
}
