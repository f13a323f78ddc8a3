import test from 'ava';
import { z } from 'zod';
import { generateJsonSchemas } from '../../scripts/generate-json-schemas.ts';
import { WorkflowNode } from '../../schemas/workflow.ts';
import { describeApi } from '../../src/capabilities/describe-api.ts';
import { knowledgeBasesOf } from '../../src/domain/workflow/graph.ts';
import { NODE_TYPE_NAMES, NODE_TYPES, nodeType } from '../../src/domain/workflow/nodes/index.ts';
import { NodeFailure, type NodeServices, type RunScope } from '../../src/domain/workflow/nodes/node-type.ts';

type Json = Record<string, any>;

const scope = (outputs: Record<string, Record<string, unknown>> = {}): RunScope => ({
  workspaceId: 'ws_1',
  inputs: {},
  outputs: new Map(Object.entries(outputs)),
  nodeTypes: new Map(),
});
const noServices: NodeServices = {
  retrieve: async () => undefined,
  chatModel: async () => undefined,
  similarity: async (_query, texts) => texts.map(() => 0),
  runSubgraph: async () => ({}),
  runCode: async () => { throw new Error('no sandbox in this test'); },
  httpRequest: async () => { throw new Error('no network in this test'); },
};
const signal = new AbortController().signal;

/** The config fields of a type's schema (a refined object schema is still an object schema). */
const configFields = (name: string) => Object.keys((nodeType(name).config as unknown as z.ZodObject).shape);

for (const name of NODE_TYPE_NAMES) {
  test(`node type ${name}: one descriptor with a config schema, outputs, rules on its own fields, and an executor`, (t) => {
    const descriptor = NODE_TYPES[name];
    t.is(descriptor.type, name, 'the map key is the descriptor type');
    t.true(descriptor.config instanceof z.ZodObject, 'config is an object schema');
    t.is(typeof descriptor.outputs, 'function');
    t.is(typeof descriptor.run, 'function');
    const fields = configFields(name);
    const named = Object.values(descriptor.names ?? {}).flat();
    for (const field of [...descriptor.templates, ...named]) t.true(fields.includes(field), `${field} is a config field`);
  });
}

test('the node union, the OpenAPI input and the JSON Schemas list exactly the map, in its order', (t) => {
  t.deepEqual(
    WorkflowNode.options.map((option) => option.shape.type.value),
    NODE_TYPE_NAMES,
  );
  for (const file of ['events/WorkflowCreated.v1.schema.json', 'events/WorkflowUpdated.v1.schema.json']) {
    const schema = JSON.parse(generateJsonSchemas().get(file) ?? 'null') as Json;
    const variants = schema.properties.graph.properties.nodes.items.oneOf as Json[];
    t.deepEqual(variants.map((v) => v.properties.type.const), NODE_TYPE_NAMES, file);
  }
  const unions = nodeUnions(describeApi('test'));
  t.true(unions.length > 0, 'the OpenAPI document describes workflow nodes');
  for (const union of unions) t.deepEqual(union, NODE_TYPE_NAMES);
});

/** Every union in a JSON document whose variants are told apart by `type`, one of them being `start`: the node lists. */
function nodeUnions(value: unknown): string[][] {
  if (typeof value !== 'object' || value === null) return [];
  const found = Object.values(value).flatMap(nodeUnions);
  const variants = (value as Json).oneOf ?? (value as Json).anyOf;
  if (!Array.isArray(variants)) return found;
  const types = variants.map((v: Json) => v?.properties?.type?.const as unknown);
  return types.includes('start') ? [types as string[], ...found] : found;
}

test('exactly one node type is the entry, and at least one replies', (t) => {
  t.deepEqual(NODE_TYPE_NAMES.filter((name) => nodeType(name).entry), ['start']);
  t.true(NODE_TYPE_NAMES.some((name) => nodeType(name).runOutputs?.answer !== undefined));
});

test('knowledgeBasesOf reads the fields a node type declares', (t) => {
  const retrieve = (id: string, kb: string) => ({ id, type: 'knowledge_retrieval' as const, timeout_ms: 1000, config: { knowledge_base_id: kb, query: 'q' } });
  const graph = { nodes: [retrieve('a', 'kb_1'), retrieve('b', 'kb_1'), retrieve('c', 'kb_2')], edges: [] };
  t.deepEqual(knowledgeBasesOf(graph), ['kb_1', 'kb_2']);
});

test('executors run on their config alone, reaching I/O only through the services port', async (t) => {
  const ran = scope({ start: { question: 'Erebus?' } });
  const run = async (name: string, config: unknown, services = noServices) => nodeType(name).run({ config: config as Record<string, unknown>, scope: ran, services, signal });
  t.deepEqual(await run('template', { template: 'Q: {{start.question}}' }), { output: 'Q: Erebus?' });
  t.deepEqual(await run('direct_reply', { template: '{{start.question}}' }), { answer: 'Erebus?' });
  t.deepEqual(await run('condition', { left: '{{start.question}}', operator: 'contains', right: 'Ere' }), { result: true });
  const missingKb = run('knowledge_retrieval', { knowledge_base_id: 'kb_x', query: '{{start.question}}' });
  t.like(await t.throwsAsync(missingKb, { instanceOf: NodeFailure }), { code: 'knowledge_base_not_found' });
  const missingModel = run('llm', { model: 'nope', prompt: 'hi' });
  t.like(await t.throwsAsync(missingModel, { instanceOf: NodeFailure }), { code: 'model_not_found' });
  const echo: NodeServices = { ...noServices, chatModel: async () => ({ complete: async ({ messages }) => ({ content: messages.map((m) => m.content).join('|') }) }) };
  t.deepEqual(await run('llm', { model: 'm', system: 's', prompt: '{{start.question}}' }, echo), { text: 's|Erebus?' });
});
