import { randomUUID } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRecordedEvent, type RecordedEvent } from '../../schemas/events/recorded.ts';
import { JSON_SCHEMA_DIR } from '../../scripts/generate-json-schemas.ts';
import { tempDir } from './temp.ts';

/**
 * A copy of schemas/json whose documents topic is named `topic`, so the Python subscriber reads a
 * topic of a test's own (nothing malformed reaches the contract's topics and the service's groups).
 */
export function schemasNamingDocumentsTopic(topic: string): { path: string; remove: () => void } {
  const dir = tempDir('kbqa-schemas-');
  cpSync(JSON_SCHEMA_DIR, dir.path, { recursive: true });
  const index = JSON.parse(readFileSync(join(dir.path, 'index.json'), 'utf8'));
  index.topics = { [topic]: index.topics['kbqa.document'] };
  writeFileSync(join(dir.path, 'index.json'), JSON.stringify(index));
  return dir;
}

const AT = '2026-11-28T12:00:00.000Z';

/** A document's four events from upload to ready, as the log records them (each parsed by its schema). */
export function documentLifecycle(documentId: string, firstPosition = 1): RecordedEvent[] {
  const ids = { document_id: documentId, knowledge_base_id: 'kb_downstream' };
  const steps: [string, Record<string, unknown>][] = [
    ['DocumentUploaded', {
      ...ids, workspace_id: 'default', name: 'tides.md', media_type: 'text/markdown', size_bytes: 78,
      sha256: 'c8996810f0f01758140da57a689eca512c8b6741c5349732e7773f5f7d568a6c', metadata: { team: 'ocean' },
      chunking: { max_tokens: 512, overlap_tokens: 64 }, uploaded_at: AT,
    }],
    ['DocumentParsingStarted', { ...ids, attempt: 1, started_at: AT }],
    ['DocumentParsed', {
      ...ids, attempt: 1, media_type: 'text/markdown', page_count: 1, chunk_count: 1, batch_count: 1, ocr_pages: [], warnings: [], parse_ms: 12, parsed_at: AT,
    }],
    ['DocumentIndexed', { ...ids, chunk_count: 1, entity_count: 2, embedding_model: 'kbqa-hash-embed-512', index_ms: 9, indexed_at: AT }],
  ];
  return steps.map(([type, data], revision) => {
    const parsed = parseRecordedEvent({
      id: randomUUID(), type, streamId: `document-${documentId}`, revision, position: BigInt(firstPosition + revision), data, metadata: { schemaVersion: 1 }, recordedAt: AT,
    });
    if (!parsed.ok) throw new Error(`fixture ${type}: ${parsed.problem}`);
    return parsed.event;
  });
}
