import { readdirSync } from 'node:fs';
import test from 'ava';
import { eventCatalog } from '../../schemas/events/index.ts';
import { type Capability, eventTypesOf } from '../../src/capabilities/capability.ts';
import { allProjections, CAPABILITIES } from '../../src/capabilities/index.ts';

const folder = new URL('../../src/capabilities/', import.meta.url);
/** The files of the folder that are not capabilities: the descriptor's type, the list, the API's description. */
const SHELL = new Set(['capability.ts', 'index.ts', 'describe-api.ts']);

test('each capability file exports one descriptor, named as the file, and the list holds each once', async (t) => {
  const files = readdirSync(folder).filter((f) => f.endsWith('.ts') && !SHELL.has(f));
  const exported: Capability[] = [];
  for (const file of files) {
    const parts = Object.values((await import(new URL(file, folder).href)) as Record<string, Capability>);
    t.is(parts.length, 1, `${file} exports one capability`);
    t.is(parts[0]!.name, file.replace(/\.ts$/, ''), `${file}: the capability's name is the file's`);
    exported.push(parts[0]!);
  }
  const names = (list: readonly Capability[]) => list.map((c) => c.name).sort();
  t.deepEqual(names(CAPABILITIES), names(exported), 'src/capabilities/index.ts lists every capability file, and only those');
  for (const capability of exported) t.true(CAPABILITIES.includes(capability), `${capability.name}: the list holds the file's own descriptor`);
  t.is(new Set(CAPABILITIES.map((c) => c.name)).size, CAPABILITIES.length);
});

test('every event type of the log belongs to exactly one capability', (t) => {
  const owners = new Map<string, string[]>();
  for (const capability of CAPABILITIES) for (const type of eventTypesOf(capability)) owners.set(type, [...(owners.get(type) ?? []), capability.name]);
  for (const type of Object.keys(eventCatalog)) t.deepEqual(owners.get(type)?.length, 1, `${type}: owned by ${owners.get(type)?.join(', ') ?? 'no capability'}`);
  t.deepEqual([...owners.keys()].filter((type) => !(type in eventCatalog)), [], 'events a capability names that the catalog lacks');
});

test('every read model is kept by one capability, under a collection of its own', (t) => {
  const collections = allProjections.map((p) => p.collection);
  t.is(new Set(collections).size, collections.length, collections.join(', '));
});
