import { join } from 'node:path';
import { type DocumentDoc, documentsProjection, KNOWLEDGE_BASE_TOTALS } from '../projections/documents/index.ts';
import type { KnowledgeBaseDoc } from '../projections/knowledge-bases/index.ts';
import { openSqlite } from '../src/adapters/sqlite/database.ts';
import { createSqliteReadModelStore } from '../src/adapters/sqlite/read-model-store.ts';
import { createIdGenerator } from '../src/app/ids.ts';
import { withTotals } from '../src/app/services/knowledge-base-totals.ts';
import type { ReadModelWrite } from '../src/ports/read-models.ts';
import { at, kbCreated } from './fixtures.ts';
import { latencySummary, log, seededRandom, timed, withTempDir } from './util.ts';

/**
 * What the distributed profile costs in CPU, with no broker: document and chunk totals kept apart from the knowledge bases.
 */

const CALLS = 200;
const BACKGROUND = { knowledge_bases: 100, documents_each: 100 };
const TOTALS_TARGET_P50_MS = 5;
const STATUSES: readonly [DocumentDoc['status'], number][] = [['ready', 0.85], ['failed', 0.05], ['indexing', 0.04], ['parsing', 0.03], ['queued', 0.03]];

function documentDoc(id: string, kbId: string, n: number, random: () => number): DocumentDoc {
  let r = random();
  const status = STATUSES.find(([, share]) => (r -= share) < 0)?.[0] ?? 'ready';
  const parsed = status === 'ready' || status === 'indexing';
  const time = at(n);
  return {
    id, object: 'document', workspace_id: 'default', knowledge_base_id: kbId, name: `document-${n}.pdf`, media_type: 'application/pdf',
    size_bytes: Math.floor(random() * 5e6), sha256: '5e'.repeat(32), status, metadata: { source: 'bench', year: 2025 },
    chunking: { max_tokens: 512, overlap_tokens: 64 }, page_count: parsed ? 1 + Math.floor(random() * 40) : null,
    chunk_count: parsed ? 1 + Math.floor(random() * 200) : null, ocr_pages: [], warnings: [],
    error: status === 'failed' ? { stage: 'parsing', code: 'unreadable', message: 'the file is not a PDF' } : null,
    timings: {
      parse_ms: parsed ? 120 : null, index_ms: status === 'ready' ? 340 : null,
      parsing_started_at: time, parsed_at: parsed ? time : null, indexed_at: status === 'ready' ? time : null,
    },
    created_at: time, updated_at: time,
  };
}

const kbDoc = (id: string, i: number): KnowledgeBaseDoc => {
  const { knowledge_base_id, ...rest } = kbCreated(id, 'default', i, at(i));
  return { id: knowledge_base_id, object: 'knowledge_base', ...rest, updated_at: rest.created_at, revision: 0 };
};

export async function kbTotalsBench() {
  return withTempDir('totals', async (dir) => {
    const db = openSqlite(join(dir, 'kbqa.db'));
    try {
      const readModels = createSqliteReadModelStore(db);
      const random = seededRandom(11);
      const newId = createIdGenerator();
      const cases = { one_kb_1000_documents: [1000], one_kb_10000_documents: [10_000], page_of_20_kbs_500_documents_each: Array<number>(20).fill(500) };
      const groups = [...Object.values(cases).flat(), ...Array<number>(BACKGROUND.knowledge_bases).fill(BACKGROUND.documents_each)];
      const kbs = groups.map((_, i) => kbDoc(newId('kb'), i));
      // Documents of all knowledge bases interleaved in time, as uploads arrive.
      const owners = groups.flatMap((documents, k) => Array<number>(documents).fill(k));
      for (let i = owners.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [owners[i], owners[j]] = [owners[j]!, owners[i]!];
      }
      const expected = kbs.map(() => ({ documents: 0, chunks: 0 }));
      let writes: ReadModelWrite[] = [];
      for (const [n, k] of owners.entries()) {
        const doc = documentDoc(newId('doc'), kbs[k]!.id, n, random);
        expected[k]!.documents += 1;
        if (doc.status === 'ready') expected[k]!.chunks += doc.chunk_count ?? 0;
        writes.push({ op: 'put', collection: 'documents', id: doc.id, doc, position: BigInt(n + 1) });
        // What the projection session adds beside each new document (Projection.totals).
        const { id: kbId, fields } = documentsProjection.totals!.contribution(doc);
        writes.push({ op: 'add', collection: KNOWLEDGE_BASE_TOTALS, id: kbId, fields });
        if (writes.length === 5000 || n === owners.length - 1) {
          await readModels.commit(writes);
          writes = [];
        }
      }
      log(`kb_totals: ${owners.length} documents in ${kbs.length} knowledge bases`);
      const results: Record<string, unknown> = {};
      let first = 0;
      let correct = true;
      for (const [name, sizes] of Object.entries(cases)) {
        const page = kbs.slice(first, first + sizes.length);
        const want = expected.slice(first, first + sizes.length);
        first += sizes.length;
        const got = await withTotals(readModels, page);
        correct &&= got.every((kb, i) => kb.document_count === want[i]!.documents && kb.chunk_count === want[i]!.chunks);
        for (let i = 0; i < 10; i++) await withTotals(readModels, page);
        const ms: number[] = [];
        for (let i = 0; i < CALLS; i++) ms.push((await timed(() => withTotals(readModels, page))).ms);
        results[name] = { knowledge_bases: sizes.length, documents: sizes.reduce((a, b) => a + b, 0), calls: CALLS, ...latencySummary(ms) };
        log(`kb_totals: ${name} ${JSON.stringify(results[name])}`);
      }
      const tenThousand = results.one_kb_10000_documents as { p50_ms: number };
      return {
        store: 'sqlite read models (file, WAL)',
        documents_in_store: owners.length,
        background: BACKGROUND,
        ...results,
        totals_correct: correct,
        target: { one_kb_10000_documents_p50_ms_at_most: TOTALS_TARGET_P50_MS },
        pass: correct && tenThousand.p50_ms <= TOTALS_TARGET_P50_MS,
      };
    } finally {
      db.close();
    }
  });
}
