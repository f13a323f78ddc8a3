import { batchId } from '../../../src/app/services/vector-store-batches.ts';
import { type Recipe, QUESTION, store, NO_FILE } from './recipe.ts';

/** The access matrix's recipes for the vector-stores capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
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
