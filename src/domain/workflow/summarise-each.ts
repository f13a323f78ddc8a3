import { DEFAULT_TIMEOUT_MS, type WorkflowGraph } from '../../../schemas/workflow.ts';

/**
 * The retrieved passages grouped by the document they come from, one text per document: what the
 * iteration summarises item by item. In a code node because grouping is data work no template does.
 */
const GROUP_BY_DOCUMENT = `const byDocument = new Map();
for (const passage of inputs.passages ?? []) {
  const source = passage.source ?? 'untitled';
  byDocument.set(source, [...(byDocument.get(source) ?? []), passage.text]);
}
return [...byDocument].map(([source, texts]) => 'Document: ' + source + '\\n\\n' + texts.join('\\n\\n'));`;

const BULLETS = `return (inputs.summaries ?? []).map((s) => '- ' + s.summary).join('\\n');`;

/**
 * The flow behind `template: "summarise-each"`: the passages a knowledge base holds on a topic,
 * grouped per document, each document summarised by its own run of a sub-graph (iteration, two at
 * a time), and the summaries listed in one reply that cites the passages.
 */
export function summariseEachGraph(knowledgeBaseId: string, model = 'kbqa-extractive'): WorkflowGraph {
  const timeout_ms = DEFAULT_TIMEOUT_MS;
  const perDocument = {
    nodes: [
      { id: 'start', type: 'start', config: { inputs: [{ name: 'item', type: 'string', required: true }] } },
      { id: 'summarise', type: 'llm', config: { model, system: 'Summarise the document below in two sentences, using only its text.', prompt: '{{start.item}}' } },
      { id: 'end', type: 'end', config: { outputs: { summary: '{{summarise.text}}' } } },
    ],
    edges: [
      { from: 'start', to: 'summarise' },
      { from: 'summarise', to: 'end' },
    ],
  };
  return {
    nodes: [
      { id: 'start', type: 'start', timeout_ms, config: { inputs: [{ name: 'topic', type: 'string', required: true }] } },
      { id: 'retrieve', type: 'knowledge_retrieval', timeout_ms, config: { knowledge_base_id: knowledgeBaseId, query: '{{start.topic}}', top_k: 12 } },
      { id: 'group', type: 'code', timeout_ms, config: { code: GROUP_BY_DOCUMENT, inputs: { passages: '{{retrieve.passages}}' } } },
      { id: 'each', type: 'iteration', timeout_ms: 120_000, config: { items: '{{group.result}}', graph: perDocument, parallelism: 2 } },
      { id: 'list', type: 'code', timeout_ms, config: { code: BULLETS, inputs: { summaries: '{{each.results}}' } } },
      { id: 'answer', type: 'direct_reply', timeout_ms, config: { template: '{{list.result}}' } },
    ],
    edges: [
      { from: 'start', to: 'retrieve' },
      { from: 'retrieve', to: 'group' },
      { from: 'group', to: 'each' },
      { from: 'each', to: 'list' },
      { from: 'list', to: 'answer' },
    ],
  };
}
