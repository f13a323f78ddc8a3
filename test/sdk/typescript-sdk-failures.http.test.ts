import test from 'ava';
import { InternalServerError, Kbqa, RateLimitError, type RetryInfo } from '../../sdk/typescript/src/index.ts';
import { sampleKnowledgeBase } from '../helpers/knowledge-base.ts';
import { loopbackChatEnv, startChatServer } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';
import { faultyProxy } from './faulty-proxy.ts';

/** How the SDK meets failures: a rate limit, a 5xx before or after the server acted, an error mid-stream. */
let server: TestServer;
let kbId = '';
let workflowId = '';

test.before(async () => {
  server = await startServer();
  ({ kbId } = await sampleKnowledgeBase(server));
  const kbqa = new Kbqa({ baseUrl: server.url, apiKey: ADMIN_KEY });
  workflowId = (await kbqa.workflows.create({ name: 'QA', template: 'knowledge-qa', knowledge_base_id: kbId })).id;
});
test.after.always(() => server?.close());

test('a 429 from the real rate limiter is retried after its retry-after, for a GET and a POST alike', async (t) => {
  const limited = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '60' });
  try {
    const exhaust = async () => {
      for (let i = 0; i < 200; i++) if ((await limited.call('GET', '/v1/models')).status === 429) return;
      throw new Error('the rate limit never answered 429');
    };
    await exhaust();
    const impatient = new Kbqa({ baseUrl: limited.url, apiKey: ADMIN_KEY, maxRetries: 0 });
    const refused = await t.throwsAsync(impatient.models.list(), { instanceOf: RateLimitError });
    t.like(refused, { status: 429, retryAfter: 1, code: 'rate_limit_exceeded', type: 'rate_limit_error' });

    const retries: RetryInfo[] = [];
    const patient = new Kbqa({ baseUrl: limited.url, apiKey: ADMIN_KEY, onRetry: (r) => retries.push(r) });
    let started = Date.now();
    t.true((await patient.models.list()).data.length > 0);
    t.like(retries[0], { status: 429, delayMs: 1000, method: 'GET' });
    t.true(Date.now() - started >= 950, 'waited for retry-after');

    await exhaust();
    retries.length = 0;
    started = Date.now();
    const answer = await patient.chat.create({ messages: [{ role: 'user', content: 'Hello?' }] });
    t.truthy(answer.content);
    t.like(retries[0], { status: 429, delayMs: 1000, method: 'POST' });
    t.true(Date.now() - started >= 950);
  } finally {
    await limited.close();
  }
});

test('a 5xx is retried for idempotent calls only; an Idempotency-Key makes upload and run retryable', async (t) => {
  const faults = new Map<string, { status: number; forward: boolean }>([
    ['GET /v1/models', { status: 503, forward: false }],
    ['POST /v1/chat', { status: 503, forward: false }],
    [`POST /v1/knowledge-bases/${kbId}/documents`, { status: 502, forward: true }],
    [`POST /v1/workflows/${workflowId}/run`, { status: 502, forward: true }],
  ]);
  // Each listed request fails the first time it is seen.
  const proxy = await faultyProxy(server.url, ({ method, path, n }) => (n === 0 ? (faults.get(`${method} ${path}`) ?? null) : null));
  try {
    const retries: RetryInfo[] = [];
    const client = new Kbqa({ baseUrl: proxy.url, apiKey: ADMIN_KEY, retry: { initialDelayMs: 10 }, onRetry: (r) => retries.push(r) });
    t.true((await client.models.list()).data.length > 0);
    t.like(retries, [{ status: 503, method: 'GET', path: '/models' }]);

    await t.throwsAsync(client.query(kbId, 'How long is a Zephyr-9 blade?'), { instanceOf: InternalServerError });
    t.is(proxy.seen.filter((s) => s.path === '/v1/chat').length, 1, 'a chat is not repeated after a 5xx');

    // The first upload and run reached the server and their answers were lost: the retries get the same resources back.
    const doc = await client.documents.uploadText(kbId, { name: 'retry.md', text: '# Retry\n\nUploaded through a flaky gateway.' });
    const uploads = proxy.seen.filter((s) => s.method === 'POST' && s.path.endsWith('/documents'));
    t.is(uploads.length, 2);
    t.is(uploads[0]!.headers['idempotency-key'], uploads[1]!.headers['idempotency-key']);
    t.is(JSON.parse(uploads[0]!.forwardedBody!).data[0].id, doc.id);

    const run = await client.runWorkflow(workflowId, { question: 'How long is a Zephyr-9 blade?' });
    const runs = proxy.seen.filter((s) => s.path.endsWith('/run'));
    t.is(runs.length, 2);
    t.is(JSON.parse(runs[0]!.forwardedBody!).id, run.id);
    t.is(run.status, 'succeeded');
    t.is(retries.length, 3);
  } finally {
    await proxy.close();
  }
});

test('an error the server sends after a stream started is thrown as its typed APIError', async (t) => {
  // A provider model that always answers 429: the stream's headers are out first, so it arrives as an `error` event.
  const provider = await startChatServer({ failFirst: 1000 });
  const withProvider = await startServer(loopbackChatEnv(provider.baseUrl));
  try {
    const client = new Kbqa({ baseUrl: withProvider.url, apiKey: ADMIN_KEY, maxRetries: 0 });
    const chunks: unknown[] = [];
    const error = await t.throwsAsync(
      async () => {
        for await (const chunk of client.chat.stream({ model: 'loop-chat', messages: [{ role: 'user', content: 'hi' }] })) chunks.push(chunk);
      },
      { instanceOf: RateLimitError },
    );
    t.like(error, { status: 429, code: 'provider_rate_limited', type: 'rate_limit_error' });
    t.is(chunks.length, 1, 'the first chunk (role, citations) came before the error');
  } finally {
    await withProvider.close();
    await provider.close();
  }
});
