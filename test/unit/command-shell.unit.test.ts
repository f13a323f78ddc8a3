import test from 'ava';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { handleCommand } from '../../src/app/command-handler.ts';
import { retryOnConflict } from '../../src/app/conflict-retry.ts';
import { workflowRunDecider, type WorkflowRunCommand } from '../../src/domain/workflow/run.ts';
import { ConcurrencyError, type EventStore } from '../../src/ports/event-store.ts';
import { countingStore } from '../helpers/counting-store.ts';

const conflict = () => new ConcurrencyError('s', 0, 1);
const policy = { attempts: 3, baseMs: 10, maxMs: 100 };

test('retry policy: a conflict, then success after one jittered wait', async (t) => {
  const waits: number[] = [];
  const attempts: number[] = [];
  const result = await retryOnConflict(
    async (n) => {
      attempts.push(n);
      if (n === 1) throw conflict();
      return 'appended';
    },
    policy,
    { wait: async (ms) => void waits.push(ms), random: () => 0.5 },
  );
  t.is(result, 'appended');
  t.deepEqual(attempts, [1, 2]);
  t.deepEqual(waits, [5], 'half of the first ceiling (base), by the jitter drawn');
});

test('retry policy: the bound reached, the last conflict surfaces', async (t) => {
  const waits: number[] = [];
  let attempts = 0;
  const last = conflict();
  const error = await t.throwsAsync(
    retryOnConflict(
      async () => {
        attempts++;
        throw attempts === policy.attempts ? last : conflict();
      },
      policy,
      { wait: async (ms) => void waits.push(ms), random: () => 1 },
    ),
  );
  t.is(error, last);
  t.is(attempts, 3);
  t.deepEqual(waits, [10, 20], 'exponential ceilings, no wait after the last attempt');
});

test('retry policy: any other error surfaces at once', async (t) => {
  let attempts = 0;
  const waits: number[] = [];
  await t.throwsAsync(
    retryOnConflict(
      async () => {
        attempts++;
        throw new Error('disk full');
      },
      policy,
      { wait: async (ms) => void waits.push(ms) },
    ),
    { message: 'disk full' },
  );
  t.is(attempts, 1);
  t.deepEqual(waits, []);
});

// The shell, with a run's stream: another writer may start a node between our read and our append.
const T0 = '2026-01-01T00:00:00.000Z';
const command = (body: Omit<WorkflowRunCommand, 'metadata'>) => ({ ...body, metadata: { now: T0 } }) as WorkflowRunCommand;
const startNode = (nodeId: string) => command({ type: 'StartNode', data: { run_id: 'r', node_id: nodeId, node_type: 'template', inputs: {} } });
const noWaits = { retry: { attempts: 3, baseMs: 0, maxMs: 0 } };

async function runningRun() {
  const store = createSqliteEventStore({ db: openSqlite(':memory:') });
  await handleCommand(store, workflowRunDecider, 'r', command({ type: 'RequestRun', data: { run_id: 'r', workflow_id: 'wf', workflow_version: 1, workspace_id: 'w', inputs: {}, response_mode: 'async' } }));
  const started = await handleCommand(store, workflowRunDecider, 'r', command({ type: 'StartRun', data: { run_id: 'r' } }));
  return { store, started };
}

/** Before our append number `n` (all of them when n is 0), another writer starts a node of its own. */
const interleave = (store: EventStore, n: number) => async (_streamId: string, call: number) => {
  if (n === 0 || call === n) await handleCommand(store, workflowRunDecider, 'r', startNode(`other${call}`));
};

test('shell: an append that lost a race is decided again on the stream as it is now', async (t) => {
  const { store: base } = await runningRun();
  const { store, calls } = countingStore(base, interleave(base, 1));
  const result = await handleCommand(store, workflowRunDecider, 'r', startNode('a'), noWaits);
  t.deepEqual(calls.reads, ['workflow_run-r', 'workflow_run-r'], 'read, conflict, read again');
  t.is(result.state.status === 'running' && Object.keys(result.state.nodes).sort().join(), 'a,other1');
  t.is(result.revision, 3);
  t.deepEqual((await base.readStream('workflow_run-r')).map((e) => e.type).slice(2), ['NodeRunStarted', 'NodeRunStarted']);
});

test('shell: a conflict that outlasts the policy reaches the caller', async (t) => {
  const { store: base } = await runningRun();
  const { store, calls } = countingStore(base, interleave(base, 0));
  await t.throwsAsync(handleCommand(store, workflowRunDecider, 'r', startNode('a'), noWaits), { instanceOf: ConcurrencyError });
  t.is(calls.reads.length, 3);
  t.is(calls.appends.length, 3);
});

test("shell: a client's expected revision is checked, and a race against it is not retried", async (t) => {
  const { store: base, started } = await runningRun();
  const { store, calls } = countingStore(base, interleave(base, 1));
  await t.throwsAsync(handleCommand(store, workflowRunDecider, 'r', startNode('a'), { expectedRevision: started.revision, ...noWaits }), { instanceOf: ConcurrencyError });
  t.is(calls.reads.length, 1);
  t.is(calls.appends.length, 1);
  await t.throwsAsync(handleCommand(store, workflowRunDecider, 'r', startNode('a'), { expectedRevision: started.revision }), { instanceOf: ConcurrencyError }, 'a stale revision');
});

test('shell: a known state and revision skip the read; a stale one falls back to reading', async (t) => {
  const { store: base, started } = await runningRun();
  const { store, calls } = countingStore(base);
  const a = await handleCommand(store, workflowRunDecider, 'r', startNode('a'), { known: started });
  const b = await handleCommand(store, workflowRunDecider, 'r', startNode('b'), { known: a });
  t.deepEqual(calls.reads, [], 'no read while the known revision holds');
  t.is(b.revision, 3);
  await handleCommand(base, workflowRunDecider, 'r', startNode('other'));
  const c = await handleCommand(store, workflowRunDecider, 'r', startNode('c'), { known: b, ...noWaits });
  t.deepEqual(calls.reads, ['workflow_run-r'], 'the conflict made the shell read');
  t.is(c.state.status === 'running' && Object.keys(c.state.nodes).sort().join(), 'a,b,c,other');
  t.is(c.revision, 5);
});
