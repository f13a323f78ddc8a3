/**
 * The data of an UploadDocument command (a DocumentUploaded event, less the time) for tests that
 * drive the document's aggregate and its consumers without HTTP: a small text file by default.
 */
export function uploadData(documentId: string, overrides: Record<string, unknown> = {}) {
  return {
    document_id: documentId,
    knowledge_base_id: 'kb_1',
    workspace_id: 'ws',
    name: 'a.txt',
    media_type: 'text/plain',
    size_bytes: 10,
    sha256: 'a'.repeat(64),
    metadata: {},
    chunking: { max_tokens: 64, overlap_tokens: 0 },
    ...overrides,
  };
}
