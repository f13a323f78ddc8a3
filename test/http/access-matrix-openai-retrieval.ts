import { batchId } from '../../src/app/services/vector-store-batches.ts';
import { type Caller, QUESTION, type Recipe, type Target, type World } from './access-matrix-recipes.ts';

/**
 * The access matrix's recipes for OpenAI's Files and Vector Stores APIs. A vector store is its
 * knowledge base, so its routes follow the knowledge-base rule. Files are the workspace's: a key
 * limited to some knowledge bases sees only the files it uploaded, so the main workspace's
 * unlimited keys alone reach a file the admin uploaded.
 */
const store = (target: Target) => `/v1/vector_stores/${target.kb.id}`;
const adminsFile = (caller: Caller) => (caller.workspace === 'main' && caller.limitedTo === null ? 200 : 404);

async function freshFile(w: World): Promise<string> {
  const form = new FormData();
  form.append('purpose', 'assistants');
  form.append('file', new Blob(['A file made by the access matrix.'], { type: 'text/markdown' }), 'matrix.md');
  const res = await fetch(`${w.server.url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${w.admins.main}` }, body: form });
  if (res.status !== 200) throw new Error(`the matrix's file upload answered ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

/** An id no file has: a key that may use the store reaches the 404 that says so; others get their 401/403/404 first. */
const NO_FILE = 'file_00000000000000000000000000';

export const OPENAI_RETRIEVAL_RECIPES: Record<string, Recipe[]> = {
  'POST /v1/files': [
    {
      via: 'global',
      ok: 200,
      request: () => ({ method: 'POST', path: '/v1/files', headers: { 'content-type': 'multipart/form-data; boundary=x' }, json: undefined }),
      globalStatus: () => 400,
      label: 'a malformed body, refused after the scope',
    },
  ],
  'GET /v1/files': [{ via: 'global', ok: 200, request: () => ({ method: 'GET', path: '/v1/files' }) }],
  'GET /v1/files/{file_id}': [{ via: 'global', ok: 200, globalStatus: adminsFile, request: async (_t, w) => ({ method: 'GET', path: `/v1/files/${await freshFile(w)}` }) }],
  'GET /v1/files/{file_id}/content': [
    { via: 'global', ok: 200, globalStatus: adminsFile, request: async (_t, w) => ({ method: 'GET', path: `/v1/files/${await freshFile(w)}/content` }) },
  ],
  'DELETE /v1/files/{file_id}': [
    { via: 'global', ok: 200, globalStatus: adminsFile, request: async (_t, w) => ({ method: 'DELETE', path: `/v1/files/${await freshFile(w)}` }) },
    {
      // The probe's hole (issue 30): the caller's own file, with the bytes of a document of a knowledge base it may not write.
      via: 'kb',
      ok: 200,
      label: "the caller's own file with the bytes of the target's document",
      statusFor: () => 200,
      request: async (t, w, caller) => ({ method: 'DELETE', path: `/v1/files/${await w.freshTwinFile(t, caller)}` }),
    },
  ],
  'POST /v1/vector_stores': [
    { via: 'global', ok: 200, globalStatus: (c) => (c.limitedTo !== null ? 403 : 200), request: () => ({ method: 'POST', path: '/v1/vector_stores', json: { name: 'made in the matrix' } }) },
  ],
  'GET /v1/vector_stores': [{ via: 'global', ok: 200, lists: true, request: () => ({ method: 'GET', path: '/v1/vector_stores?limit=100&order=asc' }) }],
  'GET /v1/vector_stores/{vector_store_id}': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: store(t) }) }],
  'POST /v1/vector_stores/{vector_store_id}': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'POST', path: store(t), json: { metadata: { by: 'matrix' } } }) }],
  'DELETE /v1/vector_stores/{vector_store_id}': [{ via: 'kb', ok: 200, ownIsTarget: true, request: (t) => ({ method: 'DELETE', path: store(t) }) }],
  'POST /v1/vector_stores/{vector_store_id}/files': [
    { via: 'kb', ok: 404, label: 'an unknown file', request: (t) => ({ method: 'POST', path: `${store(t)}/files`, json: { file_id: NO_FILE } }) },
  ],
  'GET /v1/vector_stores/{vector_store_id}/files': [{ via: 'kb', ok: 200, request: (t) => ({ method: 'GET', path: `${store(t)}/files` }) }],
  'GET /v1/vector_stores/{vector_store_id}/files/{file_id}': [{ via: 'kb', ok: 200, request: (t) => ({ method: 'GET', path: `${store(t)}/files/${t.kb.documentId}` }) }],
  'POST /v1/vector_stores/{vector_store_id}/files/{file_id}': [
    { via: 'kb', ok: 200, request: (t) => ({ method: 'POST', path: `${store(t)}/files/${t.kb.documentId}`, json: { attributes: { checked: true } } }) },
  ],
  'GET /v1/vector_stores/{vector_store_id}/files/{file_id}/content': [
    { via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${store(t)}/files/${t.kb.documentId}/content` }) },
  ],
  'DELETE /v1/vector_stores/{vector_store_id}/files/{file_id}': [
    { via: 'kb', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `${store(t)}/files/${await w.freshDocument(t)}` }) },
  ],
  'POST /v1/vector_stores/{vector_store_id}/file_batches': [
    { via: 'kb', ok: 404, label: 'an unknown file', request: (t) => ({ method: 'POST', path: `${store(t)}/file_batches`, json: { file_ids: [NO_FILE] } }) },
  ],
  'GET /v1/vector_stores/{vector_store_id}/file_batches/{batch_id}': [
    { via: 'kb', ok: 200, request: (t) => ({ method: 'GET', path: `${store(t)}/file_batches/${batchId([t.kb.documentId])}` }) },
  ],
  'GET /v1/vector_stores/{vector_store_id}/file_batches/{batch_id}/files': [
    { via: 'kb', ok: 200, request: (t) => ({ method: 'GET', path: `${store(t)}/file_batches/${batchId([t.kb.documentId])}/files` }) },
  ],
  'POST /v1/vector_stores/{vector_store_id}/search': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'POST', path: `${store(t)}/search`, json: { query: QUESTION } }) }],
};
