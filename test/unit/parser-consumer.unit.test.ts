import test from 'ava';
import { parserConsumer, type ParserDeps } from '../../consumers/parser/index.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { handleCommand } from '../../src/app/command-handler.ts';
import type { AppContext } from '../../src/app/context.ts';
import { documentDecider } from '../../src/domain/document/document.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';
import { uploadData } from '../helpers/upload-fixtures.ts';

/**
 * A batch of uploads against a store whose reads stand for the parse: each read yields a few
 * turns of the event loop, counts how many are in flight, and fails for the documents named.
 */
function harness(concurrency: number, failing: Record<string, Error> = {}) {
  const seen: string[] = [];
  const load = { inFlight: 0, most: 0 };
  const store = {
    readStream: async (streamId: string) => {
      seen.push(streamId);
      load.most = Math.max(load.most, ++load.inFlight);
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      load.inFlight--;
      const failure = Object.entries(failing).find(([id]) => streamId.endsWith(id))?.[1];
      if (failure) throw failure;
      // No such document: StartParsing is refused, and the consumer has nothing to do.
      return [];
    },
  };
  const ctx = { store, now: () => new Date('2025-01-01T00:00:00.000Z') } as unknown as AppContext;
  const consumer = parserConsumer({ lane: 'large', ctx, concurrency } as unknown as ParserDeps);
  return { consumer, seen, load };
}

const upload = (documentId: string, position: number): RecordedEvent =>
  ({ type: 'DocumentUploaded', data: { document_id: documentId }, streamId: `document-${documentId}`, revision: 0, position: BigInt(position) }) as unknown as RecordedEvent;

const batch = (n: number) => Array.from({ length: n }, (_, i) => upload(`doc_${i}`, i + 1));

test('a batch is parsed with at most `concurrency` uploads in flight', async (t) => {
  const { consumer, seen, load } = harness(3);
  await consumer.handle(batch(10));
  t.is(seen.length, 10);
  t.is(load.most, 3);
});

test('one failing upload does not stop the others; the first failure in batch order reaches the bus', async (t) => {
  const { consumer, seen } = harness(2, { doc_7: new Error('store down for doc_7'), doc_2: new Error('store down for doc_2') });
  const error = await t.throwsAsync(consumer.handle(batch(10)));
  t.is(error?.message, 'store down for doc_2');
  t.is(seen.length, 10, 'every upload was tried');
});

test('a message of a document’s stream that cannot be read fails that document; one already ready, or another stream, stays as it is', async (t) => {
  const store = createSqliteEventStore({ db: openSqlite(':memory:') });
  const ctx = { store, now: () => new Date('2025-01-01T00:00:00.000Z') } as unknown as AppContext;
  const consumer = parserConsumer({ lane: 'small', ctx, concurrency: 1 } as unknown as ParserDeps);
  const metadata = { now: '2025-01-01T00:00:00.000Z' };
  await handleCommand(store, documentDecider, 'doc_waiting', { type: 'UploadDocument', data: uploadData('doc_waiting'), metadata });
  await handleCommand(store, documentDecider, 'doc_done', { type: 'UploadDocument', data: uploadData('doc_done'), metadata });
  await handleCommand(store, documentDecider, 'doc_done', { type: 'FailDocument', data: { document_id: 'doc_done', stage: 'parsing', code: 'empty' }, metadata });
  const poison = new Error('the value is not JSON');
  await consumer.onUnreadable!('document-doc_waiting', poison);
  await consumer.onUnreadable!('document-doc_done', poison);
  await consumer.onUnreadable!('knowledge_base-kb_1', poison);
  await consumer.onUnreadable!('document-doc_nowhere', poison);
  const failed = (await store.readStream('document-doc_waiting')).find((e) => e.type === 'DocumentFailed');
  t.like(failed?.data, { stage: 'parsing', code: 'unreadable_event' });
  t.regex(String((failed?.data as { detail: string }).detail), /could not be read: the value is not JSON/);
  t.deepEqual((await store.readStream('document-doc_done')).filter((e) => e.type === 'DocumentFailed').map((e) => e.data).map((d) => (d as { code: string }).code), ['empty']);
});
