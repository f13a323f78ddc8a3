import type { Logger } from 'pino';
import { handleCommand } from '../src/app/command-handler.ts';
import { type AppContext, commandMetadata } from '../src/app/context.ts';
import { documentDecider } from '../src/domain/document/document.ts';
import { DomainError } from '../src/domain/shared/errors.ts';
import { ConcurrencyError } from '../src/ports/event-store.ts';

/** Where a consumer reports the documents it failed. */
export type FailureLog = Pick<Logger, 'warn'>;

/**
 * Marks a document failed; a document already finished or deleted stays as it is. A failure that
 * was recorded is one warn line with its code and no stack: a bad file is the uploader's problem,
 * and an unexpected error (`internal_error`, after a parked event) has had its stack logged at
 * error by the bus already.
 */
export async function failDocument(ctx: AppContext, documentId: string, stage: 'parsing' | 'indexing', code: string, message: string, log?: FailureLog): Promise<void> {
  try {
    const { events } = await handleCommand(ctx.store, documentDecider, documentId, {
      type: 'FailDocument',
      data: { document_id: documentId, stage, code, message },
      metadata: commandMetadata(ctx, stage === 'parsing' ? 'parser' : 'indexer'),
    });
    for (const event of events) {
      if (event.type !== 'DocumentFailed') continue;
      log?.warn({ documentId, knowledgeBaseId: event.data.knowledge_base_id, stage, code, reason: message }, 'document failed');
    }
  } catch (error) {
    if (error instanceof DomainError) return;
    if (error instanceof ConcurrencyError) return failDocument(ctx, documentId, stage, code, message, log);
    throw error;
  }
}
