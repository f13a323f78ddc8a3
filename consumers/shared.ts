import type { Logger } from 'pino';
import type { EventType } from '../schemas/events/index.ts';
import { hasType, type RecordedEvent } from '../schemas/events/recorded.ts';
import { handleCommand } from '../src/app/command-handler.ts';
import { type AppContext, commandMetadata } from '../src/app/context.ts';
import { documentDecider } from '../src/domain/document/document.ts';
import type { DocumentFailureCode } from '../src/domain/document/failures.ts';
import { DomainError } from '../src/domain/shared/errors.ts';
import type { ConsumerGroup } from '../src/ports/event-bus.ts';

/** A consumer group over the events of the types it lists, typed by them. */
export type ConsumerSpec<T extends EventType> = {
  name: string;
  eventTypes: readonly T[];
  batchSize?: number;
  inFlight?: number;
  handle(batch: RecordedEvent<T>[]): Promise<void>;
  onStop?(): void;
  onParked?(event: RecordedEvent<T>, error: unknown): Promise<void>;
  onUnreadable?(streamId: string, error: unknown): Promise<void>;
};

/**
 * The bus delivers a group only the types it subscribed to; the handlers here see exactly those,
 * typed, so their switches over `event.type` end in an exhaustive `never` check.
 */
export function defineConsumer<const T extends EventType>(spec: ConsumerSpec<T>): ConsumerGroup {
  const types: ReadonlySet<T> = new Set(spec.eventTypes);
  const { onParked } = spec;
  return {
    name: spec.name,
    eventTypes: types,
    ...(spec.batchSize !== undefined && { batchSize: spec.batchSize }),
    ...(spec.inFlight !== undefined && { inFlight: spec.inFlight }),
    handle: (batch) => spec.handle(batch.filter((event) => hasType(types, event))),
    ...(onParked && { onParked: async (event: RecordedEvent, error: unknown) => (hasType(types, event) ? onParked(event, error) : undefined) }),
    ...(spec.onUnreadable && { onUnreadable: spec.onUnreadable }),
    ...(spec.onStop && { onStop: spec.onStop }),
  };
}

/** Where a consumer reports the documents it failed. */
export type FailureLog = Pick<Logger, 'warn'>;

/**
 * Marks a document failed; a document already finished or deleted stays as it is. A failure that
 * was recorded is one warn line with its code and no stack: a bad file is the uploader's problem,
 * and an unexpected error (`internal_error`, after a parked event) has had its stack logged at
 * error by the bus already.
 */
/** `version`: the version whose work failed (absent: whichever is newest); a failure of an overtaken version is dropped. */
export type DocumentFailure = { stage: 'parsing' | 'indexing'; code: DocumentFailureCode; detail?: string | undefined; version?: number | undefined };

export async function failDocument(ctx: AppContext, documentId: string, { stage, code, detail, version }: DocumentFailure, log?: FailureLog): Promise<void> {
  try {
    const { events } = await handleCommand(ctx.store, documentDecider, documentId, {
      type: 'FailDocument',
      data: { document_id: documentId, stage, code, ...(detail !== undefined && { detail }), ...(version !== undefined && { version }) },
      metadata: commandMetadata(ctx, stage === 'parsing' ? 'parser' : 'indexer'),
    });
    for (const event of events) {
      if (event.type !== 'DocumentFailed') continue;
      // The detail unscrubbed: the operator may need the path the library named.
      log?.warn({ documentId, knowledgeBaseId: event.data.knowledge_base_id, stage, code, reason: detail ?? event.data.message }, 'document failed');
    }
  } catch (error) {
    // The shell has decided again after any conflict (CONFLICT_RETRY); one that outlasts it goes to the bus.
    if (error instanceof DomainError) return;
    throw error;
  }
}
