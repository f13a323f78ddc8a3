import test from 'ava';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { freePort, killGroup, run, waitForOutput } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp.ts';

const ADMIN = 'crash-admin-key-0123456789abcdef';

test('killed mid-ingestion: after a restart every document is ready or failed, with no duplicate chunks', async (t) => {
  t.timeout(180_000);
  const dir = tempDir();
  const port = String(await freePort());
  const env = { KBQA_DATA_DIR: dir.path, PORT: port, HOST: '127.0.0.1', KBQA_ADMIN_KEY: ADMIN, KBQA_LOG_LEVEL: 'warn', KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_PARSER_THREADS: '1' };
  const base = `http://127.0.0.1:${port}/v1`;
  const headers = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
  try {
    const first = run('node', ['bin/kbqa.js', 'serve'], env);
    await waitForOutput(first, /KBQA listening/);
    const kb = (await (await fetch(`${base}/knowledge-bases`, { method: 'POST', headers, body: JSON.stringify({ name: 'crash' }) })).json()) as { id: string };
    // All at once, so a backlog is queued when the kill lands.
    const ids = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const text = Array.from({ length: 400 }, (_, s) => `Document ${i} sentence ${s} mentions topic ${(i * 7 + s) % 13} in passing.`).join(' ');
        const res = await fetch(`${base}/knowledge-bases/${kb.id}/documents`, { method: 'POST', headers, body: JSON.stringify({ name: `d${i}.txt`, text }) });
        return ((await res.json()) as { data: { id: string }[] }).data[0]!.id;
      }),
    );
    const atKill = (await (await fetch(`${base}/knowledge-bases/${kb.id}/documents?limit=100`, { headers })).json()) as { data: { status: string }[] };
    killGroup(first, 'SIGKILL');
    await first.exited;
    const unfinished = atKill.data.filter((d) => d.status !== 'ready').length;
    t.log(`${unfinished} of 40 documents were unfinished when the process was killed`);
    t.true(unfinished > 0, 'the kill must land mid-ingestion for this test to mean anything');

    const second = run('node', ['bin/kbqa.js', 'serve'], env);
    await waitForOutput(second, /KBQA listening/);
    const deadline = Date.now() + 120_000;
    let statuses: string[] = [];
    while (Date.now() < deadline) {
      const list = (await (await fetch(`${base}/knowledge-bases/${kb.id}/documents?limit=100`, { headers })).json()) as { data: { status: string }[] };
      statuses = list.data.map((d) => d.status);
      if (statuses.length === ids.length && statuses.every((s) => s === 'ready' || s === 'failed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    t.is(statuses.length, 40);
    t.deepEqual([...new Set(statuses)], ['ready']);
    killGroup(second, 'SIGKILL');
    await second.exited;

    const db = new Database(join(dir.path, 'kbqa.db'), { readonly: true });
    const parsedTwice = db.prepare("SELECT stream_id, count(*) AS n FROM events WHERE type = 'DocumentParsed' GROUP BY stream_id HAVING n > 1").all();
    t.deepEqual(parsedTwice, []);
    const keyword = db.prepare('SELECT count(*) AS n, count(DISTINCT chunk_id) AS d FROM keyword_chunks').get() as { n: number; d: number };
    const vectors = db.prepare('SELECT count(*) AS n, count(DISTINCT chunk_id) AS d FROM vector_chunks').get() as { n: number; d: number };
    const chunks = db
      .prepare("SELECT sum(json_extract(data, '$.chunk_count')) AS n FROM events WHERE type = 'DocumentParsed'")
      .get() as { n: number };
    t.is(keyword.n, keyword.d, 'no duplicate chunks in the keyword index');
    t.is(vectors.n, vectors.d, 'no duplicate chunks in the vector index');
    t.is(keyword.n, chunks.n);
    t.is(vectors.n, chunks.n);
    const passages = db.prepare('SELECT count(*) AS n FROM passages').get() as { n: number };
    t.is(passages.n, chunks.n, 'every chunk has its passage, once');
    // Document streams hold lifecycles; each parse's chunks are in the chunk stream its DocumentParsed names.
    t.is(db.prepare("SELECT count(*) AS n FROM events WHERE type = 'DocumentChunksExtracted' AND stream_id NOT LIKE 'document\\_chunks-%' ESCAPE '\\'").pluck().get(), 0);
    const unmatched = db
      .prepare(
        `SELECT p.stream_id FROM events p WHERE p.type = 'DocumentParsed' AND json_extract(p.data, '$.batch_count') !=
           (SELECT count(*) FROM events c WHERE c.stream_id = 'document_chunks-' || json_extract(p.data, '$.document_id') || '-' || json_extract(p.data, '$.attempt'))`,
      )
      .all();
    t.deepEqual(unmatched, []);
    const orphans = db
      .prepare(
        `SELECT count(DISTINCT c.stream_id) FROM events c WHERE c.type = 'DocumentChunksExtracted' AND NOT EXISTS
           (SELECT 1 FROM events p WHERE p.type = 'DocumentParsed' AND c.stream_id = 'document_chunks-' || json_extract(p.data, '$.document_id') || '-' || json_extract(p.data, '$.attempt'))`,
      )
      .pluck()
      .get();
    t.log(`${orphans} chunk streams of attempts the kill interrupted, which nothing reads`);
    db.close();
  } finally {
    dir.remove();
  }
});
