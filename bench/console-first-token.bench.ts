import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { findChromium } from '../test/helpers/browser.ts';
import { type Api, json, withKbqa } from './kbqa-api.ts';
import { log, percentile } from './util.ts';

const ANSWERS = 10;
const CHUNKS_PER_ANSWER = 25;
const CHUNK_GAP_MS = 40;

/**
 * An OpenAI-compatible chat endpoint that streams CHUNKS_PER_ANSWER pieces, each naming the
 * moment it was written: "⟦<Date.now()>⟧ ". Nothing else of OpenAI's is needed here.
 */
async function timestampingProvider(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'stamp', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(chunk({ role: 'assistant', content: '' }));
      for (let i = 0; i < CHUNKS_PER_ANSWER; i++) {
        await new Promise((resolve) => setTimeout(resolve, CHUNK_GAP_MS));
        res.write(chunk({ content: `⟦${Date.now()}⟧ ` }));
      }
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * In the page: a MutationObserver that notes, for each stamp as it first appears in the answer
 * being streamed, how long after its sending it was shown (same machine, same clock).
 */
function observeStamps() {
  const seen = new Set<string>();
  const delays: number[] = ((window as unknown as { __delays: number[] }).__delays = []);
  new MutationObserver(() => {
    const now = Date.now();
    const answers = document.querySelectorAll('.message-assistant .answer-text');
    const text = answers[answers.length - 1]?.textContent ?? '';
    for (const match of text.matchAll(/⟦(\d+)⟧/g)) {
      if (seen.has(match[1]!)) continue;
      seen.add(match[1]!);
      delays.push(now - Number(match[1]));
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}

/**
 * `npm run bench -- console_first_token`: how soon the console's chat shows a streamed piece
 * after the model sent it. A loopback provider (a workspace model provider) stamps each piece;
 * `npm start`'s server relays it through /v1/chat/completions; the console in Chromium shows it.
 */
/** The stamping provider is on loopback, which a workspace provider reaches only when the operator allows it. */
const LOOPBACK_PROVIDER = { KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1' };

export async function consoleFirstTokenBench() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('console_first_token needs Chromium (KBQA_CHROMIUM or /usr/bin/chromium)');
  const provider = await timestampingProvider();
  try {
    return await withKbqa('console-first-token', async (api) => {
      await json(api, 'POST', '/v1/model-providers', { name: 'stamp', base_url: provider.baseUrl, api_key: 'sk-bench-loopback', models: [{ id: 'stamp-chat', type: 'chat' }] });
      const relay = await relayDelays(api);
      const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
      try {
        const page = await browser.newPage();
        await page.goto(`${api.base}/`);
        await page.getByLabel('API key').fill(api.headers.authorization!.replace(/^Bearer /, ''));
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('navigation').getByRole('link', { name: 'Chat' }).click();
        await page.locator('.chat-settings .react-aria-Select .react-aria-Button').click();
        await page.getByRole('option', { name: 'stamp/stamp-chat' }).click();
        await page.evaluate(observeStamps);
        const firsts: number[] = [];
        for (let i = 0; i < ANSWERS; i++) {
          const before = await page.evaluate(() => (window as unknown as { __delays: number[] }).__delays.length);
          await page.getByLabel('Message').fill(`Say something (${i + 1}).`);
          await page.getByRole('button', { name: 'Send' }).click();
          await page.locator('.message-assistant [aria-busy="false"]').nth(i).waitFor();
          firsts.push(await page.evaluate((n) => (window as unknown as { __delays: number[] }).__delays[n]!, before));
        }
        const all = await page.evaluate(() => (window as unknown as { __delays: number[] }).__delays);
        log(`console_first_token: ${all.length} pieces shown of ${ANSWERS * CHUNKS_PER_ANSWER} sent`);
        const every = summary(all);
        const first = summary(firsts);
        return {
          setup: `npm start (embedded) relaying a loopback workspace provider; console in headless Chromium; ${ANSWERS} answers × ${CHUNKS_PER_ANSWER} pieces ${CHUNK_GAP_MS} ms apart`,
          pieces_shown: all.length,
          first_token_shown_minus_sent_ms: first,
          every_token_shown_minus_sent_ms: every,
          // The same stream read by Node instead of the console: what the server's relay alone costs.
          every_token_received_by_node_minus_sent_ms: summary(relay),
          pass: first.p95_ms <= 50 && every.p95_ms <= 50,
        };
      } finally {
        await browser.close();
      }
    }, LOOPBACK_PROVIDER);
  } finally {
    await provider.close();
  }
}

function summary(delaysMs: number[]) {
  const sorted = [...delaysMs].sort((a, b) => a - b);
  return { n: sorted.length, p50_ms: percentile(sorted, 50), p95_ms: percentile(sorted, 95), max_ms: sorted.at(-1) ?? Number.NaN };
}

/** Each piece's arrival minus its sending, read straight from /v1/chat/completions by this process (no browser). */
async function relayDelays(api: Api): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < ANSWERS; i++) {
    const res = await fetch(`${api.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...api.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'stamp/stamp-chat', stream: true, messages: [{ role: 'user', content: 'Say something.' }] }),
    });
    const decoder = new TextDecoder();
    for await (const bytes of res.body!) {
      const now = Date.now();
      for (const match of decoder.decode(bytes as Uint8Array, { stream: true }).matchAll(/⟦(\d+)⟧/g)) delays.push(now - Number(match[1]));
    }
  }
  return delays;
}
