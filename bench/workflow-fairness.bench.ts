import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Api, json } from './kbqa-api.ts';
import { ROOT, startKbqa, stopChild, waitFor } from './server-process.ts';
import { freePort, latencySummary, log, withTempDir } from './util.ts';

/** Slow runs the noisy workspace keeps in flight, and how long each one's HTTP node waits. */
const NOISY_RUNS = 8;
const SLOW_MS = 1000;
const SAMPLES = 10;

/**
 * Issue 42, item 3: another workspace's trivial run, and a chat with its workflow-backed agent,
 * while a noisy workspace keeps NOISY_RUNS runs in flight whose http_request node waits SLOW_MS
 * on a loopback server. Each figure is also taken with no noise. A run is timed from its request
 * to its end in the read model (asked every 10 ms), whatever the blocking wait. KBQA_BENCH_ROOT
 * serves another checkout (main's code, to compare).
 */
export async function workflowFairnessBench() {
  let inFlight = 0;
  let peak = 0;
  const upstream = createServer((req, res) => {
    req.resume();
    peak = Math.max(peak, ++inFlight);
    setTimeout(() => {
      inFlight -= 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    }, SLOW_MS);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const root = process.env.KBQA_BENCH_ROOT ?? ROOT;
  try {
    return await withTempDir('workflow-fairness', async (dataDir) => {
      // The quiet workspace is made before the server starts (the CLI opens the data dir itself).
      const printed = execFileSync(process.execPath, ['bin/kbqa.js', 'workspaces', 'create', 'quiet'], { cwd: root, env: { ...process.env, KBQA_DATA_DIR: dataDir, KBQA_LOG_LEVEL: 'warn' }, encoding: 'utf8' });
      const quietKey = /(kbqa-[A-Za-z0-9_-]+)/.exec(printed)![1]!;
      const child = await startKbqa(dataDir, await freePort(), { KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1' }, root);
      try {
        await waitFor(child, `${child.base}/readyz`);
        const noisy: Api = { base: child.base, headers: child.headers };
        const quiet: Api = { base: child.base, headers: { authorization: `Bearer ${quietKey}` } };
        return await measure(noisy, quiet, upstreamUrl, () => ({ peak }));
      } finally {
        await stopChild(child);
      }
    });
  } finally {
    upstream.closeAllConnections();
    upstream.close();
  }
}

const start = { id: 'start', type: 'start', config: { inputs: [{ name: 'question', type: 'string', required: true }] } };
const chain = (nodes: { id: string }[]) => ({ nodes, edges: nodes.slice(1).map((node, i) => ({ from: nodes[i]!.id, to: node.id })) });

async function measure(noisy: Api, quiet: Api, upstreamUrl: string, upstreamStats: () => { peak: number }) {
  const slow = chain([
    start,
    { id: 'wait', type: 'http_request', timeout_ms: 120_000, config: { method: 'GET', url: `${upstreamUrl}/slow`, timeout_ms: 120_000 } },
    { id: 'answer', type: 'direct_reply', config: { template: 'slow {{wait.status}}' } },
  ] as { id: string }[]);
  const trivial = chain([start, { id: 'answer', type: 'direct_reply', config: { template: 'quick: {{start.question}}' } }] as { id: string }[]);
  const slowId = (await json(noisy, 'POST', '/v1/workflows', { name: 'slow', graph: slow })).id as string;
  const quickId = (await json(quiet, 'POST', '/v1/workflows', { name: 'quick', graph: trivial })).id as string;
  const agentWorkflowId = (await json(quiet, 'POST', '/v1/workflows', { name: 'agent', graph: trivial })).id as string;
  const agent = (await json(quiet, 'POST', '/v1/agents', { name: 'helper', model: 'kbqa-extractive', workflow_id: agentWorkflowId })).id as string;
  await json(quiet, 'POST', `/v1/agents/${agent}/publish`);

  const runToEnd = async (api: Api, workflowId: string) => {
    const t0 = performance.now();
    const run = await json(api, 'POST', `/v1/workflows/${workflowId}/run`, { inputs: { question: 'hi' }, response_mode: 'async' });
    for (let status = run.status as string; status !== 'succeeded'; ) {
      if (status === 'failed') throw new Error(`run ${run.id} failed`);
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = (await json(api, 'GET', `/v1/workflow-runs/${run.id}`)).status;
    }
    return performance.now() - t0;
  };
  const chat = async () => {
    const t0 = performance.now();
    const answer = await json(quiet, 'POST', '/v1/chat/completions', { model: agent, messages: [{ role: 'user', content: 'hi' }] });
    if (answer.choices[0].message.content !== 'quick: hi') throw new Error(`unexpected answer ${JSON.stringify(answer.choices[0].message)}`);
    return performance.now() - t0;
  };
  const sample = async (fn: () => Promise<number>) => {
    const ms: number[] = [];
    for (let i = 0; i < SAMPLES; i++) ms.push(await fn());
    return latencySummary(ms);
  };

  for (let i = 0; i < 3; i++) await runToEnd(quiet, quickId), await chat();
  const idle = { run: await sample(() => runToEnd(quiet, quickId)), agent_chat: await sample(chat) };
  log(`workflow_fairness: no noise: run ${JSON.stringify(idle.run)}, agent chat ${JSON.stringify(idle.agent_chat)}`);

  // The noise: NOISY_RUNS clients, each requesting its next slow run as soon as its last one ended.
  let noising = true;
  let noisyDone = 0;
  const noise = Array.from({ length: NOISY_RUNS }, async () => {
    while (noising) await runToEnd(noisy, slowId).then(() => void (noisyDone += 1));
  });
  await new Promise((resolve) => setTimeout(resolve, 2 * SLOW_MS));
  const loaded = { run: await sample(() => runToEnd(quiet, quickId)), agent_chat: await sample(chat) };
  log(`workflow_fairness: ${NOISY_RUNS} slow runs in flight: run ${JSON.stringify(loaded.run)}, agent chat ${JSON.stringify(loaded.agent_chat)}`);
  noising = false;
  await Promise.all(noise);
  return {
    noisy_runs_in_flight: NOISY_RUNS,
    slow_node_ms: SLOW_MS,
    samples: SAMPLES,
    no_noise: idle,
    under_noise: loaded,
    noisy_runs_done: noisyDone,
    noisy_http_requests_at_once_peak: upstreamStats().peak,
    // Another workspace's run may wait for one slot at most: well under one slow node's wait.
    pass: loaded.run.p50_ms < SLOW_MS / 2 && loaded.agent_chat.p50_ms < SLOW_MS / 2,
  };
}
