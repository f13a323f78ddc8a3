import test from 'ava';
import { workflowRunDecider, type WorkflowRunEvent } from '../../src/domain/workflow/run.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(workflowRunDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:01.000Z';
const run_id = 'run_1';
const requested: WorkflowRunEvent = {
  type: 'WorkflowRunRequested',
  data: { run_id, workflow_id: 'wf_1', workflow_version: 2, workspace_id: 'ws', inputs: { question: 'q' }, response_mode: 'async', requested_at: T0 },
};
const started: WorkflowRunEvent = { type: 'WorkflowRunStarted', data: { run_id, started_at: T0 } };
const nodeStarted: WorkflowRunEvent = {
  type: 'NodeRunStarted',
  data: { run_id, node_id: 'start', node_type: 'start', attempt: 1, inputs: {}, started_at: T0 },
};
const nodeSucceeded: WorkflowRunEvent = {
  type: 'NodeRunSucceeded',
  data: { run_id, node_id: 'start', outputs: { question: 'q' }, elapsed_ms: 1, finished_at: T1 },
};

test('a run is requested once', (t) => {
  const { requested_at: _, ...data } = requested.data as { requested_at: string } & Record<string, unknown>;
  spec(t).given().when({ type: 'RequestRun', data: data as never, metadata: at(T0) }).then([requested]);
  spec(t).given(requested).when({ type: 'RequestRun', data: data as never, metadata: at(T0) }).thenThrows('conflict', 'workflow_run_exists');
});

test('a redelivered request starts nothing twice', (t) => {
  spec(t).given(requested).when({ type: 'StartRun', data: { run_id }, metadata: at(T0) }).then([started]);
  spec(t).given(requested, started).when({ type: 'StartRun', data: { run_id }, metadata: at(T1) }).then([]);
  spec(t).given().when({ type: 'StartRun', data: { run_id }, metadata: at(T0) }).thenThrows('not_found', 'workflow_run_not_found');
});

test('a finished node never runs again; an interrupted one starts over with its attempt counted', (t) => {
  const startNode = { type: 'StartNode' as const, data: { run_id, node_id: 'start', node_type: 'start', inputs: {} }, metadata: at(T1) };
  spec(t).given(requested, started, nodeStarted, nodeSucceeded).when(startNode).then([]);
  spec(t)
    .given(requested, started, nodeStarted)
    .when(startNode)
    .then([{ type: 'NodeRunStarted', data: { ...startNode.data, attempt: 2, started_at: T1 } }]);
  spec(t).given(requested).when(startNode).thenThrows('conflict', 'workflow_run_not_running');
});

test('a node completes or fails once, and only after it started', (t) => {
  const complete = { type: 'CompleteNode' as const, data: { run_id, node_id: 'start', outputs: { question: 'q' }, elapsed_ms: 1 }, metadata: at(T1) };
  spec(t).given(requested, started, nodeStarted).when(complete).then([nodeSucceeded]);
  spec(t).given(requested, started, nodeStarted, nodeSucceeded).when(complete).then([]);
  spec(t).given(requested, started).when(complete).thenThrows('conflict', 'node_not_started');
  const fail = { type: 'FailNode' as const, data: { run_id, node_id: 'start', error: { code: 'timeout', message: 'slow' }, elapsed_ms: 5 }, metadata: at(T1) };
  spec(t)
    .given(requested, started, nodeStarted)
    .when(fail)
    .then([{ type: 'NodeRunFailed', data: { ...fail.data, finished_at: T1 } }]);
});

test('a run ends once; a queued run can fail (its workflow was deleted) but not succeed', (t) => {
  const succeed = { type: 'CompleteRun' as const, data: { run_id, outputs: { answer: 'a' } }, metadata: at(T1) };
  const fail = { type: 'FailRun' as const, data: { run_id, error: { code: 'workflow_deleted', message: 'gone', node_id: null } }, metadata: at(T1) };
  spec(t).given(requested, started).when(succeed).then([{ type: 'WorkflowRunSucceeded', data: { ...succeed.data, finished_at: T1 } }]);
  spec(t).given(requested).when(succeed).then([]);
  spec(t).given(requested).when(fail).then([{ type: 'WorkflowRunFailed', data: { ...fail.data, finished_at: T1 } }]);
  const failed: WorkflowRunEvent = { type: 'WorkflowRunFailed', data: { ...fail.data, finished_at: T1 } };
  spec(t).given(requested, failed).when(fail).then([]);
  spec(t).given(requested, failed).when({ type: 'StartRun', data: { run_id }, metadata: at(T1) }).then([]);
});

test('the state remembers each node’s outputs for a resumed run', (t) => {
  const state = [requested, started, nodeStarted, nodeSucceeded].reduce(workflowRunDecider.evolve, workflowRunDecider.initialState());
  t.is(state.status, 'running');
  if (state.status === 'absent') return;
  t.deepEqual(state.nodes.start, { status: 'succeeded', attempts: 1, outputs: { question: 'q' } });
  t.is(state.workflowVersion, 2);
});
