import test from 'ava';
import { BadRequestError, Kbqa, NotFoundError } from '../../sdk/typescript/src/index.ts';
import { sampleKnowledgeBase } from '../helpers/knowledge-base.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

/** The SDK's agents resource against the real app. */
let server: TestServer;
let kbqa: Kbqa;
let kbId: string;

test.before(async () => {
  server = await startServer();
  kbqa = new Kbqa({ baseUrl: server.url, apiKey: ADMIN_KEY });
  kbId = (await sampleKnowledgeBase(server)).kbId;
});
test.after.always(() => server?.close());

test.serial('agents: create, list, get, update, publish (versions), chat with model: agent id, unpublish, delete', async (t) => {
  const agent = await kbqa.agents.create({ name: 'Geology helper', model: 'kbqa-extractive', knowledge_base_ids: [kbId], public: { access_code: 'open-sesame' } });
  t.like(agent, { object: 'agent', status: 'draft', published_version: null, public_url: null, public: { access_code_set: true } });
  t.true((await kbqa.agents.list({ limit: 100 })).data.some((a) => a.id === agent.id));
  t.is((await kbqa.agents.get(agent.id)).name, 'Geology helper');
  const first = await kbqa.agents.publish(agent.id);
  t.is(first.version, 1);
  t.regex(first.public_url, /^\/a\//);
  t.true(first.embed.script.includes('data-kbqa-agent'));
  const answer = await kbqa.chat.create({ model: agent.id, messages: [{ role: 'user', content: 'When has the lava lake of Mount Erebus been active since?' }] });
  t.regex(answer.content, /1972/);
  t.is((await kbqa.agents.update(agent.id, { name: 'Geology helper 2' })).published_version, 1);
  t.is((await kbqa.agents.publish(agent.id)).version, 2);
  t.deepEqual((await kbqa.agents.versions(agent.id, { order: 'asc' })).data.map((v) => v.name), ['Geology helper', 'Geology helper 2']);
  t.is((await kbqa.agents.unpublish(agent.id)).status, 'draft');
  await t.throwsAsync(kbqa.agents.create({ name: 'Bad', model: 'no-such-model' }), { instanceOf: BadRequestError });
  t.true((await kbqa.agents.delete(agent.id)).deleted);
  await t.throwsAsync(kbqa.agents.get(agent.id), { instanceOf: NotFoundError });
});
