import test from 'ava';
import { NOT_COVERED_ANSWER } from '../../src/domain/chat/prompt.ts';
import { notCoveredAnswer } from '../../src/domain/chat/not-covered.ts';
import { runnerConsumer } from '../../consumers/runner/index.ts';
import type { KnowledgeBaseDoc } from '../../projections/knowledge-bases/index.ts';
import type { WorkflowGraph, WorkflowNode } from '../../schemas/workflow.ts';
import { createExtractiveChatModel } from '../../src/adapters/local/extractive-chat-model.ts';
import { analyzer } from '../helpers/analyzer.ts';
import { handleCommand } from '../../src/app/command-handler.ts';
import { executeNode } from '../../src/app/workflow-engine/execute-node.ts';
import type { EngineDeps } from '../../src/app/workflow-engine/types.ts';
import { knowledgeQaGraph } from '../../src/domain/workflow/knowledge-qa.ts';
import { workflowRunDecider } from '../../src/domain/workflow/run.ts';
import { workflowDecider } from '../../src/domain/workflow/workflow.ts';
import type { ChatModel } from '../../src/ports/models.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let kb: SampleKb;
let workspaceId: string;
let seq = 0;

test.before(async () => {
  server = await startServer();
  kb = await sampleKnowledgeBase(server);
  const doc = await server.runtime.readModels.get<KnowledgeBaseDoc>('knowledge_bases', kb.kbId);
  workspaceId = doc!.workspace_id;
});
test.after.always(() => server?.close());

const meta = () => ({ now: new Date().toISOString(), actor: 'test' });

async function createWorkflow(graph: WorkflowGraph): Promise<string> {
  const id = `wf_test_${++seq}`;
  await handleCommand(server.runtime.store, workflowDecider, id, {
    type: 'CreateWorkflow',
    data: { workflow_id: id, workspace_id: workspaceId, name: id, description: null, graph },
    metadata: meta(),
  });
  return id;
}

async function requestRun(workflowId: string, inputs: Record<string, unknown>): Promise<string> {
  const runId = `run_test_${++seq}`;
  await handleCommand(server.runtime.store, workflowRunDecider, runId, {
    type: 'RequestRun',
    data: { run_id: runId, workflow_id: workflowId, workflow_version: 1, workspace_id: workspaceId, inputs, response_mode: 'async' },
    metadata: meta(),
  });
  return runId;
}

const runStream = (runId: string) => server.runtime.store.readStream(workflowRunDecider.streamId(runId));

async function finished(runId: string): Promise<{ events: RecordedEvent[]; end: RecordedEvent }> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const events = await runStream(runId);
    const end = events.find((e) => e.type === 'WorkflowRunSucceeded' || e.type === 'WorkflowRunFailed');
    if (end) return { events, end };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`run ${runId} did not finish`);
}

async function run(graph: WorkflowGraph, inputs: Record<string, unknown>) {
  return finished(await requestRun(await createWorkflow(graph), inputs));
}

const data = (event: RecordedEvent) => event.data as Record<string, any>;

for (const question of ['How long is each Zephyr-9 blade?', 'When did the Erebus lava lake become active?']) {
  test(`knowledge-qa answers and cites exactly what chat does: ${question}`, async (t) => {
    const { end, events } = await run(knowledgeQaGraph(kb.kbId), { question });
    t.is(end.type, 'WorkflowRunSucceeded', JSON.stringify(end.data));
    const chat = await server.call('POST', '/v1/chat/completions', {
      json: { model: 'kbqa-extractive', messages: [{ role: 'user', content: question }], knowledge_base_id: kb.kbId },
    });
    t.is(chat.status, 200);
    t.true(chat.body.citations.length > 0);
    t.is(data(end).outputs.answer, chat.body.choices[0].message.content);
    // The same objects: each pointed at the span the answer quotes (quote, char_start/char_end, its lines' boxes).
    // A run's `citations` output lists every passage retrieved, as chat's `context` does; chat's `citations` are those the answer marks.
    const outputs = data(end).outputs.citations as { index: number; chunk_id: string }[];
    t.deepEqual(
      outputs.filter((c) => chat.body.citations.some((cited: { index: number }) => cited.index === c.index)),
      chat.body.citations,
    );
    t.deepEqual(
      outputs.map((c) => c.chunk_id),
      chat.body.context.map((c: { chunk_id: string }) => c.chunk_id),
    );
    t.true(chat.body.citations.some((c: { quote: unknown }) => c.quote !== null), 'the answer quotes a span');
    const ran = events.filter((e) => e.type === 'NodeRunSucceeded').map((e) => data(e).node_id);
    t.deepEqual(ran, ['start', 'retrieve', 'llm', 'answer']);
    const started = events.find((e) => e.type === 'NodeRunStarted' && data(e).node_id === 'retrieve')!;
    t.deepEqual(data(started).inputs, { query: question });
  });
}

const node = <N extends WorkflowNode>(n: Omit<N, 'timeout_ms'>): N => ({ timeout_ms: 30_000, ...n }) as N;

function branchingGraph(): WorkflowGraph {
  return {
    nodes: [
      node({ id: 'start', type: 'start', config: { inputs: [{ name: 'question', type: 'string', required: true }] } }),
      node({ id: 'is_volcano', type: 'condition', config: { left: '{{start.question}}', operator: 'contains', right: 'Erebus' } }),
      node({ id: 'yes', type: 'direct_reply', config: { template: 'volcano: {{start.question}}' } }),
      node({ id: 'shape', type: 'template', config: { template: 'other ({{is_volcano.result}})' } }),
      node({ id: 'no', type: 'direct_reply', config: { template: '{{shape.output}}' } }),
    ],
    edges: [
      { from: 'start', to: 'is_volcano' },
      { from: 'is_volcano', to: 'yes', when: true },
      { from: 'is_volcano', to: 'shape', when: false },
      { from: 'shape', to: 'no' },
    ],
  };
}

test('a condition takes the branch its result names, and only that one', async (t) => {
  const yes = await run(branchingGraph(), { question: 'Where is Erebus?' });
  t.is(yes.end.type, 'WorkflowRunSucceeded');
  t.deepEqual(data(yes.end).outputs, { answer: 'volcano: Where is Erebus?' });
  t.deepEqual(
    yes.events.filter((e) => e.type === 'NodeRunStarted').map((e) => data(e).node_id),
    ['start', 'is_volcano', 'yes'],
  );

  const no = await run(branchingGraph(), { question: 'What is sourdough?' });
  t.is(no.end.type, 'WorkflowRunSucceeded');
  t.deepEqual(data(no.end).outputs, { answer: 'other (false)' });
  t.deepEqual(
    no.events.filter((e) => e.type === 'NodeRunStarted').map((e) => data(e).node_id),
    ['start', 'is_volcano', 'shape', 'no'],
  );
});

test('an unknown model fails its node and the run', async (t) => {
  const { end, events } = await run(knowledgeQaGraph(kb.kbId, 'no-such-model'), { question: 'How long is each Zephyr-9 blade?' });
  t.is(end.type, 'WorkflowRunFailed');
  t.like(data(end).error, { code: 'model_not_found', node_id: 'llm' });
  const failed = events.find((e) => e.type === 'NodeRunFailed')!;
  t.like(data(failed), { node_id: 'llm', error: { code: 'model_not_found' } });
  t.false(events.some((e) => e.type === 'NodeRunStarted' && data(e).node_id === 'answer'));
});

test('an off-topic question runs through knowledge-qa to "not covered", citing nothing and calling no model', async (t) => {
  const { end } = await run(knowledgeQaGraph(kb.kbId), { question: 'Who won the 1998 FIFA World Cup final?' });
  t.is(end.type, 'WorkflowRunSucceeded', JSON.stringify(end.data));
  t.is(data(end).outputs.answer, NOT_COVERED_ANSWER);
  t.deepEqual(data(end).outputs.citations, []);
});

test('an off-topic question in Chinese runs through knowledge-qa to "not covered" in Chinese, as chat refuses', async (t) => {
  const question = '1998 年世界杯决赛谁赢了？';
  const { end } = await run(knowledgeQaGraph(kb.kbId), { question });
  t.is(end.type, 'WorkflowRunSucceeded', JSON.stringify(end.data));
  t.is(data(end).outputs.answer, notCoveredAnswer('zh'));
  const chat = await server.call('POST', '/v1/chat/completions', {
    json: { model: 'kbqa-extractive', messages: [{ role: 'user', content: question }], knowledge_base_id: kb.kbId },
  });
  t.is(chat.body.choices[0].message.content, data(end).outputs.answer);
});

test('a deleted knowledge base fails the retrieval node', async (t) => {
  const { body: other } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'doomed' } });
  t.is((await server.call('DELETE', `/v1/knowledge-bases/${other.id}`)).status, 200);
  const { end } = await run(knowledgeQaGraph(other.id), { question: 'anything?' });
  t.is(end.type, 'WorkflowRunFailed');
  t.like(data(end).error, { code: 'knowledge_base_not_found', node_id: 'retrieve' });
});

test('a workflow deleted before its run starts fails the run with workflow_deleted', async (t) => {
  const workflowId = await createWorkflow(knowledgeQaGraph(kb.kbId));
  await handleCommand(server.runtime.store, workflowDecider, workflowId, {
    type: 'DeleteWorkflow',
    data: { workflow_id: workflowId, workspace_id: workspaceId },
    metadata: meta(),
  });
  const { end, events } = await finished(await requestRun(workflowId, { question: 'q' }));
  t.is(end.type, 'WorkflowRunFailed');
  t.like(data(end).error, { code: 'workflow_deleted', node_id: null });
  t.regex(data(end).error.message, /deleted/);
  t.false(events.some((e) => e.type === 'NodeRunStarted'));
});

test('a redelivered request runs no node again', async (t) => {
  const runId = await requestRun(await createWorkflow(knowledgeQaGraph(kb.kbId)), { question: 'How long is each Zephyr-9 blade?' });
  const { events } = await finished(runId);
  const runner = runnerConsumer({
    ctx: server.runtime.ctx,
    search: server.runtime.search,
    chatModels: new Map([['kbqa-extractive', createExtractiveChatModel({ analyzer })]]),
    maxContextTokens: 3000,
  });
  const requested = events.find((e) => e.type === 'WorkflowRunRequested')!;
  await runner.handle([requested]);
  await runner.handle([requested]);
  t.deepEqual(
    (await runStream(runId)).map((e) => e.id),
    events.map((e) => e.id),
  );
});

test('a node that outlives its timeout_ms fails with timeout', async (t) => {
  const slow: ChatModel = {
    model: { id: 'slow', kind: 'chat', ownedBy: 'test', created: 0 },
    passesOptions: false,
    // Ignores the abort on purpose: the node must give up on its own.
    complete: () => new Promise((resolve) => setTimeout(() => resolve({ content: 'late', finishReason: 'stop', usage: { promptTokens: 0, completionTokens: 0 } }), 2_000)),
    stream: () => {
      throw new Error('not used');
    },
  };
  const deps: EngineDeps = { ctx: server.runtime.ctx, search: server.runtime.search, chatModels: new Map([['slow', slow]]), maxContextTokens: 3000 };
  const llm: WorkflowNode = { id: 'llm', type: 'llm', timeout_ms: 100, config: { model: 'slow', prompt: 'hi' } };
  const scope = { workspaceId, inputs: {}, outputs: new Map(), nodeTypes: new Map([['llm', 'llm']]) };
  const t0 = Date.now();
  const result = await executeNode(llm, scope, deps);
  t.like(result, { ok: false, code: 'timeout' });
  t.true(Date.now() - t0 < 1_500);
});
