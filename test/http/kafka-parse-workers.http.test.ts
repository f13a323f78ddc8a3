import test from 'ava';
import { freshNamespace } from '../helpers/kafka-read.ts';
import { dropNamespace, groupsSettled, ledger, mixedProcessEnv, type MixedProcess, parsedBy, startOwner, startWorker, stop, textPdf } from '../helpers/parse-workers.ts';
import { killGroup, run } from '../helpers/process.ts';
import { withService } from '../helpers/services.ts';
import { tempDir } from '../helpers/temp.ts';

const ADMIN = 'parse-workers-admin-0123456789abcdef';
const headers = { authorization: `Bearer ${ADMIN}` };

const baseEnv = (dataDir: string) => mixedProcessEnv(dataDir, ADMIN, { KBQA_PARSER_WARMUP: 'off' });

async function api(owner: MixedProcess, method: string, path: string, body?: FormData | object) {
  const json = body !== undefined && !(body instanceof FormData);
  const res = await fetch(`${owner.url}/v1${path}`, {
    method,
    headers: { ...headers, ...(json && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : json ? JSON.stringify(body) : (body as FormData),
  });
  return (await res.json()) as any;
}

/** A burst: small text notes (the small lane) and PDFs of a few pages (the large lane), uploaded at once. */
async function burst(owner: MixedProcess, kbId: string, label: string, { notes, pdfs, pages }: { notes: number; pdfs: number; pages: number }): Promise<string[]> {
  const files = await Promise.all([
    ...Array.from({ length: pdfs }, async (_, i) => ({ name: `${label}-${i}.pdf`, bytes: await textPdf(`${label} report ${i}`, pages + (i % 3) * 4), type: 'application/pdf' })),
    ...Array.from({ length: notes }, async (_, i) => ({ name: `${label}-note-${i}.txt`, bytes: Buffer.from(`Note ${i} of ${label}: the ferry to island ${i} leaves at ${6 + i} o'clock.`), type: 'text/plain' })),
  ]);
  const ids = await Promise.all(
    files.map(async (file) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
      const reply = await api(owner, 'POST', `/knowledge-bases/${kbId}/documents`, form);
      if (!reply.data?.[0]?.id) throw new Error(`upload refused: ${JSON.stringify(reply)}`);
      return reply.data[0].id as string;
    }),
  );
  return ids;
}

async function statuses(owner: MixedProcess, kbId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const list = await api(owner, 'GET', `/knowledge-bases/${kbId}/documents?limit=100`);
  return new Map((list.data as { id: string; status: string }[]).filter((d) => ids.includes(d.id)).map((d) => [d.id, d.status]));
}

async function settled(owner: MixedProcess, kbId: string, ids: readonly string[], timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = [...(await statuses(owner, kbId, ids)).values()];
    if (now.length === ids.length && now.every((s) => s === 'ready' || s === 'failed')) return now;
    if (Date.now() > deadline) throw new Error(`not settled after ${timeoutMs} ms: ${now.join(',')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a worker without KAFKA_BROKERS refuses, saying what it needs', async (t) => {
  t.timeout(60_000);
  const dir = tempDir();
  try {
    const worker = run('node', ['bin/kbqa.js', 'serve', '--role', 'worker'], { ...baseEnv(dir.path), PORT: '0' });
    t.is(await worker.exited, 1);
    t.regex(worker.output(), /--role worker needs KAFKA_BROKERS: with it, and the KBQA_DATA_DIR of a running kbqa server \(the mixed profile\)/);
  } finally {
    dir.remove();
  }
});

/**
 * Issue 35: with KAFKA_BROKERS alone, an owner and a parse worker on one data directory share the
 * parsing through the parser groups; a worker killed with -9 hands its partitions to the owner and
 * every document is still parsed and indexed once; a second owner still refuses.
 */
withService(test, 'mixed profile: an owner and a parse worker on one data directory', ['KAFKA_BROKERS'], (serviceEnv) => {
  test('two processes share a burst of uploads; a worker killed mid-batch leaves every document ready once; a second owner refuses', async (t) => {
    t.timeout(300_000);
    const dir = tempDir();
    const namespace = freshNamespace('parse-workers');
    const env = { ...baseEnv(dir.path), KAFKA_BROKERS: serviceEnv.KAFKA_BROKERS!, KAFKA_NAMESPACE: namespace, KAFKA_TOPIC_PARTITIONS: '4' };
    const started: MixedProcess[] = [];
    try {
      const owner = await startOwner(env);
      started.push(owner);
      const worker = await startWorker(env);
      started.push(worker);
      await groupsSettled(env.KAFKA_BROKERS, namespace, 2);

      // (c) A second owner of the same data directory refuses, naming the one that holds it.
      const intruder = run('node', ['bin/kbqa.js', 'serve'], { ...env, PORT: '0' });
      t.is(await intruder.exited, 1);
      t.regex(intruder.output(), new RegExp(`in use by process ${owner.child.pid} \\(serve\\); stop it first`));

      // (a) A burst of 12 reaches ready, and both processes parsed some of it.
      const kb = await api(owner, 'POST', '/knowledge-bases', { name: 'shared parsing' });
      let t0 = Date.now();
      const first = await burst(owner, kb.id, 'first', { notes: 6, pdfs: 6, pages: 3 });
      t.deepEqual(await settled(owner, kb.id, first, 120_000), first.map(() => 'ready'));
      const firstMs = Date.now() - t0;
      const [byOwner, byWorker] = [await parsedBy(owner), await parsedBy(worker)];
      t.log(`first burst: 12 documents ready in ${firstMs} ms; parsed by the owner ${byOwner}, by the worker ${byWorker}`);
      t.true(byOwner > 0 && byWorker > 0, `owner ${byOwner}, worker ${byWorker}`);
      t.is(byOwner + byWorker, first.length);

      // (b) The worker killed with -9 while its share of a second burst is under way.
      const largeBefore = await parsedBy(worker, 'large');
      const second = await burst(owner, kb.id, 'second', { notes: 2, pdfs: 14, pages: 30 });
      t0 = Date.now();
      // Its first PDF of the burst parsed, the others of its partitions are still to come.
      while ((await parsedBy(worker, 'large')) === largeBefore) {
        if (Date.now() - t0 > 60_000) throw new Error('the worker parsed nothing of the second burst');
        await new Promise((r) => setTimeout(r, 25));
      }
      killGroup(worker, 'SIGKILL');
      await worker.exited;
      const killed = Date.now();
      const atKill = [...(await statuses(owner, kb.id, second)).values()];
      const unfinished = atKill.filter((s) => s !== 'ready').length;
      t.log(`${unfinished} of ${second.length} documents of the second burst unfinished when the worker was killed`);
      t.true(unfinished > 0, 'the kill must land mid-batch for this test to mean anything');
      t.deepEqual(await settled(owner, kb.id, second, 120_000), second.map(() => 'ready'));
      t.log(`every document ready ${Date.now() - killed} ms after the kill (the broker drops a killed member after its 10 s session)`);

      const books = ledger(dir.path, [...first, ...second]);
      t.deepEqual(
        books.perDocument.filter((d) => d.parsed !== 1 || d.indexed !== 1),
        [],
        'each document parsed once and indexed once',
      );
      t.is(books.keyword.n, books.keyword.d, 'no chunk twice in the keyword index');
      t.is(books.vectors.n, books.vectors.d, 'no chunk twice in the vector index');
      t.is(books.keyword.n, books.chunks);
      t.is(books.vectors.n, books.chunks);
      t.is(books.passages, books.chunks, 'every chunk has its passage, once');

      const search = await api(owner, 'POST', `/knowledge-bases/${kb.id}/search`, { query: 'ferry to island 3', top_k: 3 });
      t.true(search.data.length > 0);
      const stopped = await stop(owner, 30_000);
      // To its whole process group, as Ctrl-C and systemd do: the parser processes end first.
      t.true(stopped, `the owner stops on SIGTERM; its output ends:\n${owner.output().slice(-2000)}`);
    } finally {
      for (const process of started) await stop(process, 5000);
      await dropNamespace(env.KAFKA_BROKERS, namespace).catch(() => {});
      dir.remove();
    }
  });
});
