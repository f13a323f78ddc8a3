import { useCallback, useEffect, useRef, useState } from 'react';
import { type Answer, api, ApiFailure } from '../../api/client.ts';
import { followEvents } from '../../api/event-stream.ts';
import { uploadWithProgress } from '../../api/upload.ts';
import { forgetRefused, refusedRows, rememberRefused } from './refused-uploads.ts';
import { uploadVersion, type VersionedDocument } from './versions.ts';
import { type Document, type DocumentRow, type Rows, withChange, withDocument, withEvent, without, withUploaded } from './rows.ts';

type UploadAnswer = Answer<'/v1/knowledge-bases/{kb_id}/documents', 'post'>;

/**
 * Files sent at once: the browser holds six connections to the server, and the event stream and
 * the screen's own calls need some of them while many files are dropped.
 */
const PARALLEL_UPLOADS = 3;

let uploadCount = 0;
/** A row's local id, unique across reloads too (a refused upload keeps its id in sessionStorage). */
const uploadId = () => `upload:${Date.now().toString(36)}-${++uploadCount}`;

/** A dropped file whose bytes the knowledge base already held: said once, by name. */
export type Duplicate = { file: string; existing: string };
/** A dropped file that became a new version of a document already here (by its name, or "Upload again"). */
export type NewVersion = { file: string; version: number };

/**
 * The documents screen's rows, kept live by ONE event stream for the whole knowledge base: opened
 * first, the list read once it is caught up (`ready`), so no change falls between the two.
 */
export function useDocumentRows(kbId: string) {
  const [rows, setRows] = useState<Rows>(new Map());
  const [duplicates, setDuplicates] = useState<Duplicate[]>([]);
  const [newVersions, setNewVersions] = useState<NewVersion[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [reconnecting, setReconnecting] = useState(false);
  const queue = useRef<{ id: string; file: File }[]>([]);
  const sending = useRef(0);

  useEffect(() => {
    const controller = new AbortController();
    let listed = false;
    setRows(new Map(refusedRows(kbId).map((row) => [row.id, row])));
    setDuplicates([]);
    setNewVersions([]);
    setLoaded(false);
    followEvents(`/v1/knowledge-bases/${encodeURIComponent(kbId)}/documents/events`, {
      signal: controller.signal,
      onState: (state) => setReconnecting(state === 'reconnecting'),
      onEvent({ event, data }) {
        if (event === 'ready' && !listed) {
          listed = true;
          listAll(kbId, controller.signal).then(
            (docs) => {
              setRows((current) => docs.reduce((acc, doc) => withDocument(acc, doc), current));
              setLoaded(true);
            },
            (failure: unknown) => controller.signal.aborted || setError(failure),
          );
        } else setRows((current) => withEvent(current, event, data));
      },
    }).catch((failure: unknown) => controller.signal.aborted || setError(failure));
    return () => controller.abort();
  }, [kbId]);

  const pump = useCallback(() => {
    while (sending.current < PARALLEL_UPLOADS && queue.current.length > 0) {
      const { id, file } = queue.current.shift()!;
      sending.current++;
      void send(kbId, id, file, setRows, { onDuplicate: (duplicate) => setDuplicates((all) => [...all, duplicate]), onNewVersion: (added) => setNewVersions((all) => [...all, added]) }).finally(() => {
        sending.current--;
        pump();
      });
    }
  }, [kbId]);

  const upload = useCallback(
    (files: File[]) => {
      const added = files.map((file) => ({ id: uploadId(), file }));
      setRows((current) => {
        const next = new Map(current);
        for (const { id, file } of added) next.set(id, { id, name: file.name, status: 'queued', uploaded: 0, file, stored: false });
        return next;
      });
      queue.current.push(...added);
      pump();
    },
    [pump],
  );

  const remove = useCallback(
    async (row: DocumentRow) => {
      if (row.stored) await api.DELETE('/v1/knowledge-bases/{kb_id}/documents/{document_id}', { params: { path: { kb_id: kbId, document_id: row.id } } });
      else forgetRefused(kbId, row.id);
      setRows((current) => without(current, row.id));
    },
    [kbId],
  );

  /**
   * A document's file sent again is its next version (POST …/documents/{id}/versions): the same
   * id, its history kept, the previous version answering until the new one is ready. A file the
   * API refused has no document yet: it is sent as a new upload.
   */
  const uploadAgain = useCallback(
    async (row: DocumentRow, file: File) => {
      if (!row.stored) {
        await remove(row);
        upload([file]);
        return;
      }
      const doc = await uploadVersion(kbId, row.id, file);
      // The row follows the new version (queued again), not the ready one it replaces.
      setRows((current) => withChange(withDocument(current, doc, file), doc.id, () => ({ status: doc.status, error: doc.error })));
      if (doc.deduplicated) setDuplicates((all) => [...all, { file: file.name, existing: doc.name }]);
      else setNewVersions((all) => [...all, { file: file.name, version: doc.version ?? 1 }]);
    },
    [kbId, remove, upload],
  );

  return { rows: [...rows.values()], duplicates, newVersions, loaded, error, reconnecting, upload, remove, uploadAgain };
}

async function send(kbId: string, id: string, file: File, setRows: (update: (rows: Rows) => Rows) => void, said: { onDuplicate(duplicate: Duplicate): void; onNewVersion(added: NewVersion): void }) {
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    const answer = await uploadWithProgress<UploadAnswer>(`/v1/knowledge-bases/${encodeURIComponent(kbId)}/documents`, form, (fraction) =>
      setRows((rows) => withChange(rows, id, () => ({ uploaded: fraction }))),
    );
    const doc = answer.data[0] as VersionedDocument | undefined;
    setRows((rows) => (doc ? withUploaded(rows, id, doc, file) : without(rows, id)));
    if (doc?.deduplicated) said.onDuplicate({ file: file.name, existing: doc.name });
    // The same name as a document here: the server made it that document's next version.
    else if (doc && (doc.version ?? 1) > 1) said.onNewVersion({ file: file.name, version: doc.version! });
  } catch (failure) {
    const message = failure instanceof Error ? failure.message : String(failure);
    const error = { stage: 'upload', code: failure instanceof ApiFailure ? failure.code : 'upload_failed', message };
    rememberRefused(kbId, { id, name: file.name, error });
    setRows((rows) => withChange(rows, id, () => ({ status: 'failed', uploaded: undefined, error })));
  }
}

async function listAll(kbId: string, signal: AbortSignal): Promise<Document[]> {
  const docs: Document[] = [];
  let after: string | undefined;
  for (;;) {
    const { data } = await api.GET('/v1/knowledge-bases/{kb_id}/documents', { params: { path: { kb_id: kbId }, query: { limit: 100, order: 'asc', ...(after && { after }) } }, signal });
    docs.push(...data!.data);
    if (!data!.has_more || !data!.last_id) return docs;
    after = data!.last_id;
  }
}
