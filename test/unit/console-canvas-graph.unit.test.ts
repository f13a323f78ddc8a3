import test from 'ava';
import { faultsByNode, nodeOfParam } from '../../web/console/src/capabilities/workflows/canvas/faults.ts';
import { type CanvasGraph, connect, edgeKey, freshNodeId, parseWhen, removeNode, renameNode, upstreamOf } from '../../web/console/src/capabilities/workflows/canvas/graph.ts';
import { historyOf, record, redo, undo } from '../../web/console/src/capabilities/workflows/canvas/history.ts';
import { layOut, NODE_WIDTH } from '../../web/console/src/capabilities/workflows/canvas/layout.ts';
import { branchesOf, fieldsOf, outputsOf, unusedBranch } from '../../web/console/src/capabilities/workflows/canvas/node-types.ts';
import { applyRunEvent, statusesOf } from '../../web/console/src/capabilities/workflows/canvas/run-status.ts';

const qa: CanvasGraph = {
  nodes: [
    { id: 'start', type: 'start', config: { inputs: [{ name: 'question', type: 'string' }] } },
    { id: 'search', type: 'knowledge_retrieval', config: { knowledge_base_id: 'kb_1', query: '{{start.question}}' } },
    { id: 'llm', type: 'llm', config: { model: 'kbqa-extractive', prompt: '{{start.question}}' } },
    { id: 'reply', type: 'direct_reply', config: { template: '{{llm.text}}' } },
  ],
  edges: [
    { from: 'start', to: 'search' },
    { from: 'search', to: 'llm' },
    { from: 'llm', to: 'reply' },
  ],
};

test('a new node takes its type as id, then the first free number', (t) => {
  t.is(freshNodeId('template', qa), 'template');
  t.is(freshNodeId('llm', qa), 'llm_2');
  t.is(freshNodeId('llm', { ...qa, nodes: [...qa.nodes, { id: 'llm_2', type: 'llm', config: {} }] }), 'llm_3');
});

test('connecting twice, or a node to itself, changes nothing; a branch edge differs by its when', (t) => {
  t.is(connect(qa, { from: 'start', to: 'search' }), qa);
  t.is(connect(qa, { from: 'llm', to: 'llm' }), qa);
  const branched = connect(connect(qa, { from: 'search', to: 'reply', when: true }), { from: 'search', to: 'reply', when: false });
  t.deepEqual(branched.edges.slice(3).map(edgeKey), ['search->reply:true', 'search->reply:false']);
});

test('removing a node takes its edges; renaming one renames them', (t) => {
  t.deepEqual(removeNode(qa, 'search').edges, [{ from: 'llm', to: 'reply' }]);
  const renamed = renameNode(qa, 'search', 'retrieve');
  t.deepEqual(renamed.edges.map(edgeKey), ['start->retrieve', 'retrieve->llm', 'llm->reply']);
  t.true(renamed.nodes.some((node) => node.id === 'retrieve'));
});

test('upstream nodes are every node with a path to this one, nearest first, and their outputs are what the picker offers', (t) => {
  t.deepEqual(upstreamOf(qa, 'reply').map((node) => node.id), ['llm', 'search', 'start']);
  t.deepEqual(upstreamOf(qa, 'start'), []);
  t.deepEqual(outputsOf(qa.nodes[0]!), ['question']);
  t.deepEqual(outputsOf(qa.nodes[1]!), ['context', 'passages', 'citations', 'answerable', 'coverage', 'language']);
  t.deepEqual(outputsOf({ id: 'x', type: 'parameter_extractor', config: { schema: { type: 'object', properties: { city: { type: 'string' } } } } }), ['data', 'missing', 'city']);
});

test('the side panel draws a type’s fields, then any other config key as JSON; branches come from the config', (t) => {
  const fields = fieldsOf({ id: 'llm', type: 'llm', config: { model: 'm', prompt: '', extra: [1] } });
  t.deepEqual(fields.map((f) => f.name), ['model', 'system', 'prompt', 'temperature', 'max_tokens', 'extra']);
  t.is(fields.at(-1)!.kind, 'json');
  t.deepEqual(branchesOf({ id: 'c', type: 'question_classifier', config: { classes: [{ name: 'billing' }, { name: 'other' }] } }), ['billing', 'other']);
  t.is(branchesOf(qa.nodes[2]!), undefined);
});

test('when: "true" and "false" are booleans, other text a class name, nothing no when', (t) => {
  t.is(parseWhen('true'), true);
  t.is(parseWhen(' false '), false);
  t.is(parseWhen('billing'), 'billing');
  t.is(parseWhen('  '), undefined);
});

test('undo and redo walk the edits; keystrokes of one field are one step, and an edit after undo forgets the redo', (t) => {
  const a = historyOf(qa);
  const b = record(a, removeNode(qa, 'reply'));
  const typed1 = record(b, { ...b.present, nodes: [...b.present.nodes] }, 'llm.prompt');
  const typed2 = record(typed1, { ...typed1.present, nodes: [...typed1.present.nodes] }, 'llm.prompt');
  t.is(typed2.past.length, 2, 'two keystrokes in one field are one step');
  t.is(undo(undo(typed2)).present, qa);
  t.is(redo(undo(typed2)).present, typed2.present);
  t.deepEqual(record(undo(typed2), qa).future, []);
  t.is(undo(a), a);
});

test('the layout runs left to right in the order of the flow, nodes apart', (t) => {
  const positions = layOut(qa);
  const xs = ['start', 'search', 'llm', 'reply'].map((id) => positions[id]!.x);
  for (let i = 1; i < xs.length; i++) t.true(xs[i]! >= xs[i - 1]! + NODE_WIDTH, `${xs.join(', ')}`);
  t.deepEqual(layOut(qa), positions, 'the same graph, the same picture');
});

test('a 400’s param names its node by id or by index; faults are grouped by node', (t) => {
  t.is(nodeOfParam('graph.nodes.llm.config.prompt', qa), 'llm');
  t.is(nodeOfParam('graph.nodes.1.config.query', qa), 'search');
  t.is(nodeOfParam('graph.edges.0', qa), null);
  t.is(nodeOfParam(null, qa), null);
  t.deepEqual(faultsByNode([{ node_id: 'llm', code: 'x', message: 'a', param: 'p' }, { node_id: null, code: 'y', message: 'b', param: 'graph' }]), { llm: ['a'] });
});

test('run events colour their node; other events and data without a node change nothing', (t) => {
  let statuses = applyRunEvent({}, 'NodeRunStarted', JSON.stringify({ node_id: 'llm' }));
  t.deepEqual(statuses, { llm: 'running' });
  statuses = applyRunEvent(statuses, 'NodeRunFailed', JSON.stringify({ node_id: 'llm', error: {} }));
  t.deepEqual(statuses, { llm: 'failed' });
  t.is(applyRunEvent(statuses, 'workflow_run', '{}'), statuses);
  t.is(applyRunEvent(statuses, 'NodeRunSucceeded', 'not json'), statuses);
  t.deepEqual(statusesOf([{ node_id: 'a', status: 'succeeded', inputs: {}, outputs: {}, error: null, elapsed_ms: 1, reused_from: 'run_1' }]), { a: 'reused' });
});

test('a new edge out of a branch takes its first value no edge carries yet; out of other nodes, none', (t) => {
  const branching = { ...qa, nodes: [...qa.nodes, { id: 'check', type: 'condition', config: { left: '', operator: 'empty' } }] };
  t.is(unusedBranch(branching, 'check'), true);
  t.is(unusedBranch(connect(branching, { from: 'check', to: 'reply', when: true }), 'check'), false);
  t.is(unusedBranch(branching, 'llm'), undefined);
  t.deepEqual(connect(qa, { from: 'start', to: 'reply', when: undefined }).edges.at(-1), { from: 'start', to: 'reply' });
});
