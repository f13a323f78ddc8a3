import test from 'ava';
import type { DocumentDoc } from '../../projections/documents/index.ts';
import { createMetadataCatalog } from '../../src/app/retrieval/metadata-catalog.ts';
import { trustedEvent } from '../../schemas/events/recorded.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';
import type { FindQuery, ReadModelStore } from '../../src/ports/read-models.ts';
import { conditionsAsFilter, type MetadataConditions } from '../../src/domain/retrieval/metadata-filter.ts';

/** The older syntax, as the routes turn it into the grammar; no conditions: every ready document. */
const conditions = (c: MetadataConditions) => conditionsAsFilter(c) ?? { type: 'and' as const, filters: [] };

type Doc = Pick<DocumentDoc, 'id' | 'knowledge_base_id' | 'status' | 'metadata'>;

/** The documents read model as the filter reads it, counting reads; `gate` holds a read until released. */
function documents(docs: Doc[]) {
  const state = { docs, reads: 0, gate: null as Promise<void> | null };
  const readModels = {
    async find(collection: string, query: FindQuery = {}) {
      state.reads++;
      const snapshot = docs.filter((d) => collection === 'documents' && d.knowledge_base_id === query.where?.knowledge_base_id).map((d) => ({ ...d }));
      if (state.gate) await state.gate;
      return snapshot.sort((a, b) => (a.id < b.id ? -1 : 1));
    },
  } as unknown as ReadModelStore;
  return { state, readModels };
}

let position = 0n;
// Only the fields the filter reads: the events are handed over as a store would return them.
const event = (type: string, data: Record<string, unknown>): RecordedEvent =>
  trustedEvent({
    id: `e${++position}`,
    type,
    streamId: `document-${String(data.document_id)}`,
    revision: 0,
    position,
    data: { knowledge_base_id: 'kb1', ...data },
    metadata: { schemaVersion: 1 },
    recordedAt: '2026-01-01T00:00:00.000Z',
  });
const doc = (id: string, metadata: DocumentDoc['metadata'], status: DocumentDoc['status'] = 'ready', kb = 'kb1'): Doc => ({ id, knowledge_base_id: kb, status, metadata });

test('a knowledge base is read once; filters are answered newest first from memory, with lists meaning any of', async (t) => {
  const { state, readModels } = documents([
    doc('doc_1', { team: 'sales', year: 2024 }),
    doc('doc_2', { team: 'ops', year: 2025 }),
    doc('doc_3', { team: 'ops', year: 2024 }, 'indexing'),
    doc('doc_4', { team: 'legal', public: true }),
    doc('doc_9', { team: 'ops' }, 'ready', 'kb2'),
  ]);
  const filter = createMetadataCatalog(readModels, { live: true });
  t.deepEqual(await filter.documentIds('kb1', conditions({ team: 'ops' })), ['doc_2'], 'ready documents only, of this knowledge base');
  t.deepEqual(await filter.documentIds('kb1', conditions({ team: ['sales', 'ops', 'legal'] })), ['doc_4', 'doc_2', 'doc_1']);
  t.deepEqual(await filter.documentIds('kb1', conditions({ team: ['sales', 'ops'], year: 2024 })), ['doc_1'], 'every key must hold');
  t.deepEqual(await filter.documentIds('kb1', conditions({ public: 'true' })), [], 'values compare with their type');
  t.deepEqual(await filter.documentIds('kb1', conditions({ public: true })), ['doc_4']);
  t.deepEqual(await filter.documentIds('kb1', conditions({ missing: 'x' })), []);
  t.is(state.reads, 1);
});

test('projected events keep a loaded knowledge base current: uploads, readiness, failures and deletes', async (t) => {
  const { state, readModels } = documents([doc('doc_1', { team: 'ops' })]);
  const filter = createMetadataCatalog(readModels, { live: true });
  t.deepEqual(await filter.documentIds('kb1', conditions({ team: 'ops' })), ['doc_1']);
  filter.apply([event('DocumentUploaded', { document_id: 'doc_2', metadata: { team: 'ops' } })]);
  t.deepEqual(await filter.documentIds('kb1', conditions({ team: 'ops' })), ['doc_1'], 'not before it is ready');
  filter.apply([event('DocumentParsingStarted', { document_id: 'doc_2' }), event('DocumentParsed', { document_id: 'doc_2' }), event('DocumentIndexed', { document_id: 'doc_2' })]);
  t.deepEqual(await filter.documentIds('kb1', conditions({ team: 'ops' })), ['doc_2', 'doc_1']);
  filter.apply([event('DocumentFailed', { document_id: 'doc_2' }), event('DocumentDeleted', { document_id: 'doc_1' })]);
  t.deepEqual(await filter.documentIds('kb1', conditions({ team: 'ops' })), []);
  filter.apply([event('DocumentUploaded', { document_id: 'doc_3', metadata: { team: 'ops' }, knowledge_base_id: 'kb_other' })]);
  t.is(state.reads, 1, 'events of knowledge bases no filter asked about are ignored');
  filter.apply([event('KnowledgeBaseDeleted', { knowledge_base_id: 'kb1' })]);
  await filter.documentIds('kb1', conditions({ team: 'ops' }));
  t.is(state.reads, 2, 'a deleted knowledge base is forgotten');
});

test('events projected while the read is under way are applied to what it read', async (t) => {
  const { state, readModels } = documents([doc('doc_1', { team: 'ops' }), doc('doc_2', { team: 'ops' }, 'indexing')]);
  let release!: () => void;
  state.gate = new Promise((resolve) => (release = resolve));
  const filter = createMetadataCatalog(readModels, { live: true });
  const pending = filter.documentIds('kb1', conditions({ team: 'ops' }));
  filter.apply([event('DocumentIndexed', { document_id: 'doc_2' }), event('DocumentDeleted', { document_id: 'doc_1' })]);
  release();
  t.deepEqual(await pending, ['doc_2']);
});

test('an upload out of id order still comes out newest first', async (t) => {
  const { readModels } = documents([doc('doc_5', { team: 'ops' })]);
  const filter = createMetadataCatalog(readModels, { live: true });
  await filter.documentIds('kb1', conditions({}));
  filter.apply([
    event('DocumentUploaded', { document_id: 'doc_7', metadata: {} }),
    event('DocumentUploaded', { document_id: 'doc_3', metadata: {} }),
    event('DocumentIndexed', { document_id: 'doc_3' }),
    event('DocumentIndexed', { document_id: 'doc_7' }),
  ]);
  t.deepEqual(await filter.documentIds('kb1', conditions({})), ['doc_7', 'doc_5', 'doc_3']);
});

test('a process that sees no projected events reads the documents for every filter', async (t) => {
  const { state, readModels } = documents([doc('doc_1', { team: 'ops' })]);
  const filter = createMetadataCatalog(readModels, { live: false });
  await filter.documentIds('kb1', conditions({ team: 'ops' }));
  state.docs.push(doc('doc_2', { team: 'ops' }));
  t.deepEqual(await filter.documentIds('kb1', conditions({ team: 'ops' })), ['doc_2', 'doc_1']);
  t.is(state.reads, 2);
});

test('past maxDocuments the least recently filtered knowledge bases are forgotten, never the one in use', async (t) => {
  const { state, readModels } = documents([doc('a1', {}, 'ready', 'kbA'), doc('a2', {}, 'ready', 'kbA'), doc('b1', {}, 'ready', 'kbB'), doc('c1', {}, 'ready', 'kbC')]);
  const filter = createMetadataCatalog(readModels, { live: true, maxDocuments: 3 });
  await filter.documentIds('kbA', conditions({}));
  await filter.documentIds('kbB', conditions({}));
  await filter.documentIds('kbA', conditions({}));
  t.is(state.reads, 2);
  await filter.documentIds('kbC', conditions({}));
  await filter.documentIds('kbA', conditions({}));
  t.is(state.reads, 3, 'A, used more recently than B, stayed');
  await filter.documentIds('kbB', conditions({}));
  t.is(state.reads, 4, 'B was forgotten');
});
