import { request } from 'node:http';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { findChromium } from '../test/helpers/browser.ts';
import { json, withKbqa } from './kbqa-api.ts';
import { log, round } from './util.ts';

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
  const scores = await lighthouseScores(url);
  return {
    url,
    transferred_bytes: transferred,
    js_gzip_encoded: files.every((f) => !f.url.endsWith('.js') || f.encoding === 'gzip'),
    lighthouse: scores,
    pass: transferred.js_gz <= JS_BUDGET_BYTES && scores.performance >= MIN_SCORE && scores.accessibility >= MIN_SCORE,
  };
}

/** Lighthouse 12.2.3's default run (mobile emulation, simulated slow 4G and 4× CPU slowdown) in headless Chromium. */
async function lighthouseScores(url: string) {
  const chromePath = findChromium() ?? '/usr/bin/chromium';
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
    if (!result) throw new Error('lighthouse returned nothing');
    const { categories, audits } = result.lhr;
    const score = (name: string) => round((categories[name]?.score ?? 0) * 100);
    const ms = (id: string) => round(audits[id]?.numericValue ?? Number.NaN);
    const failing = Object.values(categories.accessibility?.auditRefs ?? []).filter((ref) => ref.weight > 0 && audits[ref.id]?.score === 0).map((ref) => ref.id);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      fcp_ms: ms('first-contentful-paint'),
      lcp_ms: ms('largest-contentful-paint'),
      tbt_ms: ms('total-blocking-time'),
      cls: round(audits['cumulative-layout-shift']?.numericValue ?? Number.NaN, 3),
      failing_accessibility_audits: failing,
    };
  } finally {
    chrome.kill();
  }
}

/** One GET, counting the bytes as they came over the wire (before gunzip). */
function get(url: string): Promise<{ url: string; body: string; transferred: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ url, body: raw.toString('utf8'), transferred: raw.length, encoding: res.headers['content-encoding'] });
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
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
