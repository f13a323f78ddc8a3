import type { DocumentDoc } from '../../../projections/documents/index.ts';
import type { FileDoc } from '../../../projections/files/index.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';

/**
 * The Files API id of each document's bytes (the oldest such file of the workspace), else the
 * document's own id: a vector-store file and a file_citation name a document by it, so a client of
 * OpenAI's retrieval API finds the file it uploaded, and one of the knowledge-base API its document.
 */
export async function fileIdsOf(readModels: ReadModelStore, workspaceId: string, docs: readonly Pick<DocumentDoc, 'id' | 'sha256'>[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const doc of docs) {
    const [file] = await readModels.find<FileDoc>('files', { where: { workspace_id: workspaceId, sha256: doc.sha256 }, order: 'asc', limit: 1 });
    ids.set(doc.id, file?.id ?? doc.id);
  }
  return ids;
}
