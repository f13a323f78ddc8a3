import test from 'ava';
import { LOOPBACK_PROVIDERS } from '../helpers/provider-servers.ts';
import { Api, type Doc } from '../helpers/openapi-api.ts';
import { startEmbeddingsServer } from '../helpers/openai-compatible-server.ts';
import { startServer } from '../helpers/server.ts';

// The secrets' and model providers' responses, checked against the served OpenAPI document (see openapi-api.ts),
// apart from openapi-responses.http.test.ts, which is at its size limit.

test('secrets and model providers, and their errors, match the document', async (t) => {
  const server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', ...LOOPBACK_PROVIDERS });
  const loopback = await startEmbeddingsServer({ dimensions: 8, apiKey: 'sk-openapi-provider', models: ['loop-chat', 'loop-embed'] });
  try {
    const api = new Api(server.url, (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as Doc);
    t.is((await api.call('POST', '/v1/secrets', { json: { name: 'openapi', value: 'a secret value' } })).status, 201);
    t.is((await api.call('POST', '/v1/secrets', { json: { name: 'openapi', value: 'again' } })).status, 409);
    t.is((await api.call('POST', '/v1/secrets', { json: { name: 'bad name', value: 'v' } })).status, 400);
    t.is((await api.call('GET', '/v1/secrets?limit=5')).status, 200);
    t.is((await api.call('PATCH', '/v1/secrets/openapi', { json: { allowed_hosts: ['api.example.com', '*.example.org'] } })).status, 200);
    t.is((await api.call('PATCH', '/v1/secrets/openapi', { json: { allowed_hosts: ['not a host'] } })).status, 400);
    t.is((await api.call('PATCH', '/v1/secrets/nope', { json: { allowed_hosts: [] } })).status, 404);
    t.is((await api.call('DELETE', '/v1/secrets/openapi')).status, 200);
    t.is((await api.call('DELETE', '/v1/secrets/openapi')).status, 404);
    const body = { name: 'openapi', base_url: loopback.baseUrl, api_key: 'sk-openapi-provider', models: [{ id: 'loop-chat', type: 'chat' }, { id: 'loop-embed', type: 'embedding', dimensions: 8 }] };
    const created = await api.call('POST', '/v1/model-providers', { json: body });
    t.is(created.status, 201);
    const id = created.body.id as string;
    t.is((await api.call('POST', '/v1/model-providers', { json: body })).status, 409);
    t.is((await api.call('POST', '/v1/model-providers', { json: { ...body, name: 'Bad' } })).status, 400);
    t.is((await api.call('GET', '/v1/model-providers?limit=5')).status, 200);
    t.is((await api.call('GET', `/v1/model-providers/${id}`)).status, 200);
    t.is((await api.call('GET', '/v1/model-providers/mp_missing')).status, 404);
    t.is((await api.call('GET', '/v1/models')).status, 200);
    t.is((await api.call('GET', '/v1/models/openapi%2Floop-chat')).status, 200);
    t.is((await api.call('PATCH', `/v1/model-providers/${id}`, { json: { models: [] } })).status, 200);
    t.is((await api.call('POST', `/v1/model-providers/${id}/test`)).body.ok, true);
    t.is((await api.call('POST', `/v1/model-providers/${id}/discover`)).body.data.length, 2);
    t.is((await api.call('PATCH', `/v1/model-providers/${id}`, { json: { api_key: 'sk-wrong' } })).status, 200);
    t.is((await api.call('POST', `/v1/model-providers/${id}/test`)).body.error.code, 'auth_failed');
    t.is((await api.call('POST', `/v1/model-providers/${id}/discover`)).status, 502);
    t.is((await api.call('DELETE', `/v1/model-providers/${id}`)).status, 200);
    t.is((await api.call('DELETE', `/v1/model-providers/${id}`)).status, 404);
  } finally {
    await loopback.close();
    await server.close();
  }
});
