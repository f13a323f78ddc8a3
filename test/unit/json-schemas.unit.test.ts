import test from 'ava';
import type { z } from 'zod';
import { eventSchemaFile, generateJsonSchemas, readJsonSchemaDir, topicSchemaFile } from '../../scripts/generate-json-schemas.ts';
import { eventCatalog, type EventType } from '../../schemas/events/index.ts';
import { DEAD_LETTER_TOPIC, EVENT_TOPICS, HEADER, topicOfCategory } from '../../schemas/topics.ts';

type Json = Record<string, any>;

const generated = generateJsonSchemas();
const json = (path: string): Json => JSON.parse(generated.get(path) ?? 'null') as Json;
const eventFile = (type: EventType) => eventSchemaFile(type, eventCatalog[type].version);

test('schemas/json holds exactly what the generator produces from the zod schemas', (t) => {
  const committed = readJsonSchemaDir();
  const missing = [...generated.keys()].filter((path) => !committed.has(path));
  const stale = [...generated].filter(([path, text]) => committed.has(path) && committed.get(path) !== text).map(([path]) => path);
  const extra = [...committed.keys()].filter((path) => !generated.has(path));
  t.deepEqual(
    { missing, stale, extra },
    { missing: [], stale: [], extra: [] },
    'schemas/json is out of date with the zod schemas: run `npm run schemas` and commit schemas/json',
  );
});

test('generating twice gives the same text, 2-space JSON ending in a newline', (t) => {
  t.deepEqual([...generateJsonSchemas()], [...generated]);
  for (const [path, text] of generated) t.is(text, `${JSON.stringify(JSON.parse(text), null, 2)}\n`, path);
});

test('every event type of the catalog has its file, each with a $id and a title', (t) => {
  const ids = new Set<unknown>();
  for (const type of Object.keys(eventCatalog) as EventType[]) {
    const schema = json(eventFile(type));
    t.is(schema.$schema, 'https://json-schema.org/draft/2020-12/schema', type);
    t.is(schema.title, type);
    t.true((schema.description as string).includes(topicOfCategory(eventCatalog[type].category)), type);
    ids.add(schema.$id);
  }
  t.is(ids.size, Object.keys(eventCatalog).length, 'every $id is distinct');
});

for (const type of ['DocumentUploaded', 'ChatCompleted', 'WorkflowRunRequested', 'KnowledgeBaseUpdated', 'ApiKeyCreated'] as const) {
  test(`${type}: properties and required are the zod shape's keys, and nothing else is admitted`, (t) => {
    const schema = json(eventFile(type));
    const shape = (eventCatalog[type].schema as unknown as z.ZodObject).shape;
    const keys = Object.keys(shape);
    t.deepEqual(Object.keys(schema.properties as Json), keys);
    t.deepEqual(schema.required, keys.filter((key) => !shape[key]!.safeParse(undefined).success));
    t.is(schema.additionalProperties, false);
  });
}

test('a topic schema has one variant per event type of its category, its data referring to that event schema', (t) => {
  t.deepEqual([...generated.keys()].filter((path) => path.startsWith('topics/')).sort(), [...EVENT_TOPICS, DEAD_LETTER_TOPIC].map(topicSchemaFile).sort());
  for (const topic of EVENT_TOPICS) {
    const schema = json(topicSchemaFile(topic));
    const types = (Object.keys(eventCatalog) as EventType[]).filter((type) => topicOfCategory(eventCatalog[type].category) === topic);
    const variants = schema.oneOf as Json[];
    t.deepEqual(variants.map((v) => v.properties.type.const), types, topic);
    for (const variant of variants) {
      const type = variant.properties.type.const as EventType;
      t.deepEqual(variant.properties.data, { $ref: `#/$defs/${type}` });
      t.is(variant.properties.metadata.properties.schemaVersion.const, eventCatalog[type].version);
      const { $schema: _, $id: __, $comment: ___, ...data } = json(eventFile(type));
      t.deepEqual(schema.$defs[type], data, `${topic} carries the same ${type} schema as its own file`);
    }
  }
});

test('index.json maps every topic to its event types and files, and names the headers', (t) => {
  const index = json('index.json');
  t.deepEqual(Object.keys(index.headers as Json).sort(), Object.values(HEADER).sort());
  t.deepEqual(Object.keys(index.topics as Json), [...EVENT_TOPICS].sort());
  for (const type of Object.keys(eventCatalog) as EventType[]) {
    const entry = index.topics[topicOfCategory(eventCatalog[type].category)].eventTypes[type] as Json;
    t.deepEqual(entry, { version: eventCatalog[type].version, schema: eventFile(type) });
    t.true(generated.has(entry.schema as string));
  }
  t.deepEqual(index.deadLetter, { topic: DEAD_LETTER_TOPIC, schema: topicSchemaFile(DEAD_LETTER_TOPIC) });
});
