import test from 'ava';
import { settledDocument } from '../helpers/documents.ts';
import { connectLlm, type RealLlm, startServerForLlm, withRealLlm } from '../helpers/real-llm.ts';
import type { TestServer } from '../helpers/server.ts';

type Json = Record<string, any>;

/**
 * The workflow nodes that call a chat model, with the real server's (npm run llm:up): the LLM node,
 * and the question classifier and parameter extractor, whose structured output llama.cpp's Python
 * server enforces with a grammar (it takes the schema as `{type: "json_object", schema}`: see
 * src/adapters/openai/chat-wire.ts). A 135M model may pick the wrong class or value: what is
 * checked is that our side maps and validates whatever it answers.
 */
withRealLlm(test, 'workflow nodes on a real LLM server', (llm: RealLlm) => {
  let server: TestServer;
  let model: string;
  let kb: string;

  test.before(async () => {
    server = await startServerForLlm();
    ({ model } = await connectLlm(server, llm));
    kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'garden' } })).body.id;
    const upload = await server.call('POST', `/v1/knowledge-bases/${kb}/documents`, { json: { name: 'roses.md', text: 'Roses in the north garden are pruned in March.' } });
    if ((await settledDocument(server, kb, upload.body.data[0].id)).status !== 'ready') throw new Error('the fixture document did not index');
  });
  test.after.always(() => server?.close());

  const start = { id: 'start', type: 'start', config: { inputs: [{ name: 'question', type: 'string' }] } };
  async function run(nodes: Json[], edges: Json[], question: string) {
    const created = await server.call('POST', '/v1/workflows', { json: { name: 'real', graph: { nodes: [start, ...nodes], edges: [{ from: 'start', to: nodes[0]!.id }, ...edges] } } });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    const ran = await server.call('POST', `/v1/workflows/${created.body.id}/run`, { json: { inputs: { question } } });
    if (ran.status !== 200) throw new Error(JSON.stringify(ran.body));
    return ran.body as Json;
  }
  const nodeRun = (ran: Json, id: string) => ran.node_runs.find((n: Json) => n.node_id === id);

  test('the LLM node: retrieval’s passages in the system message, the real model’s text as its output', async (t) => {
    const ran = await run(
      [
        { id: 'find', type: 'knowledge_retrieval', config: { knowledge_base_id: kb, query: '{{start.question}}' } },
        { id: 'llm', type: 'llm', config: { model, system: 'Answer from these passages:\n{{find.context}}', prompt: '{{start.question}}', temperature: 0, max_tokens: 24 } },
        { id: 'end', type: 'end', config: { outputs: { answer: '{{llm.text}}' } } },
      ],
      [
        { from: 'find', to: 'llm' },
        { from: 'llm', to: 'end' },
      ],
      'When are the roses pruned?',
    );
    t.is(ran.status, 'succeeded', JSON.stringify(ran.error));
    t.true(typeof ran.outputs.answer === 'string' && ran.outputs.answer.length > 0);
    t.is(nodeRun(ran, 'llm').outputs.text, ran.outputs.answer);
  });

  const classes = [
    { name: 'garden', description: 'Plants, flowers, pruning and gardening', examples: ['When do I water the tulips?'] },
    { name: 'billing', description: 'Invoices, payments and refunds', examples: ['Where is my invoice?'] },
  ];

  test('the question classifier: the model’s JSON names one of the classes, and the branch of that class runs', async (t) => {
    const ran = await run(
      [
        { id: 'route', type: 'question_classifier', config: { model, classes } },
        { id: 'g', type: 'direct_reply', config: { template: 'garden branch' } },
        { id: 'b', type: 'direct_reply', config: { template: 'billing branch' } },
      ],
      [
        { from: 'route', to: 'g', when: 'garden' },
        { from: 'route', to: 'b', when: 'billing' },
      ],
      'How should I prune my roses?',
    );
    t.is(ran.status, 'succeeded', JSON.stringify(ran.error));
    const chosen = nodeRun(ran, 'route').outputs.class as string;
    t.true(['garden', 'billing'].includes(chosen), chosen);
    t.deepEqual(nodeRun(ran, 'route').outputs.scores, { garden: chosen === 'garden' ? 1 : 0, billing: chosen === 'billing' ? 1 : 0 });
    const branch = chosen === 'garden' ? 'g' : 'b';
    t.is(nodeRun(ran, branch).status, 'succeeded');
    t.falsy(nodeRun(ran, branch === 'g' ? 'b' : 'g')?.status === 'succeeded', 'the other branch did not run');
  });

  test('the parameter extractor: the model fills the schema; values that do not fit their property count as missing', async (t) => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city the trip goes to' },
        nights: { type: 'integer', description: 'How many nights' },
        pets: { type: 'boolean', description: 'Whether pets come along' },
      },
    };
    const ran = await run(
      [
        { id: 'extract', type: 'parameter_extractor', config: { model, schema } },
        { id: 'end', type: 'end', config: { outputs: { city: '{{extract.city}}' } } },
      ],
      [{ from: 'extract', to: 'end' }],
      'Book a hotel in Paris for 3 nights.',
    );
    t.is(ran.status, 'succeeded', JSON.stringify(ran.error));
    const out = nodeRun(ran, 'extract').outputs;
    t.deepEqual(Object.keys(out).sort(), ['city', 'data', 'missing', 'nights', 'pets']);
    for (const name of ['city', 'nights', 'pets']) {
      // Either a value of the property's type in data (and as the field), or missing and null.
      if (out.missing.includes(name)) t.is(out[name], null);
      else t.is(out[name], out.data[name]);
    }
    if (!out.missing.includes('city')) t.is(typeof out.data.city, 'string');
    if (!out.missing.includes('nights')) t.true(Number.isInteger(out.data.nights));
    if (!out.missing.includes('pets')) t.is(typeof out.data.pets, 'boolean');
    t.is(out.missing.length + Object.keys(out.data).length, 3);
  });
});
