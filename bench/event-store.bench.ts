import { join } from 'node:path';
import { openSqlite } from '../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../src/adapters/sqlite/event-store.ts';
import { handleCommand } from '../src/app/command-handler.ts';
import { createIdGenerator } from '../src/app/ids.ts';
import { knowledgeBaseDecider, type KnowledgeBaseCommand } from '../src/domain/knowledge-base/knowledge-base.ts';
import type { NewEvent } from '../src/ports/event-store.ts';
import { HASHING_EMBEDDER_ID } from '../src/adapters/local/hashing-embedder.ts';
import { assertValid, kbCreated, kbDescription, kbName, kbUpdated, newEvent } from './fixtures.ts';
import { latencySummary, log, round, timed, withTempDir } from './util.ts';

const BATCH = 100;
const BATCHED_EVENTS = 100_000;
const SINGLE_APPENDS = 10_000;
const KNOWLEDGE_BASES = 1_000;
const UPDATES = 20_000;

/** One knowledge base's life in one append: created, then updated BATCH - 1 times. */
function kbStream(kbId: string, i: number): NewEvent[] {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)).toISOString();
  const events: NewEvent[] = [newEvent('KnowledgeBaseCreated', kbCreated(kbId, 'default', i, at))];
  for (let v = 1; v < BATCH; v++) events.push(newEvent('KnowledgeBaseUpdated', kbUpdated(kbId, i, v, at)));
  return events;
}

/** Appends through the SQLite store: BATCH events per call, each call to a new stream. */
export async function appendBench() {
  return withTempDir('append', async (dir) => {
    const db = openSqlite(join(dir, 'kbqa.db'));
    const store = createSqliteEventStore({ db });
    const newId = createIdGenerator();
    try {
      const sample = kbStream('kb_sample', 0);
      for (const e of sample) assertValid(e.type as 'KnowledgeBaseCreated' | 'KnowledgeBaseUpdated', e.data);

      // Warm-up (JIT, statement cache, WAL file): not counted.
      for (let i = 0; i < 50; i++) await store.append(`knowledge_base-warm${i}`, kbStream(`warm${i}`, i), 'no_stream');

      const calls = BATCHED_EVENTS / BATCH;
      log(`append: preparing ${BATCHED_EVENTS} events in ${calls} calls of ${BATCH}`);
      const batches = Array.from({ length: calls }, (_, i) => {
        const kbId = newId('kb');
        return { streamId: `knowledge_base-${kbId}`, events: kbStream(kbId, i) };
      });
      const callMs: number[] = [];
      const batched = await timed(async () => {
        for (const { streamId, events } of batches) {
          const t = performance.now();
          await store.append(streamId, events, 'no_stream');
          callMs.push(performance.now() - t);
        }
      });
      const batchedRate = BATCHED_EVENTS / (batched.ms / 1000);
      log(`append: batched ${round(batchedRate)} events/s`);

      // For context (no target): one event per append call, i.e. one transaction per event.
      const singles = Array.from({ length: SINGLE_APPENDS }, (_, i) => {
        const kbId = newId('kb');
        const at = new Date(Date.UTC(2026, 0, 2)).toISOString();
        return { streamId: `knowledge_base-${kbId}`, events: [newEvent('KnowledgeBaseCreated', kbCreated(kbId, 'default', i, at))] };
      });
      const single = await timed(async () => {
        for (const { streamId, events } of singles) await store.append(streamId, events, 'no_stream');
      });
      const singleRate = SINGLE_APPENDS / (single.ms / 1000);
      log(`append: single-event ${round(singleRate)} events/s`);

      return {
        events: BATCHED_EVENTS,
        events_per_append: BATCH,
        append_calls: calls,
        seconds: round(batched.ms / 1000, 3),
        batched_events_per_s: round(batchedRate),
        append_call_latency: latencySummary(callMs),
        target: 20_000,
        pass: batchedRate >= 20_000,
        single_event_appends: { events: SINGLE_APPENDS, events_per_s: round(singleRate), note: 'one event per append call; informational, no target' },
      };
    } finally {
      await store.close();
      db.close();
    }
  });
}

/** Commands through handleCommand (read stream, fold, decide, validate, append), one after another. */
export async function commandShellBench() {
  return withTempDir('commands', async (dir) => {
    const db = openSqlite(join(dir, 'kbqa.db'));
    const store = createSqliteEventStore({ db });
    const newId = createIdGenerator();
    const meta = () => ({ now: new Date().toISOString(), actor: 'key_bench' });
    const create = (kbId: string, i: number): KnowledgeBaseCommand => ({
      type: 'CreateKnowledgeBase',
      data: {
        knowledge_base_id: kbId,
        workspace_id: 'default',
        name: kbName(i),
        description: kbDescription(i),
        settings: { top_k: 1 + (i % 20) },
        default_embedding_model: HASHING_EMBEDDER_ID,
      },
      metadata: meta(),
    });
    const update = (kbId: string, i: number, v: number): KnowledgeBaseCommand => ({
      type: 'UpdateKnowledgeBase',
      data: {
        knowledge_base_id: kbId,
        workspace_id: 'default',
        ...(v % 3 === 0 && { name: kbName(i, v) }),
        ...(v % 4 === 0 && { description: kbDescription(i + v) }),
        settings: v % 2 === 0 ? { top_k: 1 + (v % 20), recall: { graph: v % 4 === 0 } } : { chunking: { max_tokens: 256 + (v % 8) * 64 }, score_threshold: (v % 10) / 20 },
      },
      metadata: meta(),
    });
    try {
      // Warm-up on streams of their own: not counted.
      for (let i = 0; i < 200; i++) {
        const id = `warm${i}`;
        await handleCommand(store, knowledgeBaseDecider, id, create(id, i));
        await handleCommand(store, knowledgeBaseDecider, id, update(id, i, 1));
      }

      const ids = Array.from({ length: KNOWLEDGE_BASES }, () => newId('kb'));
      const createMs: number[] = [];
      const updateMs: number[] = [];
      let events = 0;
      log(`command_shell: ${KNOWLEDGE_BASES} CreateKnowledgeBase + ${UPDATES} UpdateKnowledgeBase`);
      const all = await timed(async () => {
        for (let i = 0; i < ids.length; i++) {
          const t = performance.now();
          const r = await handleCommand(store, knowledgeBaseDecider, ids[i]!, create(ids[i]!, i));
          createMs.push(performance.now() - t);
          events += r.events.length;
        }
        for (let n = 0; n < UPDATES; n++) {
          const i = n % ids.length;
          const t = performance.now();
          const r = await handleCommand(store, knowledgeBaseDecider, ids[i]!, update(ids[i]!, i, Math.floor(n / ids.length) + 1));
          updateMs.push(performance.now() - t);
          events += r.events.length;
        }
      });
      const commands = KNOWLEDGE_BASES + UPDATES;
      const rate = commands / (all.ms / 1000);
      const updateRate = UPDATES / (updateMs.reduce((a, b) => a + b, 0) / 1000);
      const head = await store.headPosition();
      log(`command_shell: ${round(rate)} commands/s`);
      return {
        commands,
        creates: KNOWLEDGE_BASES,
        updates: UPDATES,
        events_appended: events,
        final_stream_length: 1 + UPDATES / KNOWLEDGE_BASES,
        seconds: round(all.ms / 1000, 3),
        commands_per_s: round(rate),
        update_commands_per_s: round(updateRate),
        create_latency: latencySummary(createMs),
        update_latency: latencySummary(updateMs),
        log_head_position: Number(head),
        target: 3_000,
        pass: rate >= 3_000,
      };
    } finally {
      await store.close();
      db.close();
    }
  });
}
