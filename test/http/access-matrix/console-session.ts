import { type Recipe } from './recipe.ts';

/** The access matrix's recipes for the console-session capability's routes (see recipe.ts for what a recipe says). */
const CONSOLE = { 'x-kbqa-console': '1' };

/** The caller's key signed in as the console: the cookie to send back, or none when the key is refused. */
async function sessionCookie(url: string, apiKey: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/console/session`, { method: 'POST', headers: { ...CONSOLE, 'content-type': 'application/json' }, body: JSON.stringify({ api_key: apiKey }) });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  return cookie ? { cookie } : {};
}

export const recipes: Record<string, Recipe[]> = {
  // The key is in the body, not the header: a valid one signs in, an expired or revoked one is 401.
  'POST /console/session': [{ via: 'global', ok: 204, request: (_t, _w, caller) => ({ method: 'POST', path: '/console/session', json: { api_key: caller.secret }, headers: CONSOLE }) }],
  'GET /console/session': [
    { via: 'global', ok: 200, request: async (_t, w, caller) => ({ method: 'GET', path: '/console/session', headers: { ...CONSOLE, ...(await sessionCookie(w.server.url, caller.secret)) } }) },
  ],
  'DELETE /console/session': [{ via: 'public', ok: 204, request: () => ({ method: 'DELETE', path: '/console/session', headers: CONSOLE }) }],
};
