import test from 'ava';
import { traceOf } from '../../src/domain/workflow/trace.ts';
import { resolveVersion, versionsOf } from '../../src/domain/workflow/versions.ts';
import { knowledgeQaGraph } from '../../src/domain/workflow/knowledge-qa.ts';

const run = { run_id: 'run_1' };
const at = (s: number) => `2026-11-28T12:00:${String(s).padStart(2, '0')}.000Z`;

test('the trace keeps every attempt: one cut short by a crash stays, interrupted, before the one that took over', (t) => {
  const attempts = traceOf([
    { type: 'WorkflowRunStarted', data: { ...run, started_at: at(0) } },
    { type: 'NodeRunStarted', data: { ...run, node_id: 'start', node_type: 'start', attempt: 1, inputs: { q: 'x' }, started_at: at(1) } },
    { type: 'NodeRunSucceeded', data: { ...run, node_id: 'start', outputs: { q: 'x' }, elapsed_ms: 0.5, finished_at: at(1) } },
    { type: 'NodeRunStarted', data: { ...run, node_id: 'llm', node_type: 'llm', attempt: 1, inputs: { prompt: 'x' }, started_at: at(2) } },
    // The process died here; the resumed run starts the node again.
    { type: 'NodeRunStarted', data: { ...run, node_id: 'llm', node_type: 'llm', attempt: 2, inputs: { prompt: 'x' }, started_at: at(5) } },
    { type: 'NodeRunFailed', data: { ...run, node_id: 'llm', error: { code: 'timeout', message: 'slow' }, elapsed_ms: 30, finished_at: at(6) } },
  ]);
  t.deepEqual(
    attempts.map((a) => [a.node_id, a.attempt, a.status, a.elapsed_ms]),
    [
      ['start', 1, 'succeeded', 0.5],
      ['llm', 1, 'interrupted', null],
      ['llm', 2, 'failed', 30],
    ],
  );
  t.deepEqual(attempts[2]!.error, { code: 'timeout', message: 'slow' });
  t.deepEqual(attempts[0]!.outputs, { q: 'x' });
});

test('a node still running is in the trace as running; a reused one names its run', (t) => {
  const [reused, running] = traceOf([
    { type: 'NodeRunStarted', data: { ...run, node_id: 'retrieve', node_type: 'knowledge_retrieval', attempt: 1, inputs: {}, reused_from: 'run_0', started_at: at(1) } },
    { type: 'NodeRunSucceeded', data: { ...run, node_id: 'retrieve', outputs: { context: 'c' }, elapsed_ms: 0, finished_at: at(1) } },
    { type: 'NodeRunStarted', data: { ...run, node_id: 'llm', node_type: 'llm', attempt: 1, inputs: {}, started_at: at(2) } },
  ]);
  t.is(reused!.reused_from, 'run_0');
  t.like(running, { node_id: 'llm', status: 'running', finished_at: null, reused_from: null });
});

test('versions: every save with its graph, and when each was published', (t) => {
  const graph = knowledgeQaGraph('kb_1');
  const other = knowledgeQaGraph('kb_2');
  const data = { workflow_id: 'wf_1', description: null };
  const versions = versionsOf([
    { type: 'WorkflowCreated', data: { ...data, workspace_id: 'ws', name: 'A', graph, version: 1, created_at: at(1) } },
    { type: 'WorkflowPublished', data: { workflow_id: 'wf_1', version: 1, published_at: at(2) } },
    { type: 'WorkflowUpdated', data: { ...data, name: 'B', graph: other, version: 2, updated_at: at(3) } },
  ]);
  t.deepEqual(versions.map((v) => [v.version, v.name, v.saved_at, v.published_at]), [
    [1, 'A', at(1), at(2)],
    [2, 'B', at(3), null],
  ]);
  t.is(versions[1]!.graph, other);
});

test('which version runs: published, else the draft; draft, published or a number when asked', (t) => {
  t.deepEqual(resolveVersion(3, null, undefined), { ok: true, version: 3 });
  t.deepEqual(resolveVersion(3, 2, undefined), { ok: true, version: 2 });
  t.deepEqual(resolveVersion(3, 2, 'draft'), { ok: true, version: 3 });
  t.deepEqual(resolveVersion(3, 2, 'published'), { ok: true, version: 2 });
  t.deepEqual(resolveVersion(3, 2, 1), { ok: true, version: 1 });
  t.false(resolveVersion(3, null, 'published').ok);
  t.false(resolveVersion(3, 2, 4).ok);
});
