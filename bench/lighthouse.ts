import { request } from 'node:http';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { findChromium } from '../test/helpers/browser.ts';
import { round } from './util.ts';

/** A script the page loaded, as Lighthouse recorded it: bytes over the wire (gzip when the server sent it so). */
export type LoadedScript = { url: string; transferred: number };

/**
 * Lighthouse 12.2.3's default run (mobile emulation, simulated slow 4G and 4× CPU slowdown) of `url`
 * in headless Chromium; `extraHeaders` go with every request of the page (a session cookie).
 * The scripts it loaded come with the scores: the page's JavaScript as a browser really fetched it.
 */
export async function lighthouseScores(url: string, extraHeaders?: Record<string, string>) {
  const chromePath = findChromium() ?? '/usr/bin/chromium';
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], extraHeaders });
    if (!result) throw new Error('lighthouse returned nothing');
    const { categories, audits } = result.lhr;
    const score = (name: string) => round((categories[name]?.score ?? 0) * 100);
    const ms = (id: string) => round(audits[id]?.numericValue ?? Number.NaN);
    const failing = Object.values(categories.accessibility?.auditRefs ?? []).filter((ref) => ref.weight > 0 && audits[ref.id]?.score === 0).map((ref) => ref.id);
    const requests = ((audits['network-requests']?.details as { items?: { url: string; resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? []);
    const scripts: LoadedScript[] = requests.filter((r) => r.resourceType === 'Script').map((r) => ({ url: r.url, transferred: r.transferSize ?? 0 }));
    return {
      scores: {
        performance: score('performance'),
        accessibility: score('accessibility'),
        fcp_ms: ms('first-contentful-paint'),
        lcp_ms: ms('largest-contentful-paint'),
        tbt_ms: ms('total-blocking-time'),
        cls: round(audits['cumulative-layout-shift']?.numericValue ?? Number.NaN, 3),
        failing_accessibility_audits: failing,
      },
      scripts,
      finalUrl: result.lhr.finalDisplayedUrl,
    };
  } finally {
    chrome.kill();
  }
}

/** One GET, counting the bytes as they came over the wire (before gunzip). */
export function getGzipped(url: string): Promise<{ url: string; body: string; transferred: number; encoding: string | undefined }> {
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
