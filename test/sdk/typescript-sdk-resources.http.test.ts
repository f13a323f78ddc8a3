import test from 'ava';
import { ConflictError, Kbqa, NotFoundError } from '../../sdk/typescript/src/index.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

/** The SDK's resources that stand alone (models, knowledge bases, where it reads its settings), against the real app. */
let server: TestServer;
let kbqa: Kbqa;

test.before(async () => {
  server = await startServer();
  // No `/v1`: the client appends it.
  kbqa = new Kbqa({ baseUrl: server.url, apiKey: ADMIN_KEY });
});
test.after.always(() => server?.close());

test.serial('models: list and get', async (t) => {
  t.is(kbqa.baseUrl, `${server.url}/v1`);
  const models = await kbqa.models.list();
  t.is(models.object, 'list');
  t.true(models.data.some((m) => m.id === 'kbqa-extractive'));
  t.like(await kbqa.models.get('kbqa-hash-embed-512'), { id: 'kbqa-hash-embed-512', object: 'model' });
});

test.serial('knowledge bases: create, list, get, update with an ETag, a stale ETag, delete', async (t) => {
  const kb = await kbqa.knowledgeBases.create({ name: 'Scratch', settings: { top_k: 8 } });
  t.like(kb, { object: 'knowledge_base', name: 'Scratch', settings: { top_k: 8 }, etag: '"0"' });
  t.true((await kbqa.knowledgeBases.list({ limit: 100 })).data.some((k) => k.id === kb.id));
  t.is((await kbqa.knowledgeBases.get(kb.id)).etag, kb.etag);
  const updated = await kbqa.knowledgeBases.update(kb.id, { description: 'for the SDK test', settings: { rerank: { enabled: false } } }, { ifMatch: kb.etag! });
  t.like(updated, { description: 'for the SDK test', settings: { top_k: 8, rerank: { enabled: false } } });
  t.not(updated.etag, kb.etag);
  const stale = await t.throwsAsync(kbqa.knowledgeBases.update(kb.id, { name: 'lost' }, { ifMatch: kb.etag! }), { instanceOf: ConflictError });
  t.is(stale.error.code, 'concurrent_modification');
  const reindex = await kbqa.knowledgeBases.reindex(kb.id);
  t.like(reindex, { object: 'knowledge_base.reindex', knowledge_base_id: kb.id, embedding_model: 'kbqa-hash-embed-512' });
  for (let seen = reindex; seen.status !== 'succeeded'; seen = (await kbqa.knowledgeBases.get(kb.id)).reindex!) {
    t.not(seen.status, 'failed');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const current = await kbqa.knowledgeBases.get(kb.id);
  t.like(await kbqa.knowledgeBases.delete(kb.id, { ifMatch: current.etag! }), { id: kb.id, deleted: true });
  await t.throwsAsync(kbqa.knowledgeBases.get(kb.id), { instanceOf: NotFoundError });
});

test.serial('base URL and key from KBQA_BASE_URL and KBQA_API_KEY', async (t) => {
  const saved = { base: process.env.KBQA_BASE_URL, key: process.env.KBQA_API_KEY };
  process.env.KBQA_BASE_URL = `${server.url}/v1`;
  process.env.KBQA_API_KEY = ADMIN_KEY;
  try {
    const fromEnv = new Kbqa();
    t.is(fromEnv.baseUrl, `${server.url}/v1`);
    t.true((await fromEnv.models.list()).data.length > 0);
    delete process.env.KBQA_API_KEY;
    t.throws(() => new Kbqa(), { message: /KBQA_API_KEY/ });
  } finally {
    for (const [name, value] of [['KBQA_BASE_URL', saved.base], ['KBQA_API_KEY', saved.key]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
});
