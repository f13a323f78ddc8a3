import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { Reindex } from '../../../schemas/http/knowledge-bases.ts';
import type { ReindexRecord } from '../../../schemas/read-models/knowledge-bases.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import { type ProgressDoc, reindexProgressOf } from '../reindex.ts';

/**
 * A re-index as clients see it: its events' record, and while it is queued the reindexer's
 * progress record (saved after each document), which makes it `running` with done/total.
 */
export function presentReindex(kbId: string, record: ReindexRecord, progress: ProgressDoc | null): Reindex {
  const { id, embedding_model, requested_at, finished_at, error } = record;
  const base = { object: 'knowledge_base.reindex' as const, id, knowledge_base_id: kbId, embedding_model, requested_at, finished_at, error };
  if (record.status !== 'queued') {
    const done = record.documents ?? 0;
    return { ...base, status: record.status, done, total: record.status === 'succeeded' ? done : (progress?.total ?? null), chunks: record.chunks ?? 0, started_at: record.started_at };
  }
  // A progress record of another model is an interrupted run the reindexer will start over.
  if (!progress || progress.model !== embedding_model || progress.total === undefined) return { ...base, status: 'queued', done: 0, total: null, chunks: 0, started_at: null };
  return { ...base, status: 'running', done: progress.documents, total: progress.total, chunks: progress.chunks, started_at: progress.started_at };
}

/** Each knowledge base's last re-index (null: never asked for), with its progress when one is under way. */
export async function reindexesOf(readModels: ReadModelStore, kbs: readonly KnowledgeBaseDoc[]): Promise<(Reindex | null)[]> {
  return Promise.all(
    kbs.map(async (kb) => {
      if (!kb.reindex) return null;
      const progress = kb.reindex.status === 'queued' ? await reindexProgressOf(readModels, kb.id) : null;
      return presentReindex(kb.id, kb.reindex, progress);
    }),
  );
}
