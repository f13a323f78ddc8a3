import type { EventData } from '../../schemas/events/index.ts';
import type { DocumentDoc, DocumentVersionDoc } from '../../schemas/read-models/documents.ts';
import type { KnowledgeBaseTotals } from '../../schemas/read-models/knowledge-bases.ts';
import { reportOfRecorded } from '../../src/domain/document/failures.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { DocumentDoc };

export const KNOWLEDGE_BASE_TOTALS = 'knowledge_base_totals';

export type { KnowledgeBaseTotals };

/** The status a client polls: queued → parsing → indexing → ready | failed. */
export const documentsProjection = defineProjection<DocumentDoc>()({
  collection: 'documents',
  eventTypes: ['DocumentUploaded', 'DocumentVersionAdded', 'DocumentVersionSuperseded', 'DocumentVersionPurged', 'DocumentParsingStarted', 'DocumentParsed', 'DocumentIndexed', 'DocumentFailed', 'DocumentDeleted', 'DocumentMetadataUpdated'],
  // Every document counts toward its knowledge base; its chunks count once it is ready (searchable).
  totals: {
    collection: KNOWLEDGE_BASE_TOTALS,
    contribution: (doc) => ({ id: doc.knowledge_base_id, fields: { document_count: 1, chunk_count: answeringChunks(doc) } }),
  },
  idsOf: (event) => [event.data.document_id],
  evolve(doc, event) {
    switch (event.type) {
      case 'DocumentUploaded':
        return uploaded(event.data);
      case 'DocumentVersionAdded':
        return doc && versionAdded(doc, event.data);
      case 'DocumentVersionSuperseded':
      case 'DocumentVersionPurged':
        return doc && versionRetired(doc, event);
      case 'DocumentParsingStarted':
        return doc && parsingStarted(doc, event.data);
      case 'DocumentParsed': {
        const d = event.data;
        return (
          doc && {
            ...doc,
            status: 'indexing',
            media_type: d.media_type,
            page_count: d.page_count,
            page_estimated: d.page_estimated ?? false,
            chunk_count: d.chunk_count,
            ocr_pages: d.ocr_pages,
            warnings: d.warnings,
            versions: withVersion(doc, d.version ?? 1, (v) => ({ ...v, status: 'indexing', media_type: d.media_type, page_count: d.page_count, chunk_count: d.chunk_count })),
            timings: { ...doc.timings, parse_ms: d.parse_ms, parsed_at: d.parsed_at },
            updated_at: d.parsed_at,
          }
        );
      }
      case 'DocumentIndexed':
        return doc && indexed(doc, event.data);
      case 'DocumentFailed':
        return doc && failed(doc, event.data);
      case 'DocumentDeleted':
        return null;
      case 'DocumentMetadataUpdated':
        return doc && { ...doc, metadata: event.data.metadata, updated_at: event.data.updated_at };
      default:
        return assertNever(event);
    }
  },
});

function parsingStarted(doc: DocumentDoc, d: EventData<'DocumentParsingStarted'>): DocumentDoc {
  return {
    ...doc,
    status: 'parsing',
    versions: withVersion(doc, d.version ?? 1, (v) => ({ ...v, status: 'parsing' })),
    timings: { ...doc.timings, parsing_started_at: d.started_at },
    updated_at: d.started_at,
  };
}

/** A version no longer answers: replaced by a newer one, or purged by retention (keep_versions). */
function versionRetired(doc: DocumentDoc, event: { type: 'DocumentVersionSuperseded'; data: EventData<'DocumentVersionSuperseded'> } | { type: 'DocumentVersionPurged'; data: EventData<'DocumentVersionPurged'> }): DocumentDoc {
  if (event.type === 'DocumentVersionSuperseded') {
    const d = event.data;
    return { ...doc, versions: withVersion(doc, d.version, (v) => ({ ...v, status: 'superseded', superseded_at: d.superseded_at })), updated_at: d.superseded_at };
  }
  const d = event.data;
  return { ...doc, versions: withVersion(doc, d.version, (v) => ({ ...v, status: 'purged', purged_at: d.purged_at })), updated_at: d.purged_at };
}

/** The chunks a document answers with: its current version's (0 before one is ready). */
function answeringChunks(doc: DocumentDoc): number {
  if (!doc.versions) return doc.status === 'ready' ? (doc.chunk_count ?? 0) : 0;
  const current = doc.versions.find((v) => v.version === doc.current_version);
  return current?.chunk_count ?? 0;
}

/** The version that answers, 0 before one is ready (a document projected before versions: 1 once ready). */
export const currentVersionOf = (doc: DocumentDoc): number => doc.current_version ?? (doc.status === 'ready' ? 1 : 0);

/** The document's fields describe its newest version, as `status` does; the current one keeps answering meanwhile. */
/** The newest version failed; the current one, if any, keeps answering. In today's words, an event recorded before the catalogue too (domain/document/failures.ts). */
function failed(doc: DocumentDoc, d: EventData<'DocumentFailed'>): DocumentDoc {
  return { ...doc, status: 'failed', error: { stage: d.stage, ...reportOfRecorded(d) }, versions: withVersion(doc, d.version ?? 1, (v) => ({ ...v, status: 'failed' })), updated_at: d.failed_at };
}

/** The indexed version answers from now on. */
function indexed(doc: DocumentDoc, d: EventData<'DocumentIndexed'>): DocumentDoc {
  const version = d.version ?? 1;
  return {
    ...doc,
    status: 'ready',
    current_version: version,
    versions: withVersion(doc, version, (v) => ({ ...v, status: 'ready', reused_chunk_count: d.reused_chunk_count ?? 0, index_ms: d.index_ms, current_from: d.indexed_at })),
    timings: { ...doc.timings, index_ms: d.index_ms, indexed_at: d.indexed_at },
    updated_at: d.indexed_at,
  };
}

function versionAdded(doc: DocumentDoc, d: EventData<'DocumentVersionAdded'>): DocumentDoc {
  return {
    ...doc,
    name: d.name,
    media_type: d.media_type,
    size_bytes: d.size_bytes,
    sha256: d.sha256,
    status: 'queued',
    chunking: d.chunking,
    page_count: null,
    page_estimated: false,
    chunk_count: null,
    ocr_pages: [],
    warnings: [],
    error: null,
    timings: { parse_ms: null, index_ms: null, parsing_started_at: null, parsed_at: null, indexed_at: null },
    version: d.version,
    current_version: currentVersionOf(doc),
    versions: [...versionsOf(doc), versionEntry({ ...d, uploaded_by: d.uploaded_by, at: d.added_at })],
    updated_at: d.added_at,
  };
}

type VersionFacts = Pick<DocumentVersionDoc, 'version' | 'name' | 'media_type' | 'size_bytes' | 'sha256' | 'uploaded_by'> & { at: string };

function versionEntry({ version, name, media_type, size_bytes, sha256, uploaded_by, at }: VersionFacts): DocumentVersionDoc {
  return {
    version,
    name,
    media_type,
    size_bytes,
    sha256,
    uploaded_by,
    status: 'queued',
    page_count: null,
    chunk_count: null,
    reused_chunk_count: null,
    index_ms: null,
    created_at: at,
    current_from: null,
    superseded_at: null,
  };
}

/** A document's versions; one projected before issue 44 had only its first, described by its own fields. */
export function versionsOf(doc: DocumentDoc): DocumentVersionDoc[] {
  if (doc.versions) return doc.versions;
  const first = versionEntry({ ...doc, version: 1, uploaded_by: null, at: doc.created_at });
  const status = doc.status === 'ready' ? 'ready' : doc.status;
  return [
    { ...first, status, page_count: doc.page_count, chunk_count: doc.chunk_count, reused_chunk_count: doc.status === 'ready' ? 0 : null, index_ms: doc.timings.index_ms, current_from: doc.timings.indexed_at },
  ];
}

function withVersion(doc: DocumentDoc, version: number, change: (v: DocumentVersionDoc) => DocumentVersionDoc): DocumentVersionDoc[] {
  return versionsOf(doc).map((v) => (v.version === version ? change(v) : v));
}

function uploaded(d: EventData<'DocumentUploaded'>): DocumentDoc {
  return {
    id: d.document_id,
    object: 'document',
    workspace_id: d.workspace_id,
    knowledge_base_id: d.knowledge_base_id,
    name: d.name,
    media_type: d.media_type,
    size_bytes: d.size_bytes,
    sha256: d.sha256,
    status: 'queued',
    metadata: d.metadata,
    chunking: d.chunking,
    ...(d.parent_document_id ? { parent_document_id: d.parent_document_id } : {}),
    page_count: null,
    chunk_count: null,
    ocr_pages: [],
    warnings: [],
    error: null,
    timings: { parse_ms: null, index_ms: null, parsing_started_at: null, parsed_at: null, indexed_at: null },
    ...(d.external_id !== undefined && { external_id: d.external_id }),
    version: 1,
    current_version: 0,
    versions: [versionEntry({ ...d, version: 1, uploaded_by: d.uploaded_by ?? null, at: d.uploaded_at })],
    created_at: d.uploaded_at,
    updated_at: d.uploaded_at,
  };
}
