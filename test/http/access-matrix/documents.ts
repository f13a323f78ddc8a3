import { type Recipe, kbPath, docPath } from './recipe.ts';

/** The access matrix's recipes for the documents capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'POST /v1/knowledge-bases/{kb_id}/documents': [
    { via: 'kb', ok: 202, request: (t) => ({ method: 'POST', path: `${kbPath(t)}/documents`, json: { name: 'upload.md', text: 'An upload made by the access matrix.' } }) },
  ],
  'GET /v1/knowledge-bases/{kb_id}/documents': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${kbPath(t)}/documents?limit=100` }) }],
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: docPath(t) }) }],
  'DELETE /v1/knowledge-bases/{kb_id}/documents/{document_id}': [
    { via: 'kb', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `${kbPath(t)}/documents/${await w.freshDocument(t)}` }) },
  ],
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}/chunks': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${docPath(t)}/chunks` }) }],
  // The matrix's document is text: a key that may read it reaches the 415 that says its pages cannot be drawn; others get their 401/403/404 first.
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}/pages/{page}/image': [
    { via: 'kb', ok: 415, label: 'text has no page to draw', request: (t) => ({ method: 'GET', path: `${docPath(t)}/pages/1/image` }) },
  ],
  // From the log's start: the planted document's upload is replayed (its name carries the marker); read until the stream is live.
  'GET /v1/knowledge-bases/{kb_id}/documents/events': [
    { via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${kbPath(t)}/documents/events`, headers: { 'last-event-id': '0' }, until: 'event: ready' }) },
  ],
  // Versions inherit their document's knowledge base (issue 44): a key limited elsewhere adds, lists and downloads none.
  'POST /v1/knowledge-bases/{kb_id}/documents/{document_id}/versions': [
    {
      via: 'kb',
      ok: 201,
      request: async (t, w) => ({ method: 'POST', path: `${kbPath(t)}/documents/${await w.freshDocument(t)}/versions`, json: { text: `A new version made by the access matrix, ${Math.random()}.` } }),
    },
  ],
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}/versions': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${docPath(t)}/versions` }) }],
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}/versions/{version}/content': [
    { via: 'kb', ok: 200, request: (t) => ({ method: 'GET', path: `${docPath(t)}/versions/1/content` }) },
  ],
  // The planted document has one version: compared with itself, a key that may read it gets a diff with nothing changed (no text to reveal).
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}/versions/{version}/diff': [
    { via: 'kb', ok: 200, request: (t) => ({ method: 'GET', path: `${docPath(t)}/versions/1/diff?against=1` }) },
  ],
  // Restoring the only version: its bytes are the newest already, 200 and nothing new.
  'POST /v1/knowledge-bases/{kb_id}/documents/{document_id}/versions/{version}/restore': [
    { via: 'kb', ok: 200, request: (t) => ({ method: 'POST', path: `${docPath(t)}/versions/1/restore` }) },
  ],
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}/events': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${docPath(t)}/events` }) }],
};
