import test from 'ava';
import type { WorkflowGraph } from '../../schemas/workflow.ts';
import { knowledgeQaGraph } from '../../src/domain/workflow/knowledge-qa.ts';
import { workflowDecider, type WorkflowEvent } from '../../src/domain/workflow/workflow.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(workflowDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const target = { workflow_id: 'wf_1', workspace_id: 'ws_a' };
const graph = knowledgeQaGraph('kb_1') as WorkflowGraph;
const created: WorkflowEvent = { type: 'WorkflowCreated', data: { ...target, name: 'QA', description: null, graph, version: 1, created_at: T0 } };

test('create saves a valid graph as version 1', (t) => {
  spec(t).given().when({ type: 'CreateWorkflow', data: { ...target, name: 'QA', description: null, graph }, metadata: at(T0) }).then([created]);
  spec(t).given(created).when({ type: 'CreateWorkflow', data: { ...target, name: 'QA', description: null, graph }, metadata: at(T0) }).thenThrows('conflict', 'workflow_exists');
});

test('an invalid graph is refused, naming the node at fault', (t) => {
  const broken = { ...graph, edges: graph.edges.filter((e) => e.to !== graph.nodes.at(-1)!.id) } as WorkflowGraph;
  spec(t)
    .given()
    .when({ type: 'CreateWorkflow', data: { ...target, name: 'QA', description: null, graph: broken }, metadata: at(T0) })
    .thenThrows('invalid', 'invalid_graph_unreachable', `graph.nodes.${graph.nodes.at(-1)!.id}`);
});

test('each update is a new version; delete; another workspace sees nothing', (t) => {
  spec(t)
    .given(created)
    .when({ type: 'UpdateWorkflow', data: { ...target, name: 'QA 2' }, metadata: at(T1) })
    .then([{ type: 'WorkflowUpdated', data: { workflow_id: 'wf_1', name: 'QA 2', description: null, graph, version: 2, updated_at: T1 } }]);
  spec(t).given(created).when({ type: 'DeleteWorkflow', data: target, metadata: at(T1) }).then([{ type: 'WorkflowDeleted', data: { workflow_id: 'wf_1', deleted_at: T1 } }]);
  spec(t).given(created).when({ type: 'DeleteWorkflow', data: { ...target, workspace_id: 'ws_b' }, metadata: at(T1) }).thenThrows('not_found', 'workflow_not_found');
  const deleted: WorkflowEvent = { type: 'WorkflowDeleted', data: { workflow_id: 'wf_1', deleted_at: T1 } };
  spec(t).given(created, deleted).when({ type: 'UpdateWorkflow', data: { ...target, name: 'x' }, metadata: at(T1) }).thenThrows('not_found', 'workflow_not_found');
});
