import type { Recipe, World } from './recipe.ts';
import { QUESTION } from './recipe.ts';

/**
 * The access matrix's recipes for the landing page's routes (see recipe.ts for what a recipe
 * says). They take no key: every caller gets the same answer (`via: 'public'`), whatever key it
 * sends. The page's agent has no knowledge base of the matrix (its answers would hold a planted
 * marker that most callers may not read, which the page rightly shows anyone): what the page may
 * reach is the landing-page tests' concern.
 */
let page: Promise<string> | undefined;
function slug(w: World): Promise<string> {
  page ??= (async () => {
    const created = await w.server.call('POST', '/v1/agents', { key: w.admins.main, json: { name: 'the matrix’s page', model: 'kbqa-extractive' } });
    const published = await w.server.call('POST', `/v1/agents/${created.body.id}/publish`, { key: w.admins.main });
    return (published.body.public_url as string).slice('/a/'.length);
  })();
  return page;
}

/** A visitor who has talked once: their cookie, and the answer's message id. */
async function visitor(w: World): Promise<{ cookie: string; messageId: string }> {
  const s = await slug(w);
  const res = await w.server.call('POST', `/a/${s}/chat`, { key: null, json: { messages: [{ role: 'user', content: QUESTION }] } });
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  return { cookie, messageId: res.body.id as string };
}

export const recipes: Record<string, Recipe[]> = {
  'GET /assets/landing/{file}': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/assets/landing/embed.js' }) }],
  'GET /a/{slug}': [{ via: 'public', ok: 200, request: async (_t, w) => ({ method: 'GET', path: `/a/${await slug(w)}` }) }],
  'POST /a/{slug}/chat': [{ via: 'public', ok: 200, request: async (_t, w) => ({ method: 'POST', path: `/a/${await slug(w)}/chat`, json: { messages: [{ role: 'user', content: QUESTION }] } }) }],
  'GET /a/{slug}/pages/{document_id}/{n}': [
    { via: 'public', ok: 404, label: 'a page no answer cited', request: async (_t, w) => ({ method: 'GET', path: `/a/${await slug(w)}/pages/doc_none/1` }) },
  ],
  'POST /a/{slug}/feedback': [
    {
      via: 'public',
      ok: 204,
      request: async (_t, w) => {
        const { cookie, messageId } = await visitor(w);
        return { method: 'POST', path: `/a/${await slug(w)}/feedback`, headers: { cookie }, json: { message_id: messageId, rating: 'up' } };
      },
    },
  ],
  'GET /a/{slug}/history': [{ via: 'public', ok: 200, request: async (_t, w) => ({ method: 'GET', path: `/a/${await slug(w)}/history` }) }],
};
