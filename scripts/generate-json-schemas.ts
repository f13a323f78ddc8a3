// Writes schemas/json/: the JSON Schemas (draft 2020-12) of the Kafka contract, generated from the
// zod schemas, for downstream consumers that do not run TypeScript. `npm run schemas` after changing
// an event; test/unit/json-schemas.unit.test.ts fails while the files are stale.
//   one file per event type:  events/<EventType>.v<version>.schema.json  (the event's data)
//   one file per topic:       topics/<topic>.schema.json  (the message value, one variant per event type)
//   index.json:               topics → event types → files, the message key and headers
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { eventCatalog, type EventType } from '../schemas/events/index.ts';
import { DEAD_LETTER_TOPIC, DeadLetterMessage, EventMessage, HEADER, topicOfCategory } from '../schemas/topics.ts';

export const JSON_SCHEMA_DIR = fileURLToPath(new URL('../schemas/json/', import.meta.url));

type Json = Record<string, unknown>;

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const GENERATED = 'Generated from the zod schemas by scripts/generate-json-schemas.ts (npm run schemas): do not edit.';
const REFINED = 'The service also enforces rules on this value that JSON Schema cannot express (a zod refinement).';
const STREAM_KEY = 'the stream id, `<category>-<id>`: the events of one stream stay in order in one partition';

export const eventSchemaFile = (type: string, version: number) => `events/${type}.v${version}.schema.json`;
export const topicSchemaFile = (topic: string) => `topics/${topic}.schema.json`;

/** Every file of schemas/json, by path relative to it, with its exact text, in path order. */
export function generateJsonSchemas(): Map<string, string> {
  const files = new Map<string, string>();
  const put = (path: string, value: Json) => files.set(path, `${JSON.stringify(value, null, 2)}\n`);
  const topics = eventTypesByTopic();
  for (const type of catalogTypes()) put(eventSchemaFile(type, eventCatalog[type].version), eventSchemaDocument(type));
  for (const [topic, types] of topics) put(topicSchemaFile(topic), topicSchemaDocument(topic, types));
  put(topicSchemaFile(DEAD_LETTER_TOPIC), deadLetterSchemaDocument());
  put('index.json', indexDocument(topics));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * Event data as it is in the log (`io: 'output'`: every event is parsed before it is appended, so
 * defaults are filled in and required). `unrepresentable` stays `throw`: an event that cannot be
 * described fails the generator instead of turning into an `{}` that admits anything.
 */
function eventDataSchema(type: EventType): Json {
  const { category, version } = eventCatalog[type];
  const { $schema: _, ...schema } = convert(eventCatalog[type].schema, 'output');
  const topic = topicOfCategory(category);
  const description =
    `The data of ${type} events, schema version ${version}: appended to streams of category "${category}" and published on ` +
    `the Kafka topic ${topic} with the headers ${HEADER.eventType}: ${type} and ${HEADER.schemaVersion}: ${version}.`;
  return { title: type, description, ...schema };
}

function eventSchemaDocument(type: EventType): Json {
  return root(`urn:kbqa:event:${type}:v${eventCatalog[type].version}`, eventDataSchema(type));
}

/**
 * The envelope is read as its consumers read it (`io: 'input'`): open to fields added later, as
 * zod's strip mode is. Each variant pins `type` and `metadata.schemaVersion` and refers to its
 * data schema in `$defs`, so code generators produce a union discriminated by `type`.
 */
function topicSchemaDocument(topic: string, types: readonly EventType[]): Json {
  const { $schema: _, title: __, description: ___, ...envelope } = convert(EventMessage, 'input');
  const properties = envelope.properties as Record<string, Json>;
  const metadata = properties.metadata as Json & { properties: Json };
  const variant = (type: EventType): Json => ({
    title: `${type}Message`,
    ...envelope,
    properties: {
      ...properties,
      type: { type: 'string', const: type },
      data: { $ref: `#/$defs/${type}` },
      metadata: { ...metadata, properties: { ...metadata.properties, schemaVersion: { type: 'integer', const: eventCatalog[type].version } } },
    },
  });
  const description =
    `The value of a message on the Kafka topic ${topic}: one recorded event (EventMessage) whose data matches the schema of ` +
    `its type. Key: ${STREAM_KEY}. Headers: ${Object.values(HEADER).join(', ')}.`;
  return root(`urn:kbqa:topic:${topic}`, {
    title: `${topic} message`,
    description,
    oneOf: types.map(variant),
    $defs: Object.fromEntries(types.map((type) => [type, eventDataSchema(type)])),
  });
}

function deadLetterSchemaDocument(): Json {
  const { $schema: _, ...schema } = convert(DeadLetterMessage, 'input');
  return root(`urn:kbqa:topic:${DEAD_LETTER_TOPIC}`, schema);
}

function indexDocument(topics: ReadonlyMap<string, readonly EventType[]>): Json {
  return {
    $comment: GENERATED,
    dialect: DIALECT,
    key: STREAM_KEY,
    headers: {
      [HEADER.eventType]: 'the event type, e.g. DocumentUploaded',
      [HEADER.eventId]: 'the event id (a UUID), unique in the log: deduplicate redeliveries by it',
      [HEADER.schemaVersion]: 'the schema version of the event data, a decimal integer',
      [HEADER.documentVersion]: "on events of a document's stream only: the document version the event is about (a decimal integer; for DocumentVersionSuperseded, the version that now answers)",
    },
    topics: Object.fromEntries(
      [...topics].map(([topic, types]) => [
        topic,
        {
          category: eventCatalog[types[0]!].category,
          schema: topicSchemaFile(topic),
          eventTypes: Object.fromEntries(
            [...types].sort().map((type) => [type, { version: eventCatalog[type].version, schema: eventSchemaFile(type, eventCatalog[type].version) }]),
          ),
        },
      ]),
    ),
    deadLetter: { topic: DEAD_LETTER_TOPIC, schema: topicSchemaFile(DEAD_LETTER_TOPIC) },
  };
}

/** The root keywords first, in a fixed order, so a reader sees what the file is before what it says. */
function root(id: string, schema: Json): Json {
  const { title, description, $comment, ...rest } = schema;
  const comment = [GENERATED, ...(typeof $comment === 'string' ? [$comment] : [])].join(' ');
  return { $schema: DIALECT, $id: id, title, description, $comment: comment, ...rest };
}

function convert(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => {
      if (hasRefinement(zodSchema)) jsonSchema.$comment = REFINED;
    },
  });
  return JSON.parse(JSON.stringify(json)) as Json;
}

/** superRefine/refine leave a `custom` check, which no JSON Schema keyword can carry. */
function hasRefinement(schema: z.core.$ZodType): boolean {
  return (schema._zod.def.checks ?? []).some((check) => check._zod.def.check === 'custom');
}

function catalogTypes(): EventType[] {
  return Object.keys(eventCatalog) as EventType[];
}

/** Topic → its event types in catalog order (a lifecycle order), topics sorted by name. */
function eventTypesByTopic(): Map<string, EventType[]> {
  const topics = new Map<string, EventType[]>();
  for (const type of catalogTypes()) {
    const topic = topicOfCategory(eventCatalog[type].category);
    topics.set(topic, [...(topics.get(topic) ?? []), type]);
  }
  return new Map([...topics].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Every file under `dir`, by path relative to it (with `/`), with its text. */
export function readJsonSchemaDir(dir = JSON_SCHEMA_DIR): Map<string, string> {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  const files = new Map<string, string>();
  for (const entry of entries.sort()) {
    const path = join(dir, entry);
    try {
      files.set(relative(dir, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
    }
  }
  return files;
}

/** Makes `dir` hold exactly the generated files: writes what changed, removes what is no longer generated. */
export function writeJsonSchemas(dir = JSON_SCHEMA_DIR): { written: string[]; removed: string[] } {
  const wanted = generateJsonSchemas();
  const present = readJsonSchemaDir(dir);
  const written = [...wanted].filter(([path, text]) => present.get(path) !== text).map(([path]) => path);
  const removed = [...present.keys()].filter((path) => !wanted.has(path));
  for (const path of written) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), wanted.get(path)!);
  }
  for (const path of removed) rmSync(join(dir, path));
  return { written, removed };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { written, removed } = writeJsonSchemas();
  const summary = { dir: relative(process.cwd(), JSON_SCHEMA_DIR) || '.', files: generateJsonSchemas().size, written, removed };
  console.log(JSON.stringify(summary, null, 2));
}
