import test from 'ava';
import type { KnowledgeBaseDoc } from '../../projections/knowledge-bases/index.ts';
import type { RetrievedContext } from '../../src/app/retrieval/retrieved-context.ts';
import { spreadRetrieval } from '../../src/composition/query-offload.ts';
import { loadConfig } from '../../src/config.ts';

const EMBEDDED = { vector_index: 'embedded', keyword_index: 'embedded' };
const context = (query: string): RetrievedContext => ({ hits: [], passages: [], citations: [], coverage: query.length, answerable: false, terms: [] }) as unknown as RetrievedContext;

/** A retrieval that keeps this process's event loop busy a while, as scoring does, between two waits. */
const slowLocal = {
  retrieveContext: async (_kb: KnowledgeBaseDoc, request: { query: string }) => {
    await new Promise((r) => setTimeout(r, 5));
    for (const end = performance.now() + 30; performance.now() < end; );
    return context(request.query);
  },
  retrieveContextAcross: async (_kbs: readonly KnowledgeBaseDoc[], request: { query: string }) => context(request.query),
  groundChat: async () => ({ query: '', citations: [], passages: [], prompt: [], answerable: false, coverage: 0, language: 'en', answer: null, answerMs: 0 }),
};

test('with query processes off, or indexes not embedded, everything is answered here', async (t) => {
  for (const [env, adapters] of [[{ KBQA_QUERY_PROCESSES: '0' }, EMBEDDED], [{ KBQA_QUERY_PROCESSES: '1' }, { vector_index: 'pinecone', keyword_index: 'embedded' }]] as const) {
    const spread = spreadRetrieval(slowLocal, loadConfig({ KBQA_DATA_DIR: '/nonexistent', ...env }), adapters);
    await Promise.all(Array.from({ length: 4 }, (_, i) => spread.retrieveContext({} as KnowledgeBaseDoc, { query: `q${i}` })));
    t.deepEqual(spread.counts(), { main: 4, query_process: 0, main_after_query_process: 0 });
    await spread.close();
  }
});

test('a query process that cannot answer (here: no database to open) costs nothing but time: its retrievals are answered here', async (t) => {
  const spread = spreadRetrieval(slowLocal, loadConfig({ KBQA_DATA_DIR: '/nonexistent/kbqa', KBQA_QUERY_PROCESSES: '1' }), EMBEDDED);
  try {
    // One every 10 ms, each keeping the event loop busy for 30: soon this process is busy.
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, 10 * i));
        return spread.retrieveContext({} as KnowledgeBaseDoc, { query: 'x'.repeat(i) });
      }),
    );
    t.deepEqual(answers.map((a) => a.coverage), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 'every answer, in order');
    const counts = spread.counts();
    t.true(counts.main_after_query_process > 0, JSON.stringify(counts));
    t.is(counts.query_process, 0);
    t.is(counts.main + counts.main_after_query_process, 12);
  } finally {
    await spread.close();
  }
});

test('a lone request is answered here even when this process is busy: a lone client pays no hop', async (t) => {
  let alone = true;
  const spread = spreadRetrieval(slowLocal, loadConfig({ KBQA_DATA_DIR: '/nonexistent/kbqa', KBQA_QUERY_PROCESSES: '1' }), EMBEDDED, () => alone);
  try {
    const burst = () =>
      Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          await new Promise((r) => setTimeout(r, 10 * i));
          return spread.retrieveContext({} as KnowledgeBaseDoc, { query: 'x' });
        }),
      );
    await burst();
    t.deepEqual(spread.counts(), { main: 8, query_process: 0, main_after_query_process: 0 });
    alone = false;
    await burst();
    t.true(spread.counts().main_after_query_process > 0, 'with others waiting, a busy process sends retrievals on');
  } finally {
    await spread.close();
  }
});
