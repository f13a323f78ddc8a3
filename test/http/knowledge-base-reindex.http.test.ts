import test from 'ava';
import { REINDEX_PROGRESS } from '../../src/app/reindex.ts';
import { apiKeyCreated, knowledgeBaseCreated, OFFLINE_EMBEDDER } from '../helpers/given-events.ts';
import { httpSpec } from '../helpers/http-spec.ts';

// POST /v1/knowledge-bases/{kb_id}/reindex is a command: these need no worker (the reindexer's run is in reindex.http.test.ts).
const NOW = '2026-03-01T12:00:00.000Z';
const requested = (kbId: string, reindexId: string) => ({
  type: 'KnowledgeBaseReindexRequested' as const,
  data: { knowledge_base_id: kbId, reindex_id: reindexId, embedding_model: OFFLINE_EMBEDDER, requested_at: NOW },
});
const queued = (kbId: string) => ({
  object: 'knowledge_base.reindex',
  knowledge_base_id: kbId,
  status: 'queued',
  embedding_model: OFFLINE_EMBEDDER,
  done: 0,
  total: null,
  chunks: 0,
  requested_at: NOW,
  started_at: null,
  finished_at: null,
  error: null,
});

test('reindex answers 202 with the queued re-index, appends KnowledgeBaseReindexRequested, and GET shows it', async (t) => {
  const app = await httpSpec(t, { now: NOW }).given(knowledgeBaseCreated({ id: 'kb_moving' })).app();
  t.is((await app.call('GET', '/v1/knowledge-bases/kb_moving')).body.reindex, null, 'never re-indexed');
  const { body } = await httpSpec(t, { now: NOW })
    .given(knowledgeBaseCreated({ id: 'kb_moving' }))
    .when({ method: 'POST', path: '/v1/knowledge-bases/kb_moving/reindex' })
    .then({
      status: 202,
      bodyMatches: queued('kb_moving'),
      eventsMatch: [{ type: 'KnowledgeBaseReindexRequested', data: { knowledge_base_id: 'kb_moving', embedding_model: OFFLINE_EMBEDDER, requested_at: NOW } }],
    });
  t.regex(body.id, /^reindex_/);
});

test('a second reindex while one is queued is 409 reindex_in_progress and writes nothing', async (t) => {
  const { body } = await httpSpec(t, { now: NOW })
    .given(knowledgeBaseCreated({ id: 'kb_busy' }), requested('kb_busy', 'reindex_1'))
    .when({ method: 'POST', path: '/v1/knowledge-bases/kb_busy/reindex' })
    .then({ status: 409, events: [] });
  t.like(body.error, { type: 'conflict_error', code: 'reindex_in_progress' });
});

test('progress: running with done/total from the reindexer’s record, then succeeded; a new request may follow', async (t) => {
  const app = await httpSpec(t, { now: NOW }).given(knowledgeBaseCreated({ id: 'kb_progress' }), requested('kb_progress', 'reindex_1')).app();
  const progress = { id: 'kb_progress', model: OFFLINE_EMBEDDER, after: 'doc_b', documents: 2, chunks: 7, total: 5, started_at: '2026-03-01T12:00:01.000Z' };
  await app.ctx.readModels.commit([{ op: 'put', collection: REINDEX_PROGRESS, id: 'kb_progress', doc: progress, position: 1n }]);
  const running = (await app.call('GET', '/v1/knowledge-bases/kb_progress')).body.reindex;
  t.like(running, { id: 'reindex_1', status: 'running', done: 2, total: 5, chunks: 7, started_at: '2026-03-01T12:00:01.000Z', finished_at: null });
  t.like((await app.call('GET', '/v1/knowledge-bases?limit=10')).body.data[0].reindex, { status: 'running', done: 2 });

  const finished = await httpSpec(t, { now: NOW })
    .given(
      knowledgeBaseCreated({ id: 'kb_done' }),
      requested('kb_done', 'reindex_1'),
      { type: 'KnowledgeBaseReindexed', data: { knowledge_base_id: 'kb_done', reindex_id: 'reindex_1', documents: 5, chunks: 12, started_at: NOW, finished_at: '2026-03-01T12:01:00.000Z' } },
    )
    .app();
  t.like((await finished.call('GET', '/v1/knowledge-bases/kb_done')).body.reindex, { status: 'succeeded', done: 5, total: 5, chunks: 12, finished_at: '2026-03-01T12:01:00.000Z', error: null });
  const again = await finished.call('POST', '/v1/knowledge-bases/kb_done/reindex');
  t.is(again.status, 202);
  t.not(again.body.id, 'reindex_1');
});

test('a failed re-index shows its reason, and may be asked for again', async (t) => {
  const failed = { type: 'KnowledgeBaseReindexFailed' as const, data: { knowledge_base_id: 'kb_f', reindex_id: 'reindex_1', code: 'model_not_found', message: 'gone', failed_at: NOW } };
  const app = await httpSpec(t, { now: NOW }).given(knowledgeBaseCreated({ id: 'kb_f' }), requested('kb_f', 'reindex_1'), failed).app();
  t.like((await app.call('GET', '/v1/knowledge-bases/kb_f')).body.reindex, { status: 'failed', finished_at: NOW, error: { code: 'model_not_found', message: 'gone' } });
  t.is((await app.call('POST', '/v1/knowledge-bases/kb_f/reindex')).status, 202);
});

test('access: write scope, and a key limited to knowledge bases only for its own; another workspace’s or a missing one is 404', async (t) => {
  const keys = [
    apiKeyCreated({ id: 'key_read', secret: 'sk-kbqa-reader-000000000000', scopes: ['read'] }),
    apiKeyCreated({ id: 'key_other', secret: 'sk-kbqa-otherkb-00000000000', knowledgeBaseIds: ['kb_else'] }),
    apiKeyCreated({ id: 'key_own', secret: 'sk-kbqa-ownkb-0000000000000', knowledgeBaseIds: ['kb_mine'] }),
  ];
  const app = await httpSpec(t, { now: NOW })
    .given(knowledgeBaseCreated({ id: 'kb_mine' }), knowledgeBaseCreated({ id: 'kb_else' }), knowledgeBaseCreated({ id: 'kb_theirs', workspaceId: 'ws_other' }), ...keys)
    .app();
  const post = (kb: string, key?: string) => app.call('POST', `/v1/knowledge-bases/${kb}/reindex`, key ? { key } : {});
  t.is((await post('kb_mine', 'sk-kbqa-reader-000000000000')).status, 403);
  t.is((await post('kb_mine', 'sk-kbqa-otherkb-00000000000')).status, 403);
  t.is((await post('kb_theirs')).status, 404);
  t.is((await post('kb_nowhere')).status, 404);
  t.is((await post('kb_mine', 'sk-kbqa-ownkb-0000000000000')).status, 202);
});

test('a deleted knowledge base is 404 and writes nothing', async (t) => {
  const { body } = await httpSpec(t, { now: NOW })
    .given(knowledgeBaseCreated({ id: 'kb_gone' }), { type: 'KnowledgeBaseDeleted', data: { knowledge_base_id: 'kb_gone', deleted_at: NOW } })
    .when({ method: 'POST', path: '/v1/knowledge-bases/kb_gone/reindex' })
    .then({ status: 404, events: [] });
  t.is(body.error.code, 'knowledge_base_not_found');
});
