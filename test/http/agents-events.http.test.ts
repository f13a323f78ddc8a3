import test from 'ava';
import { httpSpec } from '../helpers/http-spec.ts';

// What the agents' routes append, over the spec app: given past events, when a request, then the new events.

const config = {
  name: 'Helper',
  instructions: 'Be brief.',
  model: 'kbqa-extractive',
  knowledge_base_ids: [],
  workflow_id: null,
  opening_message: null,
  suggested_questions: [],
  retrieval: {},
  public: { access_code_hash: null, allowed_origins: [], daily_message_cap: null, visitor_daily_message_cap: null },
};
const created = { type: 'AgentCreated' as const, data: { agent_id: 'agt_1', workspace_id: 'default', slug: 'slug-0123456789abcd', config, created_at: '2026-01-01T00:00:00.000Z' } };

test('creating an agent appends AgentCreated with the access code only as a salted hash', async (t) => {
  const { events } = await httpSpec(t)
    .when({ method: 'POST', path: '/v1/agents', json: { name: 'Helper', model: 'kbqa-extractive', public: { access_code: 'open-sesame' } } })
    .then({ status: 201, bodyMatches: { status: 'draft', public: { access_code_set: true } }, eventsMatch: [{ type: 'AgentCreated', data: { workspace_id: 'default', config: { name: 'Helper' } } }] });
  t.regex(events[0]!.data.config.public.access_code_hash, /^scrypt\$[\w-]+\$[\w-]+$/);
  t.false(JSON.stringify(events).includes('open-sesame'));
  t.regex(events[0]!.data.slug, /^[\w-]{16}$/);
});

test('publishing appends the next version with the draft as it is, whatever the draft becomes later', async (t) => {
  await httpSpec(t)
    .given(created, { type: 'AgentPublished', data: { agent_id: 'agt_1', workspace_id: 'default', version: 1, slug: created.data.slug, config, published_at: '2026-01-01T00:00:00.000Z' } })
    .when({ method: 'POST', path: '/v1/agents/agt_1/publish' })
    .then({ status: 200, bodyMatches: { version: 2, public_url: `/a/${created.data.slug}` }, eventsMatch: [{ type: 'AgentPublished', data: { version: 2, config } }] });
});

test('another workspace’s agent is not there, and nothing is written', async (t) => {
  await httpSpec(t)
    .given({ ...created, data: { ...created.data, workspace_id: 'ws_other' } })
    .when({ method: 'PATCH', path: '/v1/agents/agt_1', json: { name: 'Mine now' } })
    .then({ status: 404, events: [] });
});
