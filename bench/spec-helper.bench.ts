import { type SpecApp, startSpecApp } from '../test/helpers/spec-app.ts';
import { startServer } from '../test/helpers/server.ts';
import { latencySummary, log } from './util.ts';

/**
 * What one HTTP test pays before and after its assertions: the whole runtime on a temp data dir
 * (startServer) against the API's app over in-memory ports (test/helpers/spec-app.ts, under the
 * HTTP spec helper). Each round starts one, creates a knowledge base and reads it back, and
 * closes it; the two alternate, so load from elsewhere on the machine falls on both alike.
 */

const ROUNDS = 20;
/** The helper is there to start small: a test on it should cost at most half of one on the whole runtime. */
const TARGET_RATIO = 0.5;

/** What both give a test: calls, and a close. */
type App = Pick<SpecApp, 'call' | 'close'>;

async function round(start: () => Promise<App>) {
  const t0 = performance.now();
  const app = await start();
  const t1 = performance.now();
  const kb = await app.call('POST', '/v1/knowledge-bases', { json: { name: 'bench' } });
  const read = await app.call('GET', `/v1/knowledge-bases/${kb.body.id}`);
  if (read.status !== 200) throw new Error(`GET answered ${read.status}`);
  const t2 = performance.now();
  await app.close();
  const t3 = performance.now();
  return { start: t1 - t0, requests: t2 - t1, close: t3 - t2, total: t3 - t0 };
}

export async function specHelperBench() {
  const kinds = { start_server: () => startServer(), spec_app: () => startSpecApp() } as const;
  // One of each first, unmeasured: module loading and the shared offline models are paid once per test file, not per test.
  for (const start of Object.values(kinds)) await round(start);
  const samples: Record<keyof typeof kinds, Awaited<ReturnType<typeof round>>[]> = { start_server: [], spec_app: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const [name, start] of Object.entries(kinds) as [keyof typeof kinds, () => Promise<App>][]) samples[name].push(await round(start));
  }
  log(`spec_helper: ${ROUNDS} rounds each`);
  const summary = (rows: Awaited<ReturnType<typeof round>>[]) => ({
    start: latencySummary(rows.map((r) => r.start)),
    two_requests: latencySummary(rows.map((r) => r.requests)),
    close: latencySummary(rows.map((r) => r.close)),
    total: latencySummary(rows.map((r) => r.total)),
  });
  const server = summary(samples.start_server);
  const spec = summary(samples.spec_app);
  const ratio = spec.total.p50_ms / server.total.p50_ms;
  return { rounds: ROUNDS, start_server: server, spec_app: spec, total_p50_ratio: Math.round(ratio * 100) / 100, pass: ratio <= TARGET_RATIO };
}
