import test from 'ava';
import { readFileSync } from 'node:fs';
import { withYoungGeneration, YOUNG_GENERATION_FLAG } from '../../src/adapters/local/young-generation.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

test('children get the young generation unless their flags already size it', (t) => {
  t.deepEqual(withYoungGeneration(['--enable-source-maps']), ['--enable-source-maps', YOUNG_GENERATION_FLAG]);
  t.deepEqual(withYoungGeneration(['--max-semi-space-size=8']), ['--max-semi-space-size=8']);
});

// Heap sizes are fixed at start: every way of starting the server names the flag itself.
test('npm start, the kbqa command and the image start Node with the same young generation', (t) => {
  const start = JSON.parse(read('package.json')).scripts.start as string;
  t.true(start.startsWith(`node ${YOUNG_GENERATION_FLAG} bin/kbqa.js`), start);
  t.is(read('bin/kbqa.js').split('\n')[0], `#!/usr/bin/env -S node ${YOUNG_GENERATION_FLAG}`);
  t.regex(read('Dockerfile'), new RegExp(`^ENV NODE_OPTIONS=${YOUNG_GENERATION_FLAG}$`, 'm'));
});
