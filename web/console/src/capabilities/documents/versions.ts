import { consoleFetch } from '../../api/client.ts';
import { uploadWithProgress } from '../../api/upload.ts';
import type { Document } from './rows.ts';

/**
 * A document's versions (issue 44). The generated OpenAPI types do not name these routes yet, so
 * their shapes are written here as docs/api/documents.md gives them.
 */
export type DocumentVersion = {
  object: 'document.version';
  version: number;
  created_at: string | number;
  name: string;
  media_type: string;
  sha256: string;
  size: number;
  pages: number | null;
  chunks: number | null;
  reused_chunks?: number | null;
  uploaded_by: string | null;
  status: 'queued' | 'parsing' | 'indexing' | 'ready' | 'failed' | 'superseded' | 'purged';
  current: boolean;
  superseded_at: string | number | null;
};

/** The document as the versioned API answers it: `version` the newest, `current_version` the one retrieval answers from. */
export type VersionedDocument = Document & { version?: number; current_version?: number | null; version_count?: number; deduplicated?: true };

export type DiffChunk = { chunk_id: string; page: number | null; text: string };
export type VersionDiff = {
  object: 'document.version_diff';
  document_id: string;
  version: number;
  against: number;
  added: DiffChunk[];
  removed: DiffChunk[];
  changed: { before: DiffChunk; after: DiffChunk }[];
  unchanged: number;
};

const base = (kbId: string, documentId: string) => `/v1/knowledge-bases/${encodeURIComponent(kbId)}/documents/${encodeURIComponent(documentId)}/versions`;

/** A time the API gives as RFC 3339 or as Unix seconds. */
export function dateOf(value: string | number): Date {
  return new Date(typeof value === 'number' ? value * 1000 : value);
}

export async function listVersions(kbId: string, documentId: string, signal?: AbortSignal): Promise<DocumentVersion[]> {
  const response = await consoleFetch(base(kbId, documentId), { signal });
  return ((await response.json()) as { data: DocumentVersion[] }).data;
}

/** A new version from a file: multipart POST …/versions (201 the document, 200 `deduplicated` when the newest has these bytes). */
export function uploadVersion(kbId: string, documentId: string, file: File, onProgress: (fraction: number) => void = () => undefined): Promise<VersionedDocument> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadWithProgress<VersionedDocument>(base(kbId, documentId), form, onProgress);
}

/** One version's bytes, saved under its own name (the console's requests need its header, so not a plain link). */
export async function downloadVersion(kbId: string, documentId: string, version: DocumentVersion): Promise<void> {
  const response = await consoleFetch(`${base(kbId, documentId)}/${version.version}/content`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = version.name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function diffVersions(kbId: string, documentId: string, version: number, against: number): Promise<VersionDiff> {
  const response = await consoleFetch(`${base(kbId, documentId)}/${version}/diff?against=${against}`);
  return (await response.json()) as VersionDiff;
}

/** Version n's bytes as the newest version (201), or nothing added when the newest has them already (200). */
export async function restoreVersion(kbId: string, documentId: string, version: number): Promise<{ added: boolean; doc: VersionedDocument }> {
  const response = await consoleFetch(`${base(kbId, documentId)}/${version}/restore`, { method: 'POST' });
  return { added: response.status === 201, doc: (await response.json()) as VersionedDocument };
}
