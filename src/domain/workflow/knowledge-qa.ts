import { DEFAULT_TIMEOUT_MS, type WorkflowGraph } from '../../../schemas/workflow.ts';
import { GROUNDING_INSTRUCTIONS } from '../chat/prompt.ts';

const PROMPT = 'Passages:\n\n{{retrieve.context}}\n\nQuestion: {{start.question}}';

/** The flow behind `template: "knowledge-qa"`: question → retrieval → grounded answer → reply. */
export function knowledgeQaGraph(knowledgeBaseId: string, model = 'kbqa-extractive'): WorkflowGraph {
  const timeout_ms = DEFAULT_TIMEOUT_MS;
  return {
    nodes: [
      { id: 'start', type: 'start', timeout_ms, config: { inputs: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'retrieve', type: 'knowledge_retrieval', timeout_ms, config: { knowledge_base_id: knowledgeBaseId, query: '{{start.question}}' } },
      { id: 'llm', type: 'llm', timeout_ms, config: { model, system: GROUNDING_INSTRUCTIONS, prompt: PROMPT } },
      { id: 'answer', type: 'direct_reply', timeout_ms, config: { template: '{{llm.text}}' } },
    ],
    edges: [
      { from: 'start', to: 'retrieve' },
      { from: 'retrieve', to: 'llm' },
      { from: 'llm', to: 'answer' },
    ],
  };
}
