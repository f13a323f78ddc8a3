import type { z } from 'zod';
import { documentEvents } from '../../../schemas/events/document.ts';
import type { DocumentStatus } from '../../../schemas/lifecycles.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, missing } from '../shared/errors.ts';
import { type DocumentFailureCode, failureReport } from './failures.ts';
import { nameKeyOf } from './name-claim.ts';

type Events = typeof documentEvents;
type Data<K extends keyof Events> = z.infer<Events[K]>;
export type DocumentEvent = { [K in keyof Events]: { type: K; data: Data<K> } }[keyof Events];

/** `version` on a parse or index command: the version it works on (absent: 1, as in events). */
type OfVersion = { version?: number };

export type DocumentCommand =
  | Command<'UploadDocument', Omit<Data<'DocumentUploaded'>, 'uploaded_at'>>
  | Command<'AddVersion', Omit<Data<'DocumentVersionAdded'>, 'version' | 'knowledge_base_id' | 'added_at'>>
  | Command<'StartParsing', { document_id: string } & OfVersion>
  | Command<
      'RecordParse',
      Omit<Data<'DocumentParsed'>, 'knowledge_base_id' | 'parsed_at'>
    >
  | Command<'RecordIndexed', { document_id: string; entity_count: number; embedding_model: string; index_ms: number; reused_chunk_count?: number } & OfVersion>
  | Command<'FailDocument', { document_id: string; stage: Data<'DocumentFailed'>['stage']; code: DocumentFailureCode; detail?: string } & OfVersion>
  /** Retention: purge the versions older than the newest `keep` up to the current one (issue 44, keep_versions). */
  | Command<'PurgeVersions', { document_id: string; keep: number }>
  | Command<'DeleteDocument', { document_id: string; workspace_id: string }>
  | Command<'UpdateDocumentMetadata', { document_id: string; workspace_id: string; metadata: Data<'DocumentMetadataUpdated'>['metadata'] }>;

export type DocumentState =
  | { status: 'absent' }
  | { status: 'deleted' }
  | {
      /** The processing of the newest version. */
      status: DocumentStatus;
      workspaceId: string;
      knowledgeBaseId: string;
      /** The newest version's bytes. */
      sha256: string;
      /** Parse attempts over all versions: each attempt's chunk stream is named by it, so it never repeats. */
      attempt: number;
      batchCount: number;
      chunkCount: number;
      /** The newest version (1 for a document without DocumentVersionAdded). */
      version: number;
      /** The version that answers, 0 until one is indexed; its chunk count. */
      currentVersion: number;
      currentChunkCount: number;
      /** Every version's bytes, by version - 1: what a deletion releases, and what "same bytes" compares. */
      shas: string[];
      /** The name (or external id) key the document may hold a claim on (name-claim.ts): its deletion releases it. */
      nameKey: string;
      /** Versions retention purged (absent: none). */
      purged?: number[];
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
      case 'AddVersion':
        return addVersion(owned(state, command.data), command.data, now);
      case 'StartParsing':
        return startParsing(live(state, command.data.document_id), command.data, now);
      case 'RecordParse': {
        const doc = live(state, command.data.document_id);
        if (doc.status !== 'parsing') throw conflict('not_parsing', `document ${command.data.document_id} is ${doc.status}`);
        // The chunks are already in the attempt's own stream; this names it, and commits the parse.
        const { attempt, version: _v, ...rest } = command.data;
        if (attempt < 1 || attempt > doc.attempt) throw conflict('unknown_attempt', `document ${command.data.document_id} has no parse attempt ${attempt}`);
        if ((command.data.version ?? 1) !== doc.version) throw conflict('version_replaced', `document ${command.data.document_id} has a newer version than ${command.data.version ?? 1}`);
        return [{ type: 'DocumentParsed', data: { ...rest, ...versionOf(doc.version), attempt, knowledge_base_id: doc.knowledgeBaseId, parsed_at: now } }];
      }
      case 'RecordIndexed':
        return recordIndexed(live(state, command.data.document_id), command.data, now);
      case 'FailDocument':
        return fail(live(state, command.data.document_id), command.data, now);
      case 'PurgeVersions':
        return isLive(state) ? purgeVersions(state, command.data, now) : [];
      case 'DeleteDocument': {
        const doc = owned(state, command.data);
        return [
          {
            type: 'DocumentDeleted',
            data: {
              ...ids(doc, command.data.document_id),
              batch_count: doc.batchCount,
              indexed_chunk_count: doc.currentVersion > 0 ? doc.currentChunkCount : 0,
              sha256: doc.sha256,
              ...(doc.shas.length > 1 && { version_sha256s: doc.shas }),
              name_key: doc.nameKey,
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
          version: 1,
          currentVersion: 0,
          currentChunkCount: 0,
          shas: [event.data.sha256],
          nameKey: nameKeyOf(event.data),
        };
      case 'DocumentVersionAdded':
        return withLive(state, (doc) => ({ ...doc, status: 'queued', sha256: event.data.sha256, version: event.data.version, batchCount: 0, chunkCount: 0, shas: [...doc.shas, event.data.sha256] }));
      case 'DocumentVersionSuperseded':
        return state;
      case 'DocumentVersionPurged':
        return withLive(state, (doc) => ({ ...doc, purged: [...(doc.purged ?? []), event.data.version] }));
      case 'DocumentParsingStarted':
        return withLive(state, (doc) => ({ ...doc, status: 'parsing', attempt: event.data.attempt }));
      case 'DocumentParsed':
        return withLive(state, (doc) => ({ ...doc, status: 'indexing', batchCount: event.data.batch_count, chunkCount: event.data.chunk_count }));
      case 'DocumentIndexed':
        return withLive(state, (doc) => ({ ...doc, status: 'ready', currentVersion: event.data.version ?? 1, currentChunkCount: doc.chunkCount }));
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

type DataOf<T extends DocumentCommand['type']> = Extract<DocumentCommand, { type: T }>['data'];

function startParsing(doc: Live, data: DataOf<'StartParsing'>, now: string): DocumentEvent[] {
  // An older version's upload, redelivered or overtaken by a newer one, is not parsed.
  if ((data.version ?? 1) !== doc.version) return [];
  // A parse that was cut short (the process died) starts again as a new attempt.
  if (doc.status !== 'queued' && doc.status !== 'parsing') return [];
  return [{ type: 'DocumentParsingStarted', data: { ...ids(doc, data.document_id), ...versionOf(doc.version), attempt: doc.attempt + 1, started_at: now } }];
}

function fail(doc: Live, data: DataOf<'FailDocument'>, now: string): DocumentEvent[] {
  if (doc.status === 'ready' || doc.status === 'failed') return [];
  // A failure found in an older version's work (one a newer version overtook) is not the document's.
  if (data.version !== undefined && data.version !== doc.version) return [];
  // The catalogue words it: one voice for every failure, whoever found it. The current version, if any, keeps answering.
  const { stage, code, detail } = data;
  return [{ type: 'DocumentFailed', data: { ...ids(doc, data.document_id), ...versionOf(doc.version), stage, ...failureReport(code, detail), failed_at: now } }];
}

function addVersion(doc: Live, data: DataOf<'AddVersion'>, now: string): DocumentEvent[] {
  // The bytes of the newest version (answering or on its way) again: nothing new, as a re-upload of the same file.
  if (data.sha256 === doc.sha256) return [];
  return [{ type: 'DocumentVersionAdded', data: { ...data, knowledge_base_id: doc.knowledgeBaseId, version: doc.version + 1, added_at: now } }];
}

/**
 * The current version and the `keep - 1` before it stay; every older version not purged yet goes,
 * oldest first. Versions newer than the current one (in flight, or failed) are never purged: the
 * newest failed upload is what a user fixes next.
 */
function purgeVersions(doc: Live, data: DataOf<'PurgeVersions'>, now: string): DocumentEvent[] {
  if (doc.currentVersion === 0 || data.keep < 1) return [];
  const purged = new Set(doc.purged ?? []);
  const older = Array.from({ length: doc.currentVersion - 1 }, (_, i) => i + 1).filter((v) => !purged.has(v));
  const gone = older.slice(0, Math.max(0, older.length - (data.keep - 1)));
  return gone.map((version) => ({ type: 'DocumentVersionPurged', data: { ...ids(doc, data.document_id), version, purged_at: now } }));
}

function recordIndexed(doc: Live, data: DataOf<'RecordIndexed'>, now: string): DocumentEvent[] {
  if (doc.status !== 'indexing' || (data.version ?? 1) !== doc.version) return [];
  const reused = doc.version > 1 ? { reused_chunk_count: data.reused_chunk_count ?? 0 } : {};
  const indexed: DocumentEvent = {
    type: 'DocumentIndexed',
    data: { ...ids(doc, data.document_id), ...versionOf(doc.version), chunk_count: doc.chunkCount, ...reused, ...pick(data), indexed_at: now },
  };
  // The switch is recorded with the indexing it follows: one append, so nothing sees one without the other.
  if (doc.currentVersion === 0) return [indexed];
  return [indexed, { type: 'DocumentVersionSuperseded', data: { ...ids(doc, data.document_id), version: doc.currentVersion, superseded_by: doc.version, superseded_at: now } }];
}

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

/** The version field of an event: absent for version 1, so a document that never changes records what it always did. */
export const versionOf = (version: number): { version?: number } => (version > 1 ? { version } : {});

const ids = (doc: Live, documentId: string) => ({ document_id: documentId, knowledge_base_id: doc.knowledgeBaseId });

const pick = ({ entity_count, embedding_model, index_ms }: { entity_count: number; embedding_model: string; index_ms: number }) => ({
  entity_count,
  embedding_model,
  index_ms,
});
