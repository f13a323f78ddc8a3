import test from 'ava';
import { type RunLimits, runnerConsumer } from '../../consumers/runner/index.ts';
import type { WorkflowGraph } from '../../schemas/workflow.ts';
import { createInProcessBus } from '../../src/adapters/local/in-process-bus.ts';
import { createSqliteReadModelStore } from '../../src/adapters/sqlite/read-model-store.ts';
import { handleCommand } from '../../src/app/command-handler.ts';
import type { AppContext } from '../../src/app/context.ts';
import { createIdGenerator } from '../../src/app/ids.ts';
import type { SearchService } from '../../src/app/services/search.ts';
import { workflowRunDecider } from '../../src/domain/workflow/run.ts';
import { workflowDecider } from '../../src/domain/workflow/workflow.ts';
import type { ChatModel } from '../../src/ports/models.ts';
import { sqliteLog } from '../helpers/sqlite-log.ts';
import { eventually } from '../helpers/temp.ts';

const meta = { now: '2026-01-01T00:00:00.000Z' };
const node = { timeout_ms: 60_000 };

/** start → llm (the slow part, when its model is) → reply; or start → reply. */
function graph(llm: boolean): WorkflowGraph {
  const reply = { id: 'reply', type: 'direct_reply' as const, ...node, config: { template: llm ? '{{llm.text}}' : '{{start.q}}' } };
  const nodes = [
    { id: 'start', type: 'start' as const, ...node, config: { inputs: [{ name: 'q', type: 'string' as const, required: true }] } },
    ...(llm ? [{ id: 'llm', type: 'llm' as const, ...node, config: { model: 'm', prompt: '{{start.q}}', temperature: 0 } }] : []),
    reply,
  ];
  return { nodes, edges: nodes.slice(1).map((n, i) => ({ from: nodes[i]!.id, to: n.id })) };
}

const model = (complete: () => Promise<unknown>) => ({ model: { id: 'm', type: 'chat', provider: 'test' }, passesOptions: false, complete }) as unknown as ChatModel;
const answering = model(async () => ({ content: 'answered', finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 } }));

async function setUp() {
  const log = sqliteLog(5);
  const ctx: AppContext = {
    store: log.store,
    readModels: createSqliteReadModelStore(log.db),
    projections: { waitFor: async () => {} },
    newId: createIdGenerator(),
    now: () => new Date(meta.now),
    consistencyTimeoutMs: 1000,
  };
  for (const [id, workspace, llm] of [['slow', 'noisy', true], ['quick', 'quiet', false]] as const) {
    const data = { workflow_id: id, workspace_id: workspace, name: id, description: null, graph: graph(llm) };
    await handleCommand(log.store, workflowDecider, id, { type: 'CreateWorkflow', data, metadata: meta });
  }
  const request = async (runId: string, workflowId: string, workspaceId: string) => {
    const data = { run_id: runId, workflow_id: workflowId, workflow_version: 1, workspace_id: workspaceId, inputs: { q: 'hi' }, response_mode: 'async' as const };
    await handleCommand(log.store, workflowRunDecider, runId, { type: 'RequestRun', data, metadata: meta });
  };
  const stream = (runId: string) => log.store.readStream(workflowRunDecider.streamId(runId));
  const ended = async (runId: string) => (await stream(runId)).some((e) => e.type === 'WorkflowRunSucceeded');
  const runner = (chat: ChatModel, limits?: RunLimits) => runnerConsumer({ ctx, search: {} as SearchService, chatModels: new Map([['m', chat]]), maxContextTokens: 1000, limits });
  const bus = () => createInProcessBus({ store: log.store, checkpoints: log.checkpoints });
  return { log, request, stream, ended, runner, bus };
}

test('a later run ends while an earlier one is in hand; the checkpoint stays before the one in hand, which a restart takes up', async (t) => {
  const { log, request, stream, ended, runner, bus } = await setUp();
  let wake!: (error: Error) => void;
  const stuck = model(() => new Promise((_, reject) => (wake = reject)));
  const first = bus();
  const group = await first.subscribe(runner(stuck));
  await request('r-slow', 'slow', 'noisy');
  await request('r-quick', 'quick', 'quiet');
  await eventually(() => ended('r-quick'), { timeoutMs: 10_000 });
  const requested = (await stream('r-slow'))[0]!;
  t.true(group.position() < requested.position, 'the checkpoint has not passed the run in hand');
  t.true((await log.checkpoints.load('runner')) < requested.position);

  // The process dies with the slow run in hand (its bus is never stopped): another start takes
  // up what the checkpoint has not passed. The quick run is handed over again and does nothing.
  const quickEvents = (await stream('r-quick')).map((e) => e.id);
  const second = bus();
  const restarted = await second.subscribe(runner(answering));
  await restarted.waitFor(await log.store.headPosition(), 10_000);
  t.true(await ended('r-slow'));
  t.deepEqual((await stream('r-quick')).map((e) => e.id), quickEvents);
  const slow = await stream('r-slow');
  t.is(slow.filter((e) => e.type === 'WorkflowRunSucceeded').length, 1);
  t.true((await log.checkpoints.load('runner')) >= requested.position, 'the restarted runner passed it once the run ended');

  // The first process's model answers late with an error: the run has ended, nothing is recorded.
  wake(new Error('connection reset'));
  await first.close();
  t.deepEqual((await stream('r-slow')).map((e) => e.id), slow.map((e) => e.id));
  await second.close();
  await log.close();
});

test('a runner stopping gives up the runs still waiting for a slot: they are not passed, and the next start runs them', async (t) => {
  const { log, request, stream, ended, runner, bus } = await setUp();
  let wake!: (error: Error) => void;
  const stuck = model(() => new Promise((_, reject) => (wake = reject)));
  const first = bus();
  const group = await first.subscribe(runner(stuck, { concurrency: 1, perWorkspace: 1, held: 10 }));
  await request('r-slow', 'slow', 'noisy');
  await request('r-waiting', 'quick', 'quiet');
  await eventually(async () => (await stream('r-slow')).some((e) => e.type === 'NodeRunStarted' && e.data.node_id === 'llm'));
  const stopping = first.close();
  // The run in hand ends (its model fails): stopping waits for it, not for the one waiting.
  wake(new Error('connection reset'));
  await stopping;
  t.deepEqual((await stream('r-waiting')).map((e) => e.type), ['WorkflowRunRequested'], 'never started');
  const waiting = (await stream('r-waiting'))[0]!;
  t.true(group.position() < waiting.position);
  t.true((await log.checkpoints.load('runner')) < waiting.position);

  const second = bus();
  await second.subscribe(runner(answering));
  await eventually(() => ended('r-waiting'), { timeoutMs: 10_000 });
  t.pass();
  await second.close();
  await log.close();
});
