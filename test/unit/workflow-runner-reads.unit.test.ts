import test from 'ava';
import { runnerConsumer } from '../../consumers/runner/index.ts';
import type { WorkflowGraph } from '../../schemas/workflow.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { createSqliteReadModelStore } from '../../src/adapters/sqlite/read-model-store.ts';
import { handleCommand } from '../../src/app/command-handler.ts';
import type { AppContext } from '../../src/app/context.ts';
import { createIdGenerator } from '../../src/app/ids.ts';
import type { SearchService } from '../../src/app/services/search.ts';
import type { ChatModel } from '../../src/ports/models.ts';
import { workflowRunDecider } from '../../src/domain/workflow/run.ts';
import { workflowDecider } from '../../src/domain/workflow/workflow.ts';
import { countingStore } from '../helpers/counting-store.ts';

const meta = { now: '2026-01-01T00:00:00.000Z' };

/** start → n template nodes in a row (one an llm node with `llmAt`) → reply: a run of n + 2 nodes that needs no index. */
function chain(n: number, llmAt?: number): WorkflowGraph {
  const steps = Array.from({ length: n }, (_, i) => `t${i + 1}`);
  const ids = ['start', ...steps, 'reply'];
  return {
    nodes: [
      { id: 'start', type: 'start', timeout_ms: 1000, config: { inputs: [{ name: 'q', type: 'string', required: true }] } },
      ...steps.map((id, i) => {
        const before = i === 0 ? '{{start.q}}' : `{{t${i}.${i === llmAt ? 'text' : 'output'}}}.`;
        return i + 1 === llmAt
          ? { id, type: 'llm' as const, timeout_ms: 1000, config: { model: 'echo', prompt: before, temperature: 0 } }
          : { id, type: 'template' as const, timeout_ms: 1000, config: { template: before } };
      }),
      { id: 'reply', type: 'direct_reply', timeout_ms: 1000, config: { template: n === 0 ? '{{start.q}}' : `{{t${n}.output}}` } },
    ],
    edges: ids.slice(1).map((to, i) => ({ from: ids[i]!, to })),
  };
}

/** A chat model that answers with the prompt it was given, at once. */
const echo = {
  model: { id: 'echo', type: 'chat', provider: 'test' },
  passesOptions: false,
  complete: async (request: { messages: { content: string }[] }) => ({ content: request.messages.at(-1)!.content, finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 } }),
} as unknown as ChatModel;

/** Runs a graph of `nodes` nodes with the runner consumer and counts its reads of and appends to the run's stream. */
async function runReads(nodes: number, llmAt?: number) {
  const { base, calls, requested, runner } = await setUp(nodes, llmAt, echo);
  await runner.handle([requested]);
  const events = await base.readStream('workflow_run-r');
  return { reads: calls.reads.filter((s) => s === 'workflow_run-r').length, appends: calls.appends.length, end: events.at(-1)!, events: events.length, types: events.map((e) => e.type) };
}

/** A store with a workflow of `nodes` nodes and a requested run of it, and a runner whose llm nodes use `model`. */
async function setUp(nodes: number, llmAt: number | undefined, model: ChatModel) {
  const db = openSqlite(':memory:');
  const base = createSqliteEventStore({ db });
  const { store, calls } = countingStore(base);
  const ctx: AppContext = {
    store,
    readModels: createSqliteReadModelStore(db),
    projections: { waitFor: async () => {} },
    newId: createIdGenerator(),
    now: () => new Date(meta.now),
    consistencyTimeoutMs: 1000,
  };
  const graph = chain(nodes - 2, llmAt);
  await handleCommand(base, workflowDecider, 'wf', { type: 'CreateWorkflow', data: { workflow_id: 'wf', workspace_id: 'w', name: 'chain', description: null, graph }, metadata: meta });
  const data = { run_id: 'r', workflow_id: 'wf', workflow_version: 1, workspace_id: 'w', inputs: { q: 'hi' }, response_mode: 'async' as const };
  await handleCommand(base, workflowRunDecider, 'r', { type: 'RequestRun', data, metadata: meta });
  const [requested] = await base.readStream('workflow_run-r');
  // Template and reply nodes call no service: the search service is never reached.
  const runner = runnerConsumer({ ctx, search: {} as SearchService, chatModels: new Map([['echo', model]]), maxContextTokens: 1000 });
  return { base, calls, requested: requested!, runner, ctx };
}

test('a run reads its stream once, however many nodes it has', async (t) => {
  const small = await runReads(4);
  const large = await runReads(16);
  for (const [nodes, run] of [[4, small], [16, large]] as const) {
    t.is(run.end.type, 'WorkflowRunSucceeded', `${nodes} nodes`);
    t.is(run.events, 2 + 2 * nodes + 1, `${nodes} nodes: requested, started, each node started and finished, succeeded`);
    t.is(run.appends, 1, `${nodes} instant nodes: the whole run is one append (it was one per command, ${1 + 2 * nodes + 1})`);
  }
  t.is(small.reads, 1, 'a 4-node run read its stream 11 times when each command read it');
  t.is(large.reads, small.reads);
  t.deepEqual(large.end.type === 'WorkflowRunSucceeded' && large.end.data.outputs, { answer: `hi${'.'.repeat(13)}` });
});

test('a node that takes time is on record as started before it runs; the instant ones around it join the appends', async (t) => {
  const run = await runReads(5, 2);
  t.is(run.end.type, 'WorkflowRunSucceeded');
  // [started, start ✓, t1 ✓, t2 (llm) started] then [t2 ✓, t3 ✓, reply ✓, succeeded]: 2 appends for 12 events.
  t.is(run.appends, 2);
  const node = (n: string) => [`NodeRunStarted ${n}`, `NodeRunSucceeded ${n}`];
  t.is(run.events, 2 + 2 * 5 + 1);
  t.deepEqual(
    run.types.map((type, i) => (type.startsWith('Node') ? `${type} ${['start', 't1', 't2', 't3', 'reply'][Math.floor((i - 2) / 2)]}` : type)),
    ['WorkflowRunRequested', 'WorkflowRunStarted', ...node('start'), ...node('t1'), ...node('t2'), ...node('t3'), ...node('reply'), 'WorkflowRunSucceeded'],
  );
});

test('a runner that stopped in a node that takes time: another takes the run up there, and the run finishes once', async (t) => {
  let wake!: (error: Error) => void;
  const stuck = { ...echo, complete: () => new Promise((_, reject) => (wake = reject)) } as unknown as ChatModel;
  const { base, requested, runner: first, ctx } = await setUp(5, 2, stuck);
  const crashed = first.handle([requested]);
  while ((await base.readStream('workflow_run-r')).length < 6) await new Promise((resolve) => setImmediate(resolve));
  // What the first runner left on record: started, start and t1 finished, t2 started.
  t.deepEqual((await base.readStream('workflow_run-r')).map((e) => e.type).slice(-1), ['NodeRunStarted']);
  const second = runnerConsumer({ ctx, search: {} as SearchService, chatModels: new Map([['echo', echo]]), maxContextTokens: 1000 });
  await second.handle([requested]);
  const done = await base.readStream('workflow_run-r');
  // The first runner wakes to a model error after all: the run already finished, it records nothing.
  wake(new Error('connection reset'));
  await crashed;
  const after = await base.readStream('workflow_run-r');
  t.deepEqual(after.map((e) => e.id), done.map((e) => e.id));
  const finished = after.filter((e) => e.type === 'NodeRunSucceeded').map((e) => e.type === 'NodeRunSucceeded' && e.data.node_id);
  t.deepEqual(finished, ['start', 't1', 't2', 't3', 'reply'], 'each node finished once');
  t.deepEqual(after.filter((e) => e.type === 'NodeRunStarted' && e.data.node_id === 't2').map((e) => e.type === 'NodeRunStarted' && e.data.attempt), [1, 2]);
  t.is(after.filter((e) => e.type === 'WorkflowRunSucceeded').length, 1);
});
