import test from 'ava';
import { trustedEvent } from '../../schemas/events/recorded.ts';
import type { Authenticator } from '../../src/app/services/api-keys.ts';
import { knowledgeBaseFeedKey } from '../../src/app/document-feed.ts';
import { createLiveFeed, type FeedMessage } from '../../src/app/live-feed.ts';
import { announcer } from '../../src/composition/announce.ts';

const stored = (type: string, streamId: string, data: Record<string, unknown>, position: bigint, revision = 0) =>
  trustedEvent({ id: `e${position}`, type, streamId, revision, position, data, metadata: { schemaVersion: 1 }, recordedAt: '2026-01-01T00:00:00.000Z' });

test('a projected document event reaches its feed and its knowledge base’s with its revision, status and log position (what an event stream skips by)', (t) => {
  const feed = createLiveFeed();
  const told: FeedMessage[] = [];
  const toldBase: FeedMessage[] = [];
  feed.subscribe('doc_1', (m) => told.push(m));
  feed.subscribe(knowledgeBaseFeedKey('kb_1'), (m) => toldBase.push(m));
  const evicted: string[] = [];
  const announce = announcer(feed, { evictKey: (id: string) => evicted.push(id) } as unknown as Authenticator);
  announce([
    stored('DocumentParsed', 'document-doc_1', { document_id: 'doc_1', knowledge_base_id: 'kb_1', attempt: 1, chunk_count: 3, batch_count: 1 }, 42n, 2),
    stored('ApiKeyRevoked', 'api_key-key_1', { key_id: 'key_1' }, 43n),
    stored('KnowledgeBaseDeleted', 'knowledge_base-kb_1', { knowledge_base_id: 'kb_1' }, 44n, 1),
  ]);
  const parsed = { event: 'DocumentParsed', data: { document_id: 'doc_1', knowledge_base_id: 'kb_1', attempt: 1, chunk_count: 3, batch_count: 1, revision: 2, status: 'indexing' }, position: 42n };
  t.deepEqual(told, [parsed]);
  t.deepEqual(toldBase, [parsed, { event: 'KnowledgeBaseDeleted', data: { knowledge_base_id: 'kb_1', revision: 1 }, position: 44n }]);
  t.deepEqual(evicted, ['key_1']);
});
