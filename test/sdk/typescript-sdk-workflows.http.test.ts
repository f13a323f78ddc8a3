import test from 'ava';
import { ConflictError, Kbqa } from '../../sdk/typescript/src/index.ts';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

/** The SDK's workflow debugger methods against a real server (the rest of the SDK: typescript-sdk.http.test.ts). */
let server: TestServer;
let kbqa: Kbqa;
let kb: SampleKb;

test.before(async () => {
  server = await startServer();
  kb = await sampleKnowledgeBase(server);
  kbqa = new Kbqa({ baseUrl: server.url, apiKey: ADMIN_KEY });
});
test.after.always(() => server?.close());

test('the workflow debugger: publish, versions, a stale save, validate, a run’s trace, one node alone, a run from a node', async (t) => {
  const wf = await kbqa.workflows.create({ name: 'QA', template: 'knowledge-qa', knowledge_base_id: kb.kbId });
  await kbqa.workflows.update(wf.id, { name: 'QA 2', graph: wf.graph });
  t.is((await kbqa.workflows.publish(wf.id)).published_version, 2);
  t.is((await kbqa.workflows.versions(wf.id)).data[0]!.version, 2);
  await t.throwsAsync(kbqa.workflows.update(wf.id, { name: 'stale', graph: wf.graph }, { ifMatch: 1 }), { instanceOf: ConflictError });
  t.true((await kbqa.workflows.validate(wf.graph)).valid);
  const question = 'How long is a Zephyr-9 blade?';
  const run = await kbqa.runWorkflow(wf.id, { question }, { version: 'published' });
  t.is(run.workflow_version, 2);
  const trace = await kbqa.workflows.trace(run.id);
  t.deepEqual(trace.data.map((a) => a.node_id), ['start', 'retrieve', 'llm', 'answer']);
  t.is((await kbqa.workflows.listRuns(wf.id)).data[0]!.id, run.id);
  const retrieve = await kbqa.workflows.runNode(wf.id, 'retrieve', { start: { question } });
  t.is(retrieve.status, 'succeeded');
  const again = await kbqa.runWorkflow(wf.id, {}, { from: { run_id: run.id, node_id: 'llm' } });
  t.is(again.outputs!.answer, run.outputs!.answer);
  t.is((await kbqa.workflows.trace(again.id)).data[0]!.reused_from, run.id);
});
