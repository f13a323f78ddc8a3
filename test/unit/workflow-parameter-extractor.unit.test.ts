import test from 'ava';
import { nodeType } from '../../src/domain/workflow/nodes/index.ts';
import { NodeFailure, type ChatCompleter, type NodeServices, type RunScope } from '../../src/domain/workflow/nodes/node-type.ts';
import { ParameterSchema } from '../../src/domain/workflow/nodes/parameter-schema.ts';
import { findDates } from '../../src/domain/workflow/nodes/read-dates.ts';
import { nodeServices } from '../helpers/node-services.ts';
import { readParameters } from '../../src/domain/workflow/nodes/read-parameters.ts';

const signal = new AbortController().signal;
const scope = (question: string): RunScope => ({ workspaceId: 'ws_1', inputs: {}, outputs: new Map([['start', { question }]]), nodeTypes: new Map() });
const services: NodeServices = nodeServices({ similarity: async () => [], runSubgraph: async () => ({}) });
const extract = async (question: string, config: unknown, using = services) =>
  nodeType('parameter_extractor').run({ config: nodeType('parameter_extractor').config.parse(config), scope: scope(question), services: using, signal });

const refund = ParameterSchema.parse({
  type: 'object',
  properties: {
    order_id: { type: 'string', description: 'the order number' },
    amount: { type: 'number', description: 'the refund amount' },
    quantity: { type: 'integer' },
    email: { type: 'string', format: 'email' },
    ordered_on: { type: 'string', format: 'date' },
    channel: { type: 'string', enum: ['Web', 'Phone', 'Store'] },
    urgent: { type: 'boolean' },
  },
  required: ['order_id', 'amount'],
});

test('offline: emails, dates, money, integers, enumerations, yes/no and labelled strings are read from text', (t) => {
  const text = 'Order id: A-1742, bought 3 chairs in the STORE on March 5, 2024 for $1,250.50. Mail me at jo@example.com. Urgent? yes';
  t.deepEqual(readParameters(text, refund), {
    order_id: 'A-1742',
    amount: 1250.5,
    quantity: 3,
    email: 'jo@example.com',
    ordered_on: '2024-03-05',
    channel: 'Store',
    urgent: true,
  });
});

test('offline: what the text does not say is left out', (t) => {
  t.deepEqual(readParameters('Please help, no idea.', refund), { urgent: false });
  t.deepEqual(readParameters('', refund), {});
});

test('offline: numbers go first to the property whose name is written near them, dates are not numbers', (t) => {
  const schema = ParameterSchema.parse({ type: 'object', properties: { adults: { type: 'integer' }, children: { type: 'integer' }, arrival: { type: 'string', format: 'date' } } });
  t.deepEqual(readParameters('2 children and 4 adults arriving 2025-07-14', schema), { adults: 4, children: 2, arrival: '2025-07-14' });
  t.deepEqual(readParameters('price 2.5k EUR', ParameterSchema.parse({ type: 'object', properties: { price: { type: 'number' } } })), { price: 2500 });
});

test('dates in the written forms people use, as YYYY-MM-DD; a day that does not exist is none', (t) => {
  const values = (text: string) => findDates(text).map((d) => d.value);
  t.deepEqual(values('on 2024-02-29, 5 March 2024, the 7th of Dec, 2023, Jan 2nd 2022 and 2021/11/03'), ['2024-02-29', '2024-03-05', '2023-12-07', '2022-01-02', '2021-11-03']);
  t.deepEqual(values('2023-02-30 or February 30, 2023'), []);
});

test('the node: data, missing in schema order, and each property as an output of its own', async (t) => {
  const outputs = await extract('My email is ann@example.org, amount $40', { schema: refund });
  t.deepEqual(outputs.data, { amount: 40, email: 'ann@example.org' });
  t.deepEqual(outputs.missing, ['order_id', 'quantity', 'ordered_on', 'channel', 'urgent']);
  t.is(outputs.email, 'ann@example.org');
  t.is(outputs.order_id, null);
  t.deepEqual(nodeType('parameter_extractor').outputs(nodeType('parameter_extractor').config.parse({ schema: refund })), [
    'data', 'missing', 'order_id', 'amount', 'quantity', 'email', 'ordered_on', 'channel', 'urgent',
  ]);
});

test('a provider model fills the schema by structured output; values that do not fit count as missing', async (t) => {
  const sent: unknown[] = [];
  const model: ChatCompleter = {
    passesOptions: true,
    complete: async (request) => (sent.push(request.options), { content: '{"order_id":"B-9","amount":"ten","quantity":2,"channel":"phone","urgent":null}' }),
  };
  const outputs = await extract('whatever', { schema: refund, model: 'openai/gpt-x' }, { ...services, chatModel: async () => model });
  t.deepEqual(outputs.data, { order_id: 'B-9', quantity: 2, channel: 'Phone' });
  t.deepEqual(outputs.missing, ['amount', 'email', 'ordered_on', 'urgent']);
  t.like(sent[0], { response_format: { type: 'json_schema', json_schema: { strict: true, schema: { required: Object.keys(refund.properties) } } } });
  const prose: ChatCompleter = { passesOptions: true, complete: async () => ({ content: 'I cannot' }) };
  const failed = extract('x', { schema: refund, model: 'm' }, { ...services, chatModel: async () => prose });
  t.like(await t.throwsAsync(failed, { instanceOf: NodeFailure }), { code: 'model_bad_response' });
  t.like(await t.throwsAsync(extract('x', { schema: refund, model: 'nope' }), { instanceOf: NodeFailure }), { code: 'model_not_found' });
});

test('schema refusals name the field at fault', (t) => {
  const path = (schema: unknown) => nodeType('parameter_extractor').config.safeParse({ schema }).error?.issues[0]?.path;
  t.deepEqual(path({ type: 'object', properties: { n: { type: 'number', format: 'date' } } }), ['schema', 'properties', 'n', 'format']);
  t.deepEqual(path({ type: 'object', properties: { n: { type: 'number' } }, required: ['m'] }), ['schema', 'required', 0]);
  t.deepEqual(path({ type: 'object', properties: {} }), ['schema', 'properties']);
  t.deepEqual(path({ type: 'object', properties: { missing: { type: 'string' } } }), ['schema', 'properties', 'missing']);
  t.deepEqual(path({ type: 'array', properties: { n: { type: 'string' } } }), ['schema', 'type']);
});
