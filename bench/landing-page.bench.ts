import { json, withKbqa } from './kbqa-api.ts';
import { getGzipped as get, lighthouseScores } from './lighthouse.ts';
import { log } from './util.ts';

const JS_BUDGET_BYTES = 60 * 1024;
const MIN_SCORE = 95;

/**
 * The landing page's weight and Lighthouse scores at `url` (any server's /a/{slug}). Bytes are as
 * transferred, gzip accepted.
 */
export async function landingPageFigures(url: string) {
  const html = await get(url);
  const assets = [...html.body.matchAll(/(?:src|href)="(\/assets\/landing\/[^"]+)"/g)].map((m) => new URL(m[1]!, url).href);
  const files = await Promise.all(assets.map(get));
  const bytes = (ext: string) => files.filter((f) => f.url.endsWith(ext)).reduce((sum, f) => sum + f.transferred, 0);
  const transferred = { html: html.transferred, js_gz: bytes('.js'), css_gz: bytes('.css'), total: html.transferred + bytes('.js') + bytes('.css') };
  const { scores } = await lighthouseScores(url);
  return {
    url,
    transferred_bytes: transferred,
    js_gzip_encoded: files.every((f) => !f.url.endsWith('.js') || f.encoding === 'gzip'),
    lighthouse: scores,
    pass: transferred.js_gz <= JS_BUDGET_BYTES && scores.performance >= MIN_SCORE && scores.accessibility >= MIN_SCORE,
  };
}

/**
 * `npm run bench -- landing_page`: the real page of an agent published through the API, served by
 * `npm start`'s server over a small knowledge base (the page's weight does not depend on its size).
 */
export async function landingPageBench() {
  return withKbqa('landing-page', async (api) => {
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'handbook' })).id;
    const agent = await json(api, 'POST', '/v1/agents', {
      name: 'Handbook helper',
      model: 'kbqa-extractive',
      knowledge_base_ids: [kb],
      opening_message: 'Ask me anything about the staff handbook: leave, travel, expenses.',
      suggested_questions: ['How much leave carries over?', 'How do I claim travel expenses?'],
    });
    const { public_url } = await json(api, 'POST', `/v1/agents/${agent.id}/publish`);
    const url = `${api.base}${public_url}`;
    log(`landing_page: ${url}`);
    return { server: 'npm start (embedded), an agent published through the API', ...(await landingPageFigures(url)) };
  });
}
