import type { DocumentDoc } from '../../../projections/documents/index.ts';
import { versionsOf } from '../../../projections/documents/index.ts';
import type { DocumentVersionDoc } from '../../../schemas/read-models/documents.ts';
import { documentDecider } from '../../domain/document/document.ts';
import { diffVersions, type DiffChunk } from '../../domain/document/version-diff.ts';
import { conflict } from '../../domain/shared/errors.ts';
import type { BlobStore } from '../../ports/blob-store.ts';
import type { RecordedEvent } from '../../ports/event-store.ts';
import type { AppContext } from '../context.ts';
import { readParsedChunks } from '../document-chunks.ts';
import { resourceNotFound } from '../errors.ts';
import type { Principal } from './principal.ts';
import type { StoredFile } from './stored-file.ts';

type Deps = {
  /** The document, after the principal's access to its knowledge base was checked (404 otherwise). */
  document: (principal: Principal, kbId: string, documentId: string) => Promise<DocumentDoc>;
  addVersion: (
    principal: Principal,
    kbId: string,
    documentId: string,
    file: StoredFile,
    options: { chunking: Record<string, never>; requestId?: string },
  ) => Promise<{ created: boolean; body: unknown }>;
  blobs: BlobStore;
};

/** Reading a document's history (issue 44, item 5): what changed between two versions, and putting an old one back. */
export function createVersionHistory(ctx: AppContext, deps: Deps) {
  const entryOf = (doc: DocumentDoc, version: number): DocumentVersionDoc => {
    const entry = versionsOf(doc).find((v) => v.version === version);
    if (!entry) throw resourceNotFound('document_version', `${doc.id}/${version}`);
    // TODO(integrator, area A): a version purged by DocumentVersionPurged (keep_versions) answers
    // 410 version_purged here, for the diff and the restore alike, once the projection marks it.
    return entry;
  };

  /** A version's chunks as a diff shows them, from the chunk stream its DocumentParsed names. */
  async function chunksOf(doc: DocumentDoc, lifecycle: readonly RecordedEvent[], entry: DocumentVersionDoc): Promise<DiffChunk[]> {
    let parsed = null;
    for (const event of lifecycle) if (event.type === 'DocumentParsed' && (event.data.version ?? 1) === entry.version) parsed = event.data;
    if (!parsed) throw conflict('version_not_parsed', `Version ${entry.version} of document '${doc.id}' has no chunks yet (it is ${entry.status}): compare it once it is parsed.`);
    return (await readParsedChunks(ctx.store, parsed, lifecycle)).map((c) => ({ chunk_id: c.chunk_id, page: c.page, text: c.text }));
  }

  return {
    /** What changed from version `against` (default: the one before) to version `version`. */
    async versionDiff(principal: Principal, kbId: string, documentId: string, version: number, against?: number) {
      const doc = await deps.document(principal, kbId, documentId);
      const older = against ?? version - 1;
      const newer = entryOf(doc, version);
      const base = entryOf(doc, older);
      const lifecycle = await ctx.store.readStream(documentDecider.streamId(doc.id));
      const diff = diffVersions(await chunksOf(doc, lifecycle, base), await chunksOf(doc, lifecycle, newer));
      return { object: 'document.version_diff' as const, document_id: doc.id, version, against: older, ...diff };
    },

    /**
     * A new version holding version `version`'s bytes (the same blob: nothing is copied), uploaded
     * by the caller. `created` false when the newest version has those bytes already.
     */
    async restoreVersion(principal: Principal, kbId: string, documentId: string, version: number, requestId?: string) {
      const doc = await deps.document(principal, kbId, documentId);
      const entry = entryOf(doc, version);
      if (!(await deps.blobs.has(entry.sha256))) throw resourceNotFound('document_version', `${doc.id}/${version}`);
      const file: StoredFile = { name: entry.name, sha256: entry.sha256, sizeBytes: entry.size_bytes, mediaType: entry.media_type };
      return deps.addVersion(principal, kbId, documentId, file, { chunking: {}, ...(requestId && { requestId }) });
    },
  };
}
