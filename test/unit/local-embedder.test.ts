import test from 'ava';
import { createLocalEmbedder } from '../../src/adapters/local/local-embedder.ts';
import { MINILM } from '../../src/adapters/local/local-model-specs.ts';
import { tempDir } from '../helpers/temp.ts';
import { miniLmForTests, RUNTIME } from '../helpers/local-model.ts';

const folder = miniLmForTests();
const withModel = folder ? test.serial : test.serial.skip;

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, i) => sum + v * b[i]!, 0);

withModel('MiniLM from its folder: 384 unit vectors, a paraphrase nearer than a sentence on another topic', async (t) => {
  const embedder = createLocalEmbedder({ spec: MINILM, folder: folder!, runtime: RUNTIME });
  t.teardown(() => embedder.close());
  t.is(embedder.dimensions, 384);
  const [query, paraphrase, other] = await embedder.embed(['How do I reset my password?', 'Steps to recover access when you forgot your login credentials.', 'The volcano erupted lava over the island.']);
  for (const v of [query!, paraphrase!, other!]) {
    t.is(v.length, 384);
    t.true(Math.abs(cosine(v, v) - 1) < 1e-4, 'L2-normalised');
  }
  t.true(cosine(query!, paraphrase!) > cosine(query!, other!) + 0.2, `paraphrase ${cosine(query!, paraphrase!)} against ${cosine(query!, other!)}`);
});

withModel('a batch answers in its order, each text as it embeds alone (padding changes nothing that matters)', async (t) => {
  const embedder = createLocalEmbedder({ spec: MINILM, folder: folder!, runtime: RUNTIME });
  t.teardown(() => embedder.close());
  const texts = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} about ${i % 2 ? 'the sea and its tides' : 'a long walk through the mountains in the early morning, before the sun rose over the valley'}.`);
  const batch = await embedder.embed(texts);
  t.is(batch.length, texts.length);
  for (const i of [0, 7, 39]) {
    const [alone] = await embedder.embed([texts[i]!]);
    t.true(cosine(alone!, batch[i]!) > 0.999, `text ${i}: ${cosine(alone!, batch[i]!)}`);
  }
});

withModel('a text past 128 word pieces is truncated, not refused', async (t) => {
  const embedder = createLocalEmbedder({ spec: MINILM, folder: folder!, runtime: RUNTIME });
  t.teardown(() => embedder.close());
  const [long] = await embedder.embed(['word '.repeat(2000)]);
  t.is(long!.length, 384);
});

test('a folder that does not load fails the call with its reason, and the next call tries again', async (t) => {
  const dir = tempDir();
  t.teardown(dir.remove);
  const embedder = createLocalEmbedder({ spec: MINILM, folder: dir.path, runtime: RUNTIME });
  t.teardown(() => embedder.close());
  const first = await t.throwsAsync(embedder.embed(['hello']));
  t.regex(first!.message, /local\/all-minilm-l6-v2 could not be loaded from .*: /);
  const second = await t.throwsAsync(embedder.embed(['hello']));
  t.regex(second!.message, /could not be loaded/);
});
