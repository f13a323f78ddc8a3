import type { Recipe } from './recipe.ts';

/**
 * The console's page and files take no key: every caller gets the same answer (`via: 'public'`).
 * What the console may then do is the API's routes' concern, with the session's key.
 */
export const recipes: Record<string, Recipe[]> = {
  'GET /': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/' }) }],
  'GET /favicon.ico': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/favicon.ico' }) }],
  'GET /assets/console/{file}': [{ via: 'public', ok: 404, label: 'a file the build does not have', request: () => ({ method: 'GET', path: '/assets/console/none.js' }) }],
};
