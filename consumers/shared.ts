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

/** Runs `fn` over the items with at most `limit` in flight; rejects with the first error after all settle. */
export async function mapConcurrently<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item).catch((error: unknown) => errors.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (errors.length > 0) throw errors[0];
}
