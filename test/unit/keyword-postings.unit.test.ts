import test from 'ava';
import { decodeTerms, encodeTerms } from '../../src/adapters/sqlite/keyword-codec.ts';
import { NamespacePostings, type StoredChunk } from '../../src/adapters/sqlite/keyword-postings.ts';
import { TopK } from '../../src/adapters/sqlite/keyword-top-k.ts';

const params = { k1: 0.9, b: 0.4 };

/** Deterministic PRNG, so a failure reproduces. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), a | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

type Chunk = { id: string; documentId: string; tf: Map<string, number>; length: number };

/** BM25 the slow, obvious way, normalised as the port says: the yardstick for the index. */
function reference(chunks: Iterable<Chunk>, terms: string[], topK: number, documentIds?: string[]) {
  const live = [...chunks];
  const avg = live.reduce((s, c) => s + c.length, 0) / live.length;
  const weights = terms.map((t) => {
    const df = live.filter((c) => c.tf.has(t)).length;
    return Math.log(1 + (live.length - df + 0.5) / (df + 0.5));
  });
  const best = weights.reduce((s, w) => s + w * (params.k1 + 1), 0);
  return live
    .filter((c) => !documentIds || documentIds.includes(c.documentId))
    .map((c) => {
      let score = 0;
      terms.forEach((t, i) => {
        const tf = Math.min(c.tf.get(t) ?? 0, 255);
        if (tf > 0) score += (weights[i]! * tf * (params.k1 + 1)) / (tf + params.k1 * (1 - params.b + (params.b * c.length) / avg));
      });
      return { id: c.id, documentId: c.documentId, score: score / best };
    })
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, topK);
}

/** A small random corpus over a Zipf-ish vocabulary, so some terms are common and many rare. */
function corpus(seed: number, n: number) {
  const rnd = random(seed);
  const word = () => `w${Math.floor(Math.exp(rnd() * Math.log(300)))}`;
  return Array.from({ length: n }, (_, i): Chunk => {
    const tf = new Map<string, number>();
    const length = 1 + Math.floor(rnd() * 40);
    for (let j = 0; j < length; j++) {
      const w = word();
      tf.set(w, (tf.get(w) ?? 0) + 1);
    }
    return { id: `c${i}`, documentId: `d${Math.floor(i / 3)}`, tf, length };
  });
}

class Harness {
  readonly postings = new NamespacePostings(params);
  readonly live = new Map<string, Chunk>();
  readonly terms = new Map<string, { ids: Uint32Array; tfs: Uint32Array }>();

  termList(c: Chunk) {
    const pairs = [...c.tf].map(([t, n]) => [this.postings.intern(t, () => {}), n] as const).sort((a, b) => a[0] - b[0]);
    return { ids: Uint32Array.from(pairs, (p) => p[0]), tfs: Uint32Array.from(pairs, (p) => p[1]) };
  }

  add(c: Chunk) {
    if (this.live.has(c.id)) this.remove(c.id);
    const list = this.termList(c);
    this.postings.add(c.id, c.documentId, list, c.length);
    this.live.set(c.id, c);
    this.terms.set(c.id, list);
  }

  remove(id: string) {
    this.postings.remove(id, this.terms.get(id)!);
    this.live.delete(id);
    this.terms.delete(id);
  }
}

function same(t: import('ava').ExecutionContext, actual: { id: string; score: number }[], expected: { id: string; score: number }[], label: string) {
  t.is(actual.length, expected.length, `${label}: count`);
  actual.forEach((m, i) => {
    const e = expected[i]!;
    // Float32 accumulation: near-ties may swap, so compare scores by rank, and ids where the gap is clear.
    t.true(Math.abs(m.score - e.score) < 1e-5, `${label}: score at ${i} ${m.score} vs ${e.score}`);
    if (i + 1 < expected.length && e.score - expected[i + 1]!.score > 1e-5 && (i === 0 || expected[i - 1]!.score - e.score > 1e-5)) {
      t.is(m.id, e.id, `${label}: id at ${i}`);
    }
  });
}

test('search matches brute-force BM25 through adds, replacements, deletes and compactions', (t) => {
  const rnd = random(42);
  const h = new Harness();
  const chunks = corpus(1, 600);
  const queries = Array.from({ length: 25 }, (_, i) => [...new Set(Array.from({ length: 1 + (i % 6) }, () => `w${Math.floor(Math.exp(rnd() * Math.log(300)))}`))]);
  const check = (label: string) => {
    for (const q of queries) same(t, h.postings.search(q, 10), reference(h.live.values(), q, 10), label);
    same(t, h.postings.search(queries[3]!, 50, ['d1', 'd7', 'd40']), reference(h.live.values(), queries[3]!, 50, ['d1', 'd7', 'd40']), `${label} filtered`);
    t.is(h.postings.size, h.live.size);
  };
  chunks.slice(0, 300).forEach((c) => h.add(c));
  check('delta only');
  h.postings.compact();
  check('after compaction');
  chunks.slice(300).forEach((c) => h.add(c));
  for (let i = 0; i < 120; i++) {
    const ids = [...h.live.keys()];
    h.remove(ids[Math.floor(rnd() * ids.length)]!);
  }
  corpus(9, 100).forEach((c) => h.add({ ...c, id: `c${Math.floor(rnd() * 600)}` }));
  check('base, delta, dead and replaced');
  h.postings.compact();
  check('compacted again');
});

test('load builds the same index from stored chunks as adding them one by one', (t) => {
  const h = new Harness();
  corpus(3, 400).forEach((c) => h.add(c));
  const vocabulary: string[] = [];
  const probe = new NamespacePostings(params);
  for (const c of h.live.values()) for (const term of c.tf.keys()) probe.intern(term, (tm, id) => (vocabulary[id] = tm));
  const rows: StoredChunk[] = [...h.live.values()].map((c) => {
    const pairs = [...c.tf].map(([tm, n]) => [vocabulary.indexOf(tm), n] as const).sort((a, b) => a[0] - b[0]);
    return [c.id, c.documentId, c.length, encodeTerms({ ids: Uint32Array.from(pairs, (p) => p[0]), tfs: Uint32Array.from(pairs, (p) => p[1]) })];
  });
  const loaded = new NamespacePostings(params);
  vocabulary.forEach((term, id) => loaded.defineTerm(term, id));
  loaded.load(rows);
  for (const q of [['w1'], ['w2', 'w17', 'w200'], ['w5', 'nope']]) same(t, loaded.search(q, 20), h.postings.search(q, 20), q.join(' '));
  t.throws(() => loaded.load(rows), { message: /empty/ });
});

test('filters, limits and unknown terms', (t) => {
  const h = new Harness();
  corpus(5, 50).forEach((c) => h.add(c));
  t.deepEqual(h.postings.search(['w1'], 10, []), []);
  t.deepEqual(h.postings.search(['w1'], 10, ['no-such-document']), []);
  t.deepEqual(h.postings.search(['unknown'], 10), []);
  t.deepEqual(h.postings.search(['w1'], 0), []);
  t.deepEqual(h.postings.search(['w1'], Number.NaN), []);
  t.true(h.postings.search(['w1'], 1_000).length <= 50);
  t.throws(() => h.postings.add('c1', 'd0', { ids: [], tfs: [] }, 0), { message: /already indexed/ });
});

test('term lists round-trip through the stored encoding, large ids and frequencies included', (t) => {
  const ids = Uint32Array.from([0, 1, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 32 - 1]);
  const tfs = Uint32Array.from([1, 2, 127, 128, 300, 1, 70_000, 5]);
  const decoded = decodeTerms(encodeTerms({ ids, tfs }));
  t.deepEqual([...decoded.ids], [...ids]);
  t.deepEqual([...decoded.tfs], [...tfs]);
  t.deepEqual([...decodeTerms(encodeTerms({ ids: new Uint32Array(0), tfs: new Uint32Array(0) })).ids], []);
});

test('top-k keeps the best, ties to the lower ordinal', (t) => {
  const rnd = random(7);
  const scores = Array.from({ length: 1_000 }, () => Math.round(rnd() * 50));
  const top = new TopK(10);
  scores.forEach((s, o) => s > top.threshold && top.offer(s, o));
  const expected = scores
    .map((score, ordinal) => ({ ordinal, score }))
    .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal)
    .slice(0, 10);
  t.deepEqual(top.drain(), expected);
});

test('the shared score scratch: a sampled cut-off gives the same top k as offering every chunk, across namespaces of other sizes', (t) => {
  const small = new Harness();
  const large = new Harness();
  corpus(3, 40).forEach((c) => small.add(c));
  const chunks = corpus(4, 20_000);
  chunks.forEach((c) => large.add(c));
  for (let i = 0; i < 40; i += 3) large.remove(`c${i}`);
  const rnd = random(11);
  for (let n = 0; n < 12; n++) {
    const q = [...new Set(Array.from({ length: 1 + (n % 4) }, () => `w${Math.floor(Math.exp(rnd() * Math.log(300)))}`))];
    // Alternating, so each search starts from what the other namespace's search left.
    same(t, large.postings.search(q, 100), reference(large.live.values(), q, 100), `large ${q.join(' ')}`);
    same(t, small.postings.search(q, 5), reference(small.live.values(), q, 5), `small ${q.join(' ')}`);
    same(t, large.postings.search(q, 20, ['d5', 'd6000']), reference(large.live.values(), q, 20, ['d5', 'd6000']), `filtered ${q.join(' ')}`);
  }
});

test('top-k can be emptied and refilled', (t) => {
  const top = new TopK(2);
  [3, 9, 4].forEach((s, o) => top.offer(s, o));
  top.clear();
  t.is(top.threshold, -Infinity);
  [1, 2].forEach((s, o) => top.offer(s, o));
  t.deepEqual(top.drain(), [{ ordinal: 1, score: 2 }, { ordinal: 0, score: 1 }]);
});
