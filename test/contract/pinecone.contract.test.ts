import { Pinecone } from '@pinecone-database/pinecone';
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { createPineconeVectorIndex } from '../../src/adapters/pinecone/vector-index.ts';
import { sleep } from '../../src/lib/retry.ts';
import type { VectorIndex, VectorRecord } from '../../src/ports/vector-index.ts';
import { withService } from '../helpers/services.ts';
import { testVectorIndex } from './suites/search-indexes.suite.ts';

const TITLE = 'pinecone vector index';
const ENV = ['PINECONE_API_KEY', 'PINECONE_INDEX'];
/** The suite writes 4- and 64-dimension vectors; zero-padded to the index's dimension, their cosines stay the same. */
const SUITE_DIMENSIONS = 64;
const VISIBLE_WITHIN_MS = 90_000;

/** The index's dimension, or why the suite cannot run against it; undefined without credentials. */
async function inspectIndex(): Promise<{ dimension: number } | { skip: string } | undefined> {
  const apiKey = process.env.PINECONE_API_KEY;
  const name = process.env.PINECONE_INDEX;
  if (!apiKey || !name) return undefined;
  const model = await new Pinecone({ apiKey }).describeIndex(name);
  if (model.metric !== 'cosine') return { skip: `index "${name}" uses the ${model.metric} metric; the suite needs cosine` };
  if (model.vectorType === 'sparse' || !model.dimension || model.dimension < SUITE_DIMENSIONS) {
    return { skip: `index "${name}" has dimension ${model.dimension ?? 'none'}; the suite needs a dense index of at least ${SUITE_DIMENSIONS}` };
  }
  return { dimension: model.dimension };
}

// Tests are declared after this await: AVA starts running them only once the first is declared.
const inspected = await inspectIndex();

withService(test, TITLE, ENV, ({ PINECONE_API_KEY, PINECONE_INDEX }) => {
  if (!inspected || 'skip' in inspected) {
    const reason = inspected?.skip ?? 'the index could not be inspected';
    test.skip(`${TITLE} (skipped: ${reason})`, () => {});
    process.stdout.write(`skipping "${TITLE}": ${reason}\n`);
    return;
  }
  const pinecone = createPineconeVectorIndex({ apiKey: PINECONE_API_KEY!, indexName: PINECONE_INDEX! });
  const padded = zeroPadded(pinecone, inspected.dimension);
  testVectorIndex(test, 'pinecone vector', async () => {
    const used = new Set<string>();
    return {
      index: readYourWrites(prefixed(padded, `contract-${randomUUID().slice(0, 8)}-`, used)),
      cleanup: async () => void (await Promise.all([...used].map((ns) => pinecone.deleteNamespace(ns)))),
    };
  });
});

function zeroPadded(index: VectorIndex, dimension: number): VectorIndex {
  const pad = (values: Float32Array) => {
    const out = new Float32Array(dimension);
    out.set(values);
    return out;
  };
  return {
    ...index,
    upsert: (ns, records) => index.upsert(ns, records.map((r) => ({ ...r, values: pad(r.values) }))),
    query: (ns, vector, topK, filter) => index.query(ns, pad(vector), topK, filter),
  };
}

/** Namespaces of this fixture's own, in a shared index, remembered for the cleanup. */
function prefixed(index: VectorIndex, prefix: string, used: Set<string>): VectorIndex {
  const to = (ns: string) => {
    used.add(prefix + ns);
    return prefix + ns;
  };
  return {
    upsert: (ns, records) => index.upsert(to(ns), records),
    deleteByDocument: (ns, documentId) => index.deleteByDocument(to(ns), documentId),
    deleteChunks: (ns, chunkIds) => index.deleteChunks(to(ns), chunkIds),
    deleteNamespace: (ns) => index.deleteNamespace(to(ns)),
    query: (ns, vector, topK, filter) => index.query(to(ns), vector, topK, filter),
    count: (ns) => index.count(to(ns)),
    ping: () => index.ping(),
  };
}

type Pending = { upserted: Map<string, VectorRecord>; deletedDocuments: Set<string>; emptied: boolean };

const PROBE = Float32Array.of(1);

/**
 * Pinecone answers writes before reads see them, and the suite reads right after writing. So
 * each read first waits until the namespace shows this fixture's earlier writes: the count
 * matches, a sample of upserted chunks comes back with their latest vectors, deleted documents
 * and emptied namespaces return nothing. Deleting a document waits too, as the adapter finds
 * its records by listing ids, which shows only what is visible.
 */
function readYourWrites(index: VectorIndex): VectorIndex {
  const chunks = new Map<string, Map<string, string>>();
  const pending = new Map<string, Pending>();
  const chunksOf = (ns: string) => chunks.get(ns) ?? chunks.set(ns, new Map()).get(ns)!;
  const pendingOf = (ns: string) =>
    pending.get(ns) ?? pending.set(ns, { upserted: new Map(), deletedDocuments: new Set(), emptied: false }).get(ns)!;

  const visible = async (ns: string, writes: Pending) => {
    if ((await index.count(ns)) !== chunksOf(ns).size) return false;
    for (const r of spread([...writes.upserted.values()], 8)) {
      const found = await index.query(ns, r.values, 10, { documentIds: [r.documentId] });
      if (!found.some((m) => m.id === r.id && m.score > 0.999)) return false;
    }
    for (const documentId of writes.deletedDocuments) {
      if ((await index.query(ns, PROBE, 1, { documentIds: [documentId] })).length > 0) return false;
    }
    return !(writes.emptied && chunksOf(ns).size === 0 && (await index.query(ns, PROBE, 1)).length > 0);
  };
  const settle = async (ns: string) => {
    const writes = pending.get(ns);
    if (!writes) return;
    await until(() => visible(ns, writes), `writes to namespace ${ns}`);
    pending.delete(ns);
  };

  return {
    async upsert(ns, records) {
      await index.upsert(ns, records);
      const writes = pendingOf(ns);
      for (const r of records) {
        chunksOf(ns).set(r.id, r.documentId);
        writes.upserted.set(r.id, r);
        writes.deletedDocuments.delete(r.documentId);
      }
    },
    async deleteChunks(ns, chunkIds) {
      await settle(ns);
      await index.deleteChunks(ns, chunkIds);
      for (const id of chunkIds) {
        chunksOf(ns).delete(id);
        pendingOf(ns).upserted.delete(id);
      }
    },
    async deleteByDocument(ns, documentId) {
      await settle(ns);
      await index.deleteByDocument(ns, documentId);
      for (const [id, d] of chunksOf(ns)) if (d === documentId) chunksOf(ns).delete(id);
      const writes = pendingOf(ns);
      for (const [id, r] of writes.upserted) if (r.documentId === documentId) writes.upserted.delete(id);
      writes.deletedDocuments.add(documentId);
    },
    async deleteNamespace(ns) {
      await index.deleteNamespace(ns);
      chunks.delete(ns);
      pending.set(ns, { upserted: new Map(), deletedDocuments: new Set(), emptied: true });
    },
    async query(ns, vector, topK, filter) {
      await settle(ns);
      return index.query(ns, vector, topK, filter);
    },
    async count(ns) {
      await settle(ns);
      return index.count(ns);
    },
    ping: () => index.ping(),
  };
}

/** At most `n` items, evenly spread from the first to the last. */
function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))]!);
}

async function until(condition: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + VISIBLE_WITHIN_MS;
  for (let wait = 250; !(await condition()); wait = Math.min(wait * 2, 4_000)) {
    if (Date.now() > deadline) throw new Error(`${what} not visible after ${VISIBLE_WITHIN_MS / 1000} s`);
    await sleep(wait);
  }
}
