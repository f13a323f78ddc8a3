import { readdirSync } from 'node:fs';
import test from 'ava';

const folder = new URL('../../src/capabilities/', import.meta.url);

// The capability indexes are for people: this keeps every name they give pointing at something real.
for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts'))) {
  test(`capability index ${file}: every part it names exists`, async (t) => {
    const parts = (await import(new URL(file, folder).href)) as Record<string, unknown>;
    t.true(Object.keys(parts).length >= 5, 'names its schema, decider or pipeline, service and routes');
    for (const [name, part] of Object.entries(parts)) t.not(part, undefined, name);
  });
}
