import { nameClaimDecider, nameClaimStreamKey } from '../domain/document/name-claim.ts';
import type { CommandMetadata } from '../domain/shared/decider.ts';
import { documentDecider } from '../domain/document/document.ts';
import { foldStream, handleCommand } from './command-handler.ts';
import type { AppContext } from './context.ts';

export type NameClaim = { knowledgeBaseId: string; key: string; documentId: string };

const run = (ctx: AppContext, type: 'ClaimName' | 'ReleaseName', { knowledgeBaseId, key, documentId }: NameClaim, metadata: CommandMetadata) =>
  handleCommand(ctx.store, nameClaimDecider, nameClaimStreamKey(knowledgeBaseId, key), {
    type,
    data: { knowledge_base_id: knowledgeBaseId, key, document_id: documentId },
    metadata,
  });

/**
 * Claims a knowledge base's name (or external id) key for a document and says who holds it:
 * `documentId` when the claim is its own, else the live document that holds it. A holder whose
 * document is gone (a crash between its deletion and the release) is released first, as content
 * claims do.
 */
export async function claimName(ctx: AppContext, claim: NameClaim, metadata: CommandMetadata): Promise<string> {
  let holder = (await run(ctx, 'ClaimName', claim, metadata)).state.holder ?? claim.documentId;
  if (holder !== claim.documentId && !(await isLive(ctx, holder))) {
    await run(ctx, 'ReleaseName', { ...claim, documentId: holder }, metadata);
    holder = (await run(ctx, 'ClaimName', claim, metadata)).state.holder ?? claim.documentId;
  }
  return holder;
}

/** From the log, not a read model: a document uploaded a moment ago is live before any projection shows it. */
async function isLive(ctx: AppContext, documentId: string): Promise<boolean> {
  const streamId = documentDecider.streamId(documentId);
  const state = foldStream(documentDecider, streamId, await ctx.store.readStream(streamId));
  return 'workspaceId' in state;
}

/** Gives the key back, if `documentId` holds it. */
export async function releaseName(ctx: AppContext, claim: NameClaim, metadata: CommandMetadata): Promise<void> {
  await run(ctx, 'ReleaseName', claim, metadata);
}
