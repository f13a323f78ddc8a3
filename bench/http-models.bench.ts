import autocannon from 'autocannon';
import { cpuSeconds, startChild, startKbqa, stopChild, waitFor, type Child } from './server-process.ts';
import { freePort, log, percentile, round, withTempDir } from './util.ts';

const CONNECTIONS = 32;
const WARMUP_S = 2;
const ROUND_S = 5; // two rounds per target: 10 s each in all
const TARGET_RATIO = 0.6;

type Target = { name: 'kbqa' | 'bare_koa'; url: string; pid: number };
type Tally = { requests: number; seconds: number; cpuSeconds: number | null; non2xx: number; errors: number; timeouts: number; latencies: number[]; rounds: number[] };

function run(url: string, headers: Record<string, string>, duration: number, latencies?: number[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, headers, connections: CONNECTIONS, pipelining: 1, duration }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    if (latencies) instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

/**
 * Warm both servers up, then measure in ABBA order (bare, ours, ours, bare), ROUND_S each, so a
 * slow drift of the machine (other work on it, CPU boost, noisy neighbours) hits both alike.
 */
async function measure(targets: [Target, Target], headers: Record<string, string>) {
  const tallies = new Map<string, Tally>(targets.map((t) => [t.name, { requests: 0, seconds: 0, cpuSeconds: 0, non2xx: 0, errors: 0, timeouts: 0, latencies: [], rounds: [] }]));
  let warmupFailures = 0;
  for (const t of targets) {
    log(`http_models: ${t.name}: ${WARMUP_S} s warm-up`);
    const warm = await run(t.url, headers, WARMUP_S);
    warmupFailures += warm.non2xx + warm.errors;
  }
  const [a, b] = targets;
  for (const t of [a, b, b, a]) {
    const tally = tallies.get(t.name)!;
    const cpuBefore = cpuSeconds(t.pid);
    const r = await run(t.url, headers, ROUND_S, tally.latencies);
    const cpuAfter = cpuSeconds(t.pid);
    tally.cpuSeconds = cpuBefore === null || cpuAfter === null || tally.cpuSeconds === null ? null : tally.cpuSeconds + cpuAfter - cpuBefore;
    tally.requests += r.requests.total;
    tally.seconds += r.duration;
    tally.non2xx += r.non2xx;
    tally.errors += r.errors;
    tally.timeouts += r.timeouts;
    tally.rounds.push(round(r.requests.total / r.duration));
    log(`http_models: ${t.name}: ${round(r.requests.total / r.duration)} req/s over ${ROUND_S} s, non-2xx ${r.non2xx}`);
  }
  const summary = (name: string) => {
    const t = tallies.get(name)!;
    const sorted = t.latencies.sort((x, y) => x - y);
    return {
      rps: round(t.requests / t.seconds),
      requests: t.requests,
      seconds: round(t.seconds, 2),
      rounds_rps: t.rounds,
      p50_ms: round(percentile(sorted, 50), 2),
      p99_ms: round(percentile(sorted, 99), 2),
      max_ms: round(sorted.at(-1) ?? Number.NaN, 2),
      server_cpu_us_per_request: t.cpuSeconds === null ? null : round((t.cpuSeconds * 1e6) / t.requests, 1),
      non_2xx: t.non2xx,
      errors: t.errors,
      timeouts: t.timeouts,
    };
  };
  return { kbqa: summary('kbqa'), bare_koa: summary('bare_koa'), warmupFailures };
}

/** GET /v1/models on the real service vs a bare Koa app serving the same body, each in its own process. */
export async function httpModelsBench() {
  return withTempDir('http', async (dataDir) => {
    const children: Child[] = [];
    try {
      // The limiter stays on (its cost is part of the figure) but never trips.
      const kbqa = await startKbqa(dataDir, await freePort(), { KBQA_RATE_LIMIT_PER_MINUTE: '100000000' });
      children.push(kbqa);
      const { base: kbqaBase, headers } = kbqa;
      await waitFor(kbqa, `${kbqaBase}/healthz`);
      const res = await fetch(`${kbqaBase}/v1/models`, { headers });
      const bodyText = await res.text();
      if (res.status !== 200) throw new Error(`GET /v1/models answered ${res.status}: ${bodyText}`);

      const barePort = await freePort();
      const bare = startChild('bare-koa', ['--import', 'tsx', 'bench/bare-koa-server.ts'], { PORT: String(barePort), BODY: bodyText });
      children.push(bare);
      const bareUrl = `http://127.0.0.1:${barePort}/v1/models`;
      await waitFor(bare, bareUrl);
      const bareBody = await (await fetch(bareUrl)).text();
      if (bareBody !== bodyText) throw new Error(`bare Koa answers a different body: ${bareBody}`);

      // One server under load at a time; the other sits idle in its own process.
      const { kbqa: ours, bare_koa: bareResult, warmupFailures } = await measure(
        [
          { name: 'bare_koa', url: bareUrl, pid: bare.proc.pid! },
          { name: 'kbqa', url: `${kbqaBase}/v1/models`, pid: kbqa.proc.pid! },
        ],
        headers,
      );
      const ratio = ours.rps / bareResult.rps;
      const nonOk = ours.non_2xx + bareResult.non_2xx + ours.errors + bareResult.errors;
      return {
        endpoint: 'GET /v1/models (valid bearer key, rate limiter on)',
        response_bytes: Buffer.byteLength(bodyText),
        connections: CONNECTIONS,
        pipelining: 1,
        warmup_s: WARMUP_S,
        schedule: `ABBA: bare, kbqa, kbqa, bare; ${ROUND_S} s each`,
        kbqa: ours,
        bare_koa: bareResult,
        ratio: round(ratio, 3),
        // Bare Koa's server CPU per request over ours: the same comparison, less swayed by other load on the machine.
        cpu_per_request_ratio:
          ours.server_cpu_us_per_request && bareResult.server_cpu_us_per_request
            ? round(bareResult.server_cpu_us_per_request / ours.server_cpu_us_per_request, 3)
            : null,
        target_ratio: TARGET_RATIO,
        non_2xx_total: ours.non_2xx + bareResult.non_2xx,
        warmup_failures: warmupFailures,
        pass: ratio >= TARGET_RATIO && nonOk === 0,
      };
    } finally {
      await Promise.all(children.map(stopChild));
    }
  });
}
