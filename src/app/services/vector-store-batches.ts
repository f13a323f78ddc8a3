import { badRequest, notFoundError } from '../errors.ts';
import type { ChunkingStrategy } from '../../../schemas/http/openai-vector-stores.ts';
import type { Principal } from './principal.ts';
import type { Attributes, VectorStoreService } from './vector-stores.ts';

type BatchFile = { file_id: string; attributes?: Attributes | null; chunking_strategy?: ChunkingStrategy };

const PREFIX = 'vsfb_';

/**
 * A batch is the set of files it attached, and its status theirs: so the batch id carries the
 * file ids (base64url) and the batch needs no record of its own. A batch cannot be cancelled:
 * each file is queued as a document the moment the batch is made.
 */
export const batchId = (fileIds: readonly string[]) => PREFIX + Buffer.from(fileIds.join('\n')).toString('base64url');

function fileIdsOf(id: string): string[] {
  const ids = id.startsWith(PREFIX) ? Buffer.from(id.slice(PREFIX.length), 'base64url').toString('utf8').split('\n') : [];
  if (ids.length === 0 || ids.some((f) => !/^[\w-]{1,200}$/.test(f))) throw notFoundError('batch_not_found', `No file batch found with id '${id}'.`, 'batch_id');
  return ids;
}

/** `now`: the clock a batch whose files are all gone dates itself by. */
export function createVectorStoreBatches(stores: VectorStoreService, now: () => Date) {
  async function get(principal: Principal, kbId: string, id: string) {
    const ids = fileIdsOf(id);
    const files = await stores.files(principal, kbId, { limit: ids.length, order: 'asc' }, ids);
    const counts = { in_progress: 0, completed: 0, failed: 0, cancelled: 0, total: files.data.length };
    for (const f of files.data) counts[f.status] += 1;
    return {
      id,
      object: 'vector_store.files_batch' as const,
      created_at: Math.min(...files.data.map((f) => f.created_at), Math.floor(now().getTime() / 1000)),
      vector_store_id: kbId,
      status: counts.in_progress > 0 ? ('in_progress' as const) : counts.failed > 0 && counts.completed === 0 ? ('failed' as const) : ('completed' as const),
      file_counts: counts,
    };
  }

  return {
    get,
    async create(principal: Principal, kbId: string, files: BatchFile[], requestId?: string) {
      const ids = [...new Set(files.map((f) => f.file_id))];
      if (ids.length !== files.length) throw badRequest('invalid_value', 'file_ids: each file once', 'file_ids');
      for (const file of files) await stores.attach(principal, kbId, file, requestId);
      return get(principal, kbId, batchId(ids));
    },
    files: (principal: Principal, kbId: string, id: string, page: Parameters<VectorStoreService['files']>[2]) => stores.files(principal, kbId, page, fileIdsOf(id)),
  };
}
