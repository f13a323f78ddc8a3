import type { z } from 'zod';
import { documentEvents } from '../../../schemas/events/document.ts';
import type { DocumentStatus } from '../../../schemas/lifecycles.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, missing } from '../shared/errors.ts';
import { type DocumentFailureCode, failureReport } from './failures.ts';

type Events = typeof documentEvents;
type Data<K extends keyof Events> = z.infer<Events[K]>;
export type DocumentEvent = { [K in keyof Events]: { type: K; data: Data<K> } }[keyof Events];

export type DocumentCommand =
  | Command<'UploadDocument', Omit<Data<'DocumentUploaded'>, 'uploaded_at'>>
  | Command<'StartParsing', { document_id: string }>
  | Command<
      'RecordParse',
      Omit<Data<'DocumentParsed'>, 'knowledge_base_id' | 'parsed_at'>
    >
  | Command<'RecordIndexed', { document_id: string; entity_count: number; embedding_model: string; index_ms: number }>
  | Command<'FailDocument', { document_id: string; stage: Data<'DocumentFailed'>['stage']; code: DocumentFailureCode; detail?: string }>
  | Command<'DeleteDocument', { document_id: string; workspace_id: string }>
  | Command<'UpdateDocumentMetadata', { document_id: string; workspace_id: string; metadata: Data<'DocumentMetadataUpdated'>['metadata'] }>;

export type DocumentState =
  | { status: 'absent' }
  | { status: 'deleted' }
  | {
      status: DocumentStatus;
      workspaceId: string;
      knowledgeBaseId: string;
      sha256: string;
      attempt: number;
      batchCount: number;
      chunkCount: number;
    };

type Live = Extract<DocumentState, { workspaceId: string }>;

const isLive = (state: DocumentState): state is Live => 'workspaceId' in state;

export const documentDecider: Decider<DocumentState, DocumentCommand, DocumentEvent> = {
  initialState: () => ({ status: 'absent' }),
  streamId: (id) => `document-${id}`,
  isEvent: eventsOf(documentEvents),
  // Chunk batches lived in the document's stream until issue 13; such streams still fold.
  isRetired: (event) => event.type === 'DocumentChunksExtracted',
  decide(command, state) {
    const now = command.metadata.now;
    switch (command.type) {
      case 'UploadDocument':
        if (isLive(state)) throw conflict('document_exists', `document ${command.data.document_id} exists`);
        return [{ type: 'DocumentUploaded', data: { ...command.data, uploaded_at: now } }];
      case 'StartParsing': {
        const doc = live(state, command.data.document_id);
        // A parse that was cut short (the process died) starts again as a new attempt.
        if (doc.status !== 'queued' && doc.status !== 'parsing') return [];
        return [{ type: 'DocumentParsingStarted', data: { ...ids(doc, command.data.document_id), attempt: doc.attempt + 1, started_at: now } }];
      }
      case 'RecordParse': {
        const doc = live(state, command.data.document_id);
        if (doc.status !== 'parsing') throw conflict('not_parsing', `document ${command.data.document_id} is ${doc.status}`);
        // The chunks are already in the attempt's own stream; this names it, and commits the parse.
        const { attempt } = command.data;
        if (attempt < 1 || attempt > doc.attempt) throw conflict('unknown_attempt', `document ${command.data.document_id} has no parse attempt ${attempt}`);
        return [{ type: 'DocumentParsed', data: { ...command.data, knowledge_base_id: doc.knowledgeBaseId, parsed_at: now } }];
      }
      case 'RecordIndexed': {
        const doc = live(state, command.data.document_id);
        if (doc.status !== 'indexing') return [];
        return [{ type: 'DocumentIndexed', data: { ...ids(doc, command.data.document_id), chunk_count: doc.chunkCount, ...pick(command.data), indexed_at: now } }];
      }
      case 'FailDocument': {
        const doc = live(state, command.data.document_id);
        if (doc.status === 'ready' || doc.status === 'failed') return [];
        // The catalogue words it: one voice for every failure, whoever found it.
        const { stage, code, detail } = command.data;
        return [{ type: 'DocumentFailed', data: { ...ids(doc, command.data.document_id), stage, ...failureReport(code, detail), failed_at: now } }];
      }
      case 'DeleteDocument': {
        const doc = owned(state, command.data);
        return [
          {
            type: 'DocumentDeleted',
            data: {
              ...ids(doc, command.data.document_id),
              batch_count: doc.batchCount,
              indexed_chunk_count: doc.status === 'ready' ? doc.chunkCount : 0,
              sha256: doc.sha256,
              deleted_at: now,
            },
          },
        ];
      }
      case 'UpdateDocumentMetadata':
        return [metadataUpdated(state, command.data, now)];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'DocumentUploaded':
        return {
          status: 'queued',
          workspaceId: event.data.workspace_id,
          knowledgeBaseId: event.data.knowledge_base_id,
          sha256: event.data.sha256,
          attempt: 0,
          batchCount: 0,
          chunkCount: 0,
        };
      case 'DocumentParsingStarted':
        return withLive(state, (doc) => ({ ...doc, status: 'parsing', attempt: event.data.attempt }));
      case 'DocumentParsed':
        return withLive(state, (doc) => ({ ...doc, status: 'indexing', batchCount: event.data.batch_count, chunkCount: event.data.chunk_count }));
      case 'DocumentIndexed':
        return withLive(state, (doc) => ({ ...doc, status: 'ready' }));
      case 'DocumentFailed':
        return withLive(state, (doc) => ({ ...doc, status: 'failed' }));
      case 'DocumentDeleted':
        return { status: 'deleted' };
      case 'DocumentMetadataUpdated':
        return state;
      default:
        return assertNever(event);
    }
  },
};

/** The live document a workspace's command addresses; another workspace's answers like a missing one. */
function owned(state: DocumentState, target: { document_id: string; workspace_id: string }): Live {
  if (!isLive(state) || state.workspaceId !== target.workspace_id) throw missing('document', target.document_id);
  return state;
}

function metadataUpdated(state: DocumentState, data: Extract<DocumentCommand, { type: 'UpdateDocumentMetadata' }>['data'], now: string): DocumentEvent {
  return { type: 'DocumentMetadataUpdated', data: { ...ids(owned(state, data), data.document_id), metadata: data.metadata, updated_at: now } };
}

function live(state: DocumentState, id: string): Live {
  if (!isLive(state)) throw missing('document', id);
  return state;
}

function withLive(state: DocumentState, change: (doc: Live) => DocumentState): DocumentState {
  return isLive(state) ? change(state) : state;
}

const ids = (doc: Live, documentId: string) => ({ document_id: documentId, knowledge_base_id: doc.knowledgeBaseId });

const pick = ({ entity_count, embedding_model, index_ms }: { entity_count: number; embedding_model: string; index_ms: number }) => ({
  entity_count,
  embedding_model,
  index_ms,
});
