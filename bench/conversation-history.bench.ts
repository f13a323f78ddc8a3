import { join } from 'node:path';
import type { ConversationDoc, ConversationItemDoc } from '../projections/conversations/index.ts';
import { openSqlite } from '../src/adapters/sqlite/database.ts';
import { createSqliteReadModelStore } from '../src/adapters/sqlite/read-model-store.ts';
import type { ReadModelStore, ReadModelWrite } from '../src/ports/read-models.ts';
import { latencySummary, log, timed, withTempDir } from './util.ts';

/**
 * What a chat with `conversation` pays before retrieval: reading the conversation's items. Read by
 * the ids the conversation's document lists (what the service does) against a query on the items'
 * `conversation_id` (a scan of every conversation's items in the embedded store: its planner pages
 * by id and filters, so the cost grows with all items, not with this conversation's).
 */

const SIZES = [10_000, 100_000];
const ITEMS_PER_CONVERSATION = 10;
const READS = 100;
/** A chat's history read should cost well under a millisecond, whatever the number of conversations. */
const TARGET_P50_MS = 1;
const TEXT = 'A question or an answer of ordinary length, some twenty words, so that the stored JSON is about as large as a real one.';

const id = (prefix: string, n: number) => `${prefix}_${String(n).padStart(10, '0')}`;

async function fill(store: ReadModelStore, items: number) {
  let position = 1n;
  const conversations = items / ITEMS_PER_CONVERSATION;
  for (let c = 0; c < conversations; c += 1000) {
    const writes: ReadModelWrite[] = [];
    for (let k = c; k < Math.min(conversations, c + 1000); k++) {
      const conv = id('conv', k);
      const ids = Array.from({ length: ITEMS_PER_CONVERSATION }, (_, i) => id('msg', k * ITEMS_PER_CONVERSATION + i));
      const doc: ConversationDoc = { id: conv, object: 'conversation', workspace_id: 'w', metadata: {}, knowledge_base_ids: [], item_ids: ids, created_at: '', updated_at: '' };
      writes.push({ op: 'put', collection: 'conversations', id: conv, doc, position: position++ });
      for (const itemId of ids) {
        const item: ConversationItemDoc = { id: itemId, conversation_id: conv, chat_id: null, item: { type: 'message', id: itemId, role: 'user', status: 'completed', content: [{ type: 'input_text', text: TEXT }] } };
        writes.push({ op: 'put', collection: 'conversation_items', id: itemId, doc: item, position: position++ });
      }
    }
    await store.commit(writes);
  }
  return conversations;
}

export async function conversationHistoryBench() {
  const out: { items: number; conversations: number; by_listed_ids: { p50_ms: number }; by_conversation_id_query: { p50_ms: number } }[] = [];
  for (const items of SIZES) {
    await withTempDir('conversations', async (dir) => {
      const db = openSqlite(join(dir, 'read-models.db'));
      const store = createSqliteReadModelStore(db);
      const conversations = await fill(store, items);
      const byIds: number[] = [];
      const byScan: number[] = [];
      for (let r = 0; r < READS; r++) {
        const conv = id('conv', Math.floor((r * 7919) % conversations));
        byIds.push((await timed(async () => {
          const doc = await store.get<ConversationDoc>('conversations', conv);
          return store.getMany('conversation_items', doc!.item_ids);
        })).ms);
        byScan.push((await timed(() => store.find('conversation_items', { where: { conversation_id: conv }, order: 'asc', limit: 500 }))).ms);
      }
      db.close();
      const figures = { items, conversations, by_listed_ids: latencySummary(byIds), by_conversation_id_query: latencySummary(byScan) };
      log(`conversation history over ${items} items: ${JSON.stringify(figures)}`);
      out.push(figures);
    });
  }
  return { runs: out, target_p50_ms: TARGET_P50_MS, pass: out.every((r) => r.by_listed_ids.p50_ms < TARGET_P50_MS) };
}
