import type { DocumentDoc } from '../../../projections/documents/index.ts';
import { versionsOf } from '../../../projections/documents/index.ts';
import { parseAsOf, purgedVersionAt } from '../../domain/document/as-of.ts';
import { ApiError } from '../../ports/api-error.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';

/** A body's `as_of` as the retrieval request's ISO time; a bad one, or one in the future, is the client's 400. */
export function asOfOf(raw: string | undefined, now: Date = new Date()): string | undefined {
  if (raw === undefined) return undefined;
  const parsed = parseAsOf(raw, now);
  if (!parsed.ok) throw new ApiError(400, 'invalid_request_error', 'invalid_as_of', parsed.message, { param: 'as_of' });
  return parsed.at;
}

/**
 * An as_of answer must be the one given then, or none: when a version that answered at that time
 * has since been purged (keep_versions), the answer would silently lack it, so it is a 410 that
 * names what is gone. One read of the knowledge bases' documents, made only for as_of requests.
 */
export async function requireAnswerableAsOf(readModels: ReadModelStore, kbIds: readonly string[], at: string): Promise<void> {
  for (const kbId of kbIds) {
    const documents = await readModels.find<DocumentDoc>('documents', { where: { knowledge_base_id: kbId } });
    for (const document of documents) {
      const purged = purgedVersionAt(versionsOf(document), at);
      if (!purged) continue;
      throw versionPurged(document.id, [purged.version], purged.purged_at ?? null, ` It answered at ${at}: the knowledge base cannot answer as it stood then.`);
    }
  }
}

/** 410: retention purged these versions; the error names the document, the versions and when. */
export function versionPurged(documentId: string, versions: number[], purgedAt: string | null, why = ''): ApiError {
  const named = versions.length === 1 ? `Version ${versions[0]}` : `Versions ${versions.join(', ')}`;
  return new ApiError(410, 'invalid_request_error', 'version_purged', `${named} of document ${documentId} ${versions.length === 1 ? 'has' : 'have'} been purged by the knowledge base's keep_versions.${why}`, {
    detail: { document_id: documentId, versions, purged_at: purgedAt },
  });
}
