import { type Recipe, adminsFile, freshFile } from './recipe.ts';

/** The access matrix's recipes for the files capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
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
};
