import { join } from 'node:path';
import { allProjections } from '../src/capabilities/index.ts';
import type { KnowledgeBaseDoc } from '../projections/knowledge-bases/index.ts';
import { type EventType, parseEventData } from '../schemas/events/index.ts';
import { createSqliteCheckpointStore } from '../src/adapters/sqlite/checkpoint-store.ts';
import { openSqlite } from '../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../src/adapters/sqlite/event-store.ts';
import { createSqliteReadModelStore } from '../src/adapters/sqlite/read-model-store.ts';
import { createIdGenerator } from '../src/app/ids.ts';
import { PROJECTOR_GROUP } from '../src/app/projector.ts';
import { replayReadModels } from '../src/app/replay.ts';
import { apiKeyCreated, kbCreated, kbDeleted, kbName, kbUpdated, newEvent, workspaceCreated } from './fixtures.ts';
import { log, round, seededRandom, timed, withTempDir } from './util.ts';

const WORKSPACES = 10;
const API_KEYS = 1_990;
const KNOWLEDGE_BASES = 10_000;
const DELETED = 1_000;
const TOTAL = 100_000;
const UPDATES = TOTAL - WORKSPACES - API_KEYS - KNOWLEDGE_BASES - DELETED;
const TARGET = 50_000;

type Op = { t: number; kind: 'key'; i: number } | { t: number; kind: 'create' | 'update' | 'delete'; kb: number };
type Kb = { id: string; workspace: string; version: number; revision: number; deleted: boolean };

/**
 * The log of a plausible deployment, in time order: workspaces first, then keys and knowledge
 * bases created over time, updates landing on random live knowledge bases, some of them deleted.
 * One event per append call (one command each), with the revision each writer would expect.
 */
export async function buildLog(store: ReturnType<typeof createSqliteEventStore>) {
  const random = seededRandom(20260101);
  const newId = createIdGenerator();
  const workspaces = ['default', ...Array.from({ length: WORKSPACES - 1 }, (_, i) => `ws${i + 1}`)];
  const kbs: (Kb & { created: number; end: number })[] = Array.from({ length: KNOWLEDGE_BASES }, (_, i) => {
    const created = random() * 0.5;
    return { id: newId('kb'), workspace: workspaces[i % WORKSPACES]!, version: 0, revision: -1, deleted: false, created, end: i < DELETED ? 0.9 + random() * 0.1 : 1 };
  });
  const ops: Op[] = [];
  for (let i = 0; i < API_KEYS; i++) ops.push({ t: random() * 0.5, kind: 'key', i });
  kbs.forEach((kb, n) => {
    ops.push({ t: kb.created, kind: 'create', kb: n });
    if (n < DELETED) ops.push({ t: kb.end, kind: 'delete', kb: n });
  });
  for (let u = 0; u < UPDATES; u++) {
    const n = Math.floor(random() * KNOWLEDGE_BASES);
    const kb = kbs[n]!;
    ops.push({ t: kb.created + (kb.end - kb.created) * (0.001 + 0.998 * random()), kind: 'update', kb: n });
  }
  ops.sort((a, b) => a.t - b.t);

  const start = Date.UTC(2026, 0, 1);
  const at = (t: number) => new Date(start + Math.floor(t * 30 * 86_400_000)).toISOString();
  const append = async (streamId: string, type: EventType, data: unknown, expected: number | 'no_stream') => {
    await store.append(streamId, [newEvent(type, parseEventData(type, data))], expected);
  };

  for (const ws of workspaces) await append(`workspace-${ws}`, 'WorkspaceCreated', workspaceCreated(ws, at(0)), 'no_stream');
  let events = WORKSPACES;
  for (const op of ops) {
    if (op.kind === 'key') {
      const keyId = newId('key');
      await append(`api_key-${keyId}`, 'ApiKeyCreated', apiKeyCreated(keyId, workspaces[op.i % WORKSPACES]!, at(op.t), op.i), 'no_stream');
    } else {
      const kb = kbs[op.kb]!;
      const streamId = `knowledge_base-${kb.id}`;
      const expected = kb.revision < 0 ? 'no_stream' : kb.revision;
      if (op.kind === 'create') await append(streamId, 'KnowledgeBaseCreated', kbCreated(kb.id, kb.workspace, op.kb, at(op.t)), expected);
      else if (op.kind === 'update') await append(streamId, 'KnowledgeBaseUpdated', kbUpdated(kb.id, op.kb, ++kb.version, at(op.t)), expected);
      else {
        await append(streamId, 'KnowledgeBaseDeleted', kbDeleted(kb.id, at(op.t)), expected);
        kb.deleted = true;
      }
      kb.revision += 1;
    }
    events += 1;
    if (events % 20_000 === 0) log(`replay: built ${events} / ${TOTAL} events`);
  }
  return { events, kbs: kbs as Kb[] };
}

/** The read models must say exactly what the log says. */
async function verify(dbPath: string, kbs: readonly Kb[], head: bigint) {
  const db = openSqlite(dbPath);
  try {
    const readModels = createSqliteReadModelStore(db);
    const counts = {
      workspaces: await readModels.count('workspaces'),
      api_keys: await readModels.count('api_keys'),
      api_key_hashes: await readModels.count('api_key_hashes'),
      knowledge_bases: await readModels.count('knowledge_bases'),
    };
    const expected = { workspaces: WORKSPACES, api_keys: API_KEYS, api_key_hashes: API_KEYS, knowledge_bases: KNOWLEDGE_BASES - DELETED };
    let mismatchedDocs = 0;
    for (const [n, kb] of kbs.entries()) {
      const doc = await readModels.get<KnowledgeBaseDoc>('knowledge_bases', kb.id);
      const ok = kb.deleted
        ? doc === null
        : doc !== null && doc.revision === kb.revision && doc.name === kbName(n, kb.version) && doc.workspace_id === kb.workspace;
      if (!ok) mismatchedDocs += 1;
    }
    const checkpoint = await createSqliteCheckpointStore(db).load(PROJECTOR_GROUP);
    const countsMatch = Object.entries(expected).every(([k, v]) => counts[k as keyof typeof counts] === v);
    return {
      counts,
      expected,
      knowledge_base_docs_checked: kbs.length,
      mismatched_docs: mismatchedDocs,
      checkpoint: Number(checkpoint),
      head: Number(head),
      pass: countsMatch && mismatchedDocs === 0 && checkpoint === head,
    };
  } finally {
    db.close();
  }
}

async function timedReplay(dbPath: string) {
  const db = openSqlite(dbPath);
  try {
    const store = createSqliteEventStore({ db });
    const readModels = createSqliteReadModelStore(db);
    const checkpoints = createSqliteCheckpointStore(db);
    const { result, ms } = await timed(() => replayReadModels({ store, readModels, checkpoints, projections: allProjections }));
    return { events: result.events, head: result.head, ms };
  } finally {
    db.close();
  }
}

export async function replayBench() {
  return withTempDir('replay', async (dir) => {
    const dbPath = join(dir, 'kbqa.db');
    log(`replay: building a log of ${TOTAL} events (${KNOWLEDGE_BASES} knowledge bases, ${UPDATES} updates, ${DELETED} deletes, ${API_KEYS} api keys, ${WORKSPACES} workspaces)`);
    const built = await (async () => {
      const db = openSqlite(dbPath);
      try {
        const store = createSqliteEventStore({ db });
        createSqliteReadModelStore(db); // tables exist, as in a real data dir
        return await timed(() => buildLog(store));
      } finally {
        db.close();
      }
    })();
    log(`replay: log built in ${round(built.ms / 1000, 1)} s`);

    // First rebuild: read models empty (a data dir restored from a log backup).
    const first = await timedReplay(dbPath);
    const firstCheck = await verify(dbPath, built.result.kbs, first.head);
    log(`replay: into empty read models ${round(first.events / (first.ms / 1000))} events/s, check ${firstCheck.pass ? 'ok' : 'FAILED'}`);
    // The figure compared with the target: `kbqa replay` over a data dir whose read models exist.
    const second = await timedReplay(dbPath);
    const check = await verify(dbPath, built.result.kbs, second.head);
    const rate = second.events / (second.ms / 1000);
    log(`replay: over populated read models ${round(rate)} events/s, check ${check.pass ? 'ok' : 'FAILED'}`);

    return {
      events: second.events,
      mix: { workspaces: WORKSPACES, api_keys_created: API_KEYS, knowledge_bases_created: KNOWLEDGE_BASES, knowledge_bases_updated: UPDATES, knowledge_bases_deleted: DELETED },
      page_size: 5000,
      seconds: round(second.ms / 1000, 3),
      events_per_s: round(rate),
      empty_read_models_events_per_s: round(first.events / (first.ms / 1000)),
      log_build_seconds: round(built.ms / 1000, 2),
      target: TARGET,
      pass: rate >= TARGET,
      read_models_check: { ...check, pass: check.pass && firstCheck.pass, first_replay_pass: firstCheck.pass },
    };
  });
}
