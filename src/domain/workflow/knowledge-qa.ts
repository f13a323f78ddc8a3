import { DEFAULT_TIMEOUT_MS, type WorkflowGraph } from '../../../schemas/workflow.ts';
import { GROUNDING_INSTRUCTIONS } from '../chat/prompt.ts';

/** The same messages chat sends: rules and numbered passages as the system message, the question as the user's. */
const SYSTEM = `${GROUNDING_INSTRUCTIONS}\n\nPassages:\n\n{{retrieve.context}}`;

/** The flow behind `template: "knowledge-qa"`: question → retrieval → grounded answer → reply. */
export function knowledgeQaGraph(knowledgeBaseId: string, model = 'kbqa-extractive'): WorkflowGraph {
  const timeout_ms = DEFAULT_TIMEOUT_MS;
  return {
    nodes: [
      { id: 'start', type: 'start', timeout_ms, config: { inputs: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'retrieve', type: 'knowledge_retrieval', timeout_ms, config: { knowledge_base_id: knowledgeBaseId, query: '{{start.question}}' } },
      { id: 'llm', type: 'llm', timeout_ms, config: { model, system: SYSTEM, prompt: '{{start.question}}' } },
      { id: 'answer', type: 'direct_reply', timeout_ms, config: { template: '{{llm.text}}' } },
    ],
    edges: [
      { from: 'start', to: 'retrieve' },
      { from: 'retrieve', to: 'llm' },
      { from: 'llm', to: 'answer' },
    ],
  };
}
