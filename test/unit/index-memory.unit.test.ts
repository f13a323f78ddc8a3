import test from 'ava';
import { createIndexMemory, type Resident } from '../../src/adapters/sqlite/index-memory.ts';

/** An index that holds what it is told per namespace, and records what it was asked to unload. */
function holding() {
  const held = new Map<string, number>();
  const unloaded: string[] = [];
  const index: Resident = {
    footprint: (namespace) => held.get(namespace) ?? 0,
    unload: (namespace) => {
      held.delete(namespace);
      unloaded.push(namespace);
    },
  };
  return { held, unloaded, index };
}

test('past the budget the least recently used knowledge bases are unloaded, every part of them', (t) => {
  const memory = createIndexMemory(1000);
  const vectors = holding();
  const keywords = holding();
  for (const kb of ['a', 'b', 'c']) {
    vectors.held.set(kb, 200);
    memory.touch(kb, 'vectors', vectors.index);
    keywords.held.set(kb, 100);
    memory.touch(kb, 'keywords', keywords.index);
  }
  t.like(memory.stats(), { bytes: 900, namespaces: 3, evictions: 0 });
  memory.touch('a', 'vectors', vectors.index); // a is now the most recent, b the least
  vectors.held.set('d', 300);
  memory.touch('d', 'vectors', vectors.index);
  t.deepEqual(vectors.unloaded, ['b']);
  t.deepEqual(keywords.unloaded, ['b']);
  t.like(memory.stats(), { bytes: 900, namespaces: 3, evictions: 1, budgetBytes: 1000 });
});

test('a knowledge base that grows past the budget by its writes unloads the others, never itself', (t) => {
  const memory = createIndexMemory(1000);
  const vectors = holding();
  for (const kb of ['a', 'b']) {
    vectors.held.set(kb, 400);
    memory.touch(kb, 'vectors', vectors.index);
  }
  vectors.held.set('b', 5000);
  memory.touch('b', 'vectors', vectors.index);
  t.deepEqual(vectors.unloaded, ['a']);
  t.like(memory.stats(), { bytes: 5000, namespaces: 1 });
  vectors.held.set('a', 10);
  memory.touch('a', 'vectors', vectors.index);
  t.deepEqual(vectors.unloaded, ['a', 'b']);
});

test('a part that holds nothing any more (deleted, failed) leaves the budget without an unload', (t) => {
  const memory = createIndexMemory(1000);
  const vectors = holding();
  vectors.held.set('a', 300);
  memory.touch('a', 'vectors', vectors.index);
  vectors.held.delete('a');
  memory.touch('a', 'vectors', vectors.index);
  t.like(memory.stats(), { bytes: 0, namespaces: 0, evictions: 0 });
  t.deepEqual(vectors.unloaded, []);
});

test('budget 0 means no limit', (t) => {
  const memory = createIndexMemory(0);
  const vectors = holding();
  for (let i = 0; i < 50; i++) {
    vectors.held.set(`kb${i}`, 1e9);
    memory.touch(`kb${i}`, 'vectors', vectors.index);
  }
  t.like(memory.stats(), { budgetBytes: 0, namespaces: 50, evictions: 0, bytes: 50e9 });
});
