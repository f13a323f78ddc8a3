import test from 'ava';
import { NODE_TYPES as SERVER_TYPES } from '../../src/domain/workflow/nodes/index.ts';
import type { AnyNodeType } from '../../src/domain/workflow/nodes/index.ts';
import { NODE_TYPES as CONSOLE_TYPES } from '../../web/console/src/capabilities/workflows/canvas/node-types.ts';

// The console may not import the server's node types (web/ stands apart), so it mirrors them;
// these checks catch the mirror falling behind when a type or a config field is added.
const server = SERVER_TYPES as unknown as Record<string, AnyNodeType>;
const configKeys = (type: AnyNodeType): string[] => Object.keys((type.config as unknown as { shape: Record<string, unknown> }).shape);

test('the canvas knows every node type the server runs, and no other', (t) => {
  t.deepEqual(Object.keys(CONSOLE_TYPES).sort(), Object.keys(server).sort());
});

test('the side panel draws every config field of each type, and only fields the type has', (t) => {
  for (const [name, spec] of Object.entries(CONSOLE_TYPES)) {
    t.deepEqual(spec.fields.map((f) => f.name).sort(), configKeys(server[name]!).sort(), name);
  }
});

test('a new node’s config is one the server accepts, once its required names are filled, and both sides agree on its outputs', (t) => {
  // The fields a user must fill before saving: the canvas starts them empty on purpose.
  const filled: Record<string, Record<string, unknown>> = { knowledge_retrieval: { knowledge_base_id: 'kb_1', query: '{{start.question}}' }, llm: { model: 'kbqa-extractive', prompt: 'hi' } };
  for (const [name, spec] of Object.entries(CONSOLE_TYPES)) {
    const config = { ...spec.initial(), ...filled[name] };
    const parsed = server[name]!.config.safeParse(config);
    t.true(parsed.success, `${name}: ${parsed.success ? '' : parsed.error.message}`);
    if (parsed.success) t.deepEqual(spec.outputs(config), [...server[name]!.outputs(parsed.data)], name);
  }
});
