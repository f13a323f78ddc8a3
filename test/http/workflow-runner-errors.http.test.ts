import test from 'ava';
import { runnerConsumer } from '../../consumers/runner/index.ts';
import { createExtractiveChatModel } from '../../src/adapters/local/extractive-chat-model.ts';
import { analyzer } from '../helpers/analyzer.ts';
import { handleCommand } from '../../src/app/command-handler.ts';
import { knowledgeQaGraph } from '../../src/domain/workflow/knowledge-qa.ts';
import { workflowRunDecider } from '../../src/domain/workflow/run.ts';
import { workflowDecider } from '../../src/domain/workflow/workflow.ts';
import type { EventStore } from '../../src/ports/event-store.ts';
import { startServer } from '../helpers/server.ts';

test('a run that fails on an internal error tells the client so in general words, and the operator the details', async (t) => {
  const server = await startServer();
  try {
    const { runtime } = server;
    // The service's own runner must not take the run first.
    await runtime.groups.get('runner')!.stop();
    const meta = { now: new Date().toISOString(), actor: 'test' };
    const kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'kb' } })).body;
    await handleCommand(runtime.store, workflowDecider, 'wf_1', {
      type: 'CreateWorkflow',
      data: { workflow_id: 'wf_1', workspace_id: 'default', name: 'qa', description: null, graph: knowledgeQaGraph(kb.id) },
      metadata: meta,
    });
    const requested = await handleCommand(runtime.store, workflowRunDecider, 'run_1', {
      type: 'RequestRun',
      data: { run_id: 'run_1', workflow_id: 'wf_1', workflow_version: 1, workspace_id: 'default', inputs: { question: 'q' }, response_mode: 'async' },
      metadata: meta,
    });
    // The workflow's stream cannot be read: an outage with a message that is nobody's business.
    const store: EventStore = Object.create(runtime.store, {
      readStream: { value: (id: string) => (id.startsWith('workflow-') ? Promise.reject(new Error('connection reset by 10.0.0.7:2113')) : runtime.store.readStream(id)) },
    });
    const reported: unknown[] = [];
    const runner = runnerConsumer({
      ctx: { ...runtime.ctx, store },
      search: runtime.search,
      chatModels: new Map([['kbqa-extractive', createExtractiveChatModel({ analyzer })]]),
      maxContextTokens: 3000,
      onInternalError: (error, runId) => reported.push([runId, (error as Error).message]),
    });
    const [event] = (await runtime.store.readStream('workflow_run-run_1')).filter((e) => e.position === requested.position);
    await runner.handle([event!]);
    const end = (await runtime.store.readStream('workflow_run-run_1')).at(-1)!;
    t.is(end.type, 'WorkflowRunFailed');
    t.deepEqual((end.data as { error: unknown }).error, { code: 'internal_error', message: 'The run stopped on an internal error; the server log has the details.', node_id: null });
    t.deepEqual(reported, [['run_1', 'connection reset by 10.0.0.7:2113']]);
  } finally {
    await server.close();
  }
});
